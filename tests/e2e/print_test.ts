import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import { sql } from "kysely";
import { PDFDocument } from "pdf-lib";
import { call, signedInUser, type TestApp } from "../helpers/test_app.ts";
import {
  DESKTOP,
  expectCount,
  screenshotPath,
  TABLET_LANDSCAPE,
  TABLET_PORTRAIT,
} from "../helpers/browser.ts";
import type { ItemKind } from "../../db/schema.ts";
import { subtotalDecimal } from "../../src/quotes/rules.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, cookie: string;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  ({ cookie: cookie } = await signedInUser(app.db, { firstName: "Maria" }));
  await app.db.updateTable("settings").set({
    storeName: "Northside Eyewear",
    storePhone: "(555) 010-0100",
    storeEmail: "hello@northside.test",
    storeAddress: "1 Main St, Austin, TX 78701",
    storeWebsite: "northside.test",
  }).where("id", "=", 1).execute();
});

// ---------------------------------------------------------------------------
// Fixtures, written straight to the database

// Staff-only words: none of them may reach the client copy.
const INTERNAL_NOTE = "INTERNAL-ONLY-7731 client haggles, do not go below cost";
const INTERNAL_MARK = "INTERNAL-ONLY-7731";
const PD_DISTANCE = "63.5";
const EXTRA = ["Vertex distance", "12 mm"] as const;
const FOOTER_MESSAGE = "Thank you for choosing Northside. Prices are valid for 30 days.";

interface OptionInit {
  label: string;
  isChosen: boolean;
  segOc?: string;
  notes?: string;
  shipping?: string;
  adjustmentAmount?: string;
  adjustmentReason?: string;
  items: Array<{ kind: ItemKind; name: string; sku?: string; unitPrice: string; qty?: number }>;
}

/** Three options, the first and the third chosen. */
const THREE_OPTIONS: OptionInit[] = [
  {
    label: "Everyday",
    isChosen: true,
    segOc: "22/24",
    notes: "Lighter frame preferred; anti-fog for cycling.",
    adjustmentAmount: "-25.00",
    adjustmentReason: "Spring sale",
    items: [
      { kind: "FRAME", name: "Ray-Ban", sku: "RB5154-2000", unitPrice: "189.00" },
      { kind: "PACKAGE", name: "Premium Progressive", unitPrice: "389.00" },
      { kind: "ADDON", name: "Transitions", unitPrice: "120.00" },
    ],
  },
  {
    label: "Sport Pair",
    isChosen: false,
    shipping: "15.00",
    adjustmentAmount: "-10.00",
    items: [
      { kind: "FRAME", name: "Oakley", sku: "", unitPrice: "150.00" },
      { kind: "PACKAGE", name: "Custom Package", unitPrice: "0" },
      { kind: "LENS", name: "Single Vision", unitPrice: "90.00" },
      { kind: "MATERIAL", name: "Polycarbonate", unitPrice: "40.00" },
      { kind: "AR", name: "Premium AR", unitPrice: "85.00" },
      { kind: "OTHER", name: "Sports strap", unitPrice: "12.50", qty: 2 },
    ],
  },
  {
    label: "",
    isChosen: true,
    items: [{ kind: "FRAME", name: "House Brand", sku: "", unitPrice: "99.00" }],
  },
];

let heardHowId: string | undefined;

async function insertQuote(options: OptionInit[] = THREE_OPTIONS) {
  heardHowId ??= (await app.db.insertInto("heardHowOptions").values({ label: "Instagram" })
    .returning("id").executeTakeFirstOrThrow()).id;
  const client = await app.db.insertInto("clients").values({
    firstName: "Jane",
    lastName: "Doe",
    email: "jane.doe@example.com",
    mobilePhone: "555-321-9876",
    dob: "1985-04-12",
    address1: "42 Elm Street",
    address2: "Apt 3",
    city: "Austin",
    state: "TX",
    zip: "78704",
    heardHowId,
    smsConsent: true,
    emailConsent: false,
  }).returning("id").executeTakeFirstOrThrow();
  await app.db.insertInto("clientMeasurements").values({
    clientId: client.id,
    pdBinocular: PD_DISTANCE,
    pdNear: "60",
    measurementsComplete: true,
    extras: sql`${JSON.stringify({ [EXTRA[0]]: EXTRA[1] })}::text::jsonb`,
    updatedAt: new Date(),
  }).execute();
  const quote = await app.db.insertInto("quotes").values({
    clientId: client.id,
    status: "ACCEPTED",
    opticianName: "Dr. Ana Ruiz",
    internalNotes: INTERNAL_NOTE,
    footerMessage: FOOTER_MESSAGE,
  }).returning(["id", "quoteNumber"]).executeTakeFirstOrThrow();
  for (const [position, option] of options.entries()) {
    const items = option.items.map((item) => ({ ...item, qty: item.qty ?? 1 }));
    const row = await app.db.insertInto("quoteOptions").values({
      quoteId: quote.id,
      position,
      label: option.label,
      notes: option.notes ?? "",
      isChosen: option.isChosen,
      shipping: option.shipping ?? "0",
      adjustmentAmount: option.adjustmentAmount ?? "0",
      adjustmentReason: option.adjustmentReason ?? "",
      subtotal: subtotalDecimal(items),
    }).returning("id").executeTakeFirstOrThrow();
    await app.db.insertInto("optionItems").values(items.map((item, i) => ({
      optionId: row.id,
      position: i,
      kind: item.kind,
      name: item.name,
      sku: item.kind === "FRAME" ? item.sku ?? "" : null,
      unitPrice: item.unitPrice,
      qty: item.qty,
      notes: "",
      catalogId: null,
    }))).execute();
    if (option.segOc) {
      await app.db.insertInto("optionFrameMeasurements").values({
        optionId: row.id,
        segOc: option.segOc,
        updatedAt: new Date(),
      }).execute();
    }
  }
  return { quoteId: quote.id, quoteNumber: quote.quoteNumber };
}

// ---------------------------------------------------------------------------
// Browser helpers

/**
 * A signed-in page with window.print stubbed (a real print dialog would block
 * the test), recording every request made after the page has loaded.
 */
async function openPrint(path: string, viewport = DESKTOP) {
  const context = await browser.newContext({ viewport, baseURL: app.baseUrl });
  await context.addCookies([{
    name: "lensdesk_session",
    value: cookie.split("=")[1],
    url: app.baseUrl,
  }]);
  await context.addInitScript(() => {
    const w = globalThis as unknown as { printCalls: number; print: () => void };
    w.printCalls = 0;
    w.print = () => {
      w.printCalls++;
    };
  });
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
  });
  page.on("request", (req) => requests.push(req.url()));
  const response = await page.goto(path, { waitUntil: "load" });
  if (await page.locator("[data-island]").count()) {
    await page.waitForSelector("html[data-hydrated=true]");
  }
  return { page, problems, requests, status: response?.status() };
}

const printCalls = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { printCalls: number }).printCalls);

interface PdfPages {
  count: number;
  sizes: Array<{ width: number; height: number }>;
}

/** Prints the page the way the browser's own print would, with the page's @page sizes. */
async function printToPdf(page: Page, name: string): Promise<PdfPages> {
  const bytes = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  const shot = screenshotPath(name);
  if (shot) await Deno.writeFile(shot.replace(/\.png$/, ".pdf"), bytes);
  const pdf = await PDFDocument.load(bytes);
  const sizes = pdf.getPages().map((p) => {
    const { width, height } = p.getSize();
    return { width: Math.round(width), height: Math.round(height) };
  });
  return { count: sizes.length, sizes };
}

const LANDSCAPE = { width: 792, height: 612 };
const PORTRAIT = { width: 612, height: 792 };

async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage: true });
}

async function htmlOf(path: string, withCookie = true) {
  return await call(app, "GET", path, {
    cookie: withCookie ? cookie : undefined,
    headers: { accept: "text/html" },
  });
}

/** The visible text of every sheet of the copy on show, one string per sheet. */
const sheetTexts = (page: Page) =>
  page.locator(".print-copy:not([hidden]) .print-sheet").evaluateAll((els) =>
    els.map((el) => (el as HTMLElement).innerText.replace(/\s+/g, " "))
  );

// ---------------------------------------------------------------------------

describe("print quote", () => {
  it("the internal copy prints one letter-landscape page per chosen option", async () => {
    const { quoteId } = await insertQuote();
    const { page, problems } = await openPrint(`/print/${quoteId}?copy=internal`);
    await expect(page.locator("#print-copy-internal").isVisible()).resolves.toBe(true);
    await expect(page.locator("#print-copy-client").isHidden()).resolves.toBe(true);
    await shoot(page, "print-internal-screen");
    // On paper: no staff bar, no controls, only the sheets.
    await page.emulateMedia({ media: "print" });
    await expect(page.locator(".print-controls").isHidden()).resolves.toBe(true);
    await expect(page.locator(".topbar").isHidden()).resolves.toBe(true);
    await page.emulateMedia({ media: null });
    const pdf = await printToPdf(page, "print-internal");
    expect(pdf.count).toBe(2);
    for (const size of pdf.sizes) expect(size).toEqual(LANDSCAPE);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("the client copy prints one letter-portrait page per option", async () => {
    const { quoteId } = await insertQuote();
    const { page, problems } = await openPrint(`/print/${quoteId}`);
    await expect(page.locator("#print-copy-client").isVisible()).resolves.toBe(true);
    await expect(page.locator("#print-copy-internal").isHidden()).resolves.toBe(true);
    await shoot(page, "print-client-screen");
    const pdf = await printToPdf(page, "print-client");
    expect(pdf.count).toBe(3);
    for (const size of pdf.sizes) expect(size).toEqual(PORTRAIT);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("the internal copy shows every element of the spec", async () => {
    const { quoteId, quoteNumber } = await insertQuote();
    const { page } = await openPrint(`/print/${quoteId}?copy=internal`);
    const [first, second] = await sheetTexts(page);
    for (
      const text of [
        "INTERNAL QUOTE COPY",
        `Quote # ${quoteNumber}`,
        "Page 1 of 2",
        "OPTION RB5154-2000",
        "Name Jane Doe",
        "Email jane.doe@example.com",
        "Phone 555-321-9876",
        "Date of Birth April 12, 1985",
        "Address 42 Elm Street Apt 3 Austin, TX 78704",
        "SMS Consent Yes",
        "Email Consent No",
        "How Heard Instagram",
        "PD Distance 63.5 mm",
        "PD Near 60 mm",
        "SEG/OC 22/24",
        `${EXTRA[0]} ${EXTRA[1]}`,
        "Optician Dr. Ana Ruiz",
        "Status Accepted",
        INTERNAL_NOTE,
        "Lighter frame preferred; anti-fog for cycling.",
        "FRAME Ray-Ban $189.00",
        "LENS PACKAGE Premium Progressive $389.00",
        "ADD-ON Transitions $120.00",
        "Subtotal $698.00",
        "Spring sale -$25.00",
        "Total $673.00",
      ]
    ) expect(first).toContain(text);
    expect(first).toMatch(/Created [A-Z][a-z]+ \d{1,2}, \d{4}/);
    expect(first).not.toContain("Shipping");
    // The third option: no SKU, no label, no SEG/OC, no notes.
    for (
      const text of ["Page 2 of 2", "OPTION Option 3", "SEG/OC N/A", "OPTION NOTES N/A"]
    ) expect(second).toContain(text);
    expect(second).toContain("Total $99.00");
    const totalWeight = await page.locator("#print-copy-internal .print-total td").first()
      .evaluate((el) => getComputedStyle(el).fontWeight);
    expect(Number(totalWeight)).toBeGreaterThanOrEqual(700);
    await page.context().close();
  });

  it("the client copy has header, client, details, notes, prices and the store footer", async () => {
    const { quoteId, quoteNumber } = await insertQuote();
    const { page } = await openPrint(`/print/${quoteId}`);
    const sheets = await sheetTexts(page);
    expect(sheets.length).toBe(3);
    const [first, second, third] = sheets;
    for (
      const text of [
        "Northside Eyewear",
        "EYEWEAR QUOTE",
        "RB5154-2000",
        `Quote # ${quoteNumber}`,
        "Page 1 of 3",
        "Name Jane Doe",
        "Email jane.doe@example.com",
        "Phone 555-321-9876",
        "Address 42 Elm Street Apt 3 Austin, TX 78704",
        "Option RB5154-2000",
        "Optician Dr. Ana Ruiz",
        "Status Accepted",
        "Lighter frame preferred; anti-fog for cycling.",
        "Total $673.00",
        "1 Main St, Austin, TX 78701",
        "(555) 010-0100",
        "hello@northside.test",
        "northside.test",
        FOOTER_MESSAGE,
      ]
    ) expect(first).toContain(text);
    await expect(page.locator("#print-copy-client .print-logo").first().getAttribute("src"))
      .resolves.toBe("/static/logo.svg");
    // Shipping only when above 0; qty only when above 1; the adjustment as Promo by default.
    for (
      const text of [
        "Page 2 of 3",
        "Sport Pair",
        "OTHER Sports strap × 2 $25.00",
        "Shipping $15.00",
        "Promo -$10.00",
        "Total $395.00",
      ]
    ) expect(second).toContain(text);
    expect(third).toContain("Page 3 of 3");
    expect(third).toContain("Option 3");
    for (const sheet of sheets) {
      for (const secret of [INTERNAL_MARK, "INTERNAL QUOTE COPY", "PD Distance", "1985"]) {
        expect(sheet).not.toContain(secret);
      }
    }
    await page.context().close();
  });

  it("the client copy handed to the client has no internal data in its HTML", async () => {
    const { quoteId } = await insertQuote();
    for (
      const path of [
        `/quote/${quoteId}/client-print?noprint=1`,
        `/print/${quoteId}?external=true&noprint=1`,
        // Asking for the internal copy does not get it on the client's device.
        `/print/${quoteId}?external=true&noprint=1&copy=internal`,
      ]
    ) {
      const res = await htmlOf(path);
      expect(res.status).toBe(200);
      expect(res.text).toContain("EYEWEAR QUOTE");
      for (
        const secret of [INTERNAL_MARK, "INTERNAL QUOTE COPY", "print-copy-internal", EXTRA[0]]
      ) expect(res.text).not.toContain(secret);
      expect(res.text).not.toContain(`${PD_DISTANCE} mm`);
      // No toggle, and no staff bar on the page the client holds.
      expect(res.text).not.toContain("Internal Copy");
      expect(res.text).not.toContain('class="topbar"');
    }
    const staffPage = await htmlOf(`/print/${quoteId}?copy=internal`);
    expect(staffPage.status).toBe(200);
    expect(staffPage.text).toContain(INTERNAL_MARK);
  });

  it("the client-print link opens the print dialog by itself, once", async () => {
    const { quoteId } = await insertQuote();
    const { page, problems } = await openPrint(`/quote/${quoteId}/client-print`);
    await page.waitForFunction(() =>
      (globalThis as unknown as { printCalls: number }).printCalls > 0
    );
    await page.waitForTimeout(300);
    await expect(printCalls(page)).resolves.toBe(1);
    await expectCount(page.getByRole("button", { name: "Internal Copy" }), 0);
    await expectCount(page.locator(".topbar"), 0);
    await shoot(page, "print-client-print-screen");
    const pdf = await printToPdf(page, "print-client-print");
    expect(pdf.count).toBe(3);
    for (const size of pdf.sizes) expect(size).toEqual(PORTRAIT);
    // Print again after cancelling the dialog.
    await page.getByRole("button", { name: "Print", exact: true }).click();
    await expect(printCalls(page)).resolves.toBe(2);
    expect(problems).toEqual([]);
    await page.context().close();

    for (
      const path of [`/quote/${quoteId}/client-print?noprint=1`, `/print/${quoteId}?noprint=1`]
    ) {
      const quiet = await openPrint(path);
      await quiet.page.waitForTimeout(300);
      await expect(printCalls(quiet.page)).resolves.toBe(0);
      await quiet.page.context().close();
    }
    const external = await openPrint(`/print/${quoteId}?external=true`);
    await external.page.waitForFunction(() =>
      (globalThis as unknown as { printCalls: number }).printCalls > 0
    );
    await external.page.context().close();
  });

  it("the toggle switches copies without a request and keeps ?copy in the URL", async () => {
    const { quoteId } = await insertQuote();
    const { page, problems, requests } = await openPrint(`/print/${quoteId}`);
    const clientButton = page.getByRole("button", { name: "Client Copy" });
    const internalButton = page.getByRole("button", { name: "Internal Copy" });
    await expect(clientButton.getAttribute("aria-pressed")).resolves.toBe("true");
    await expect(internalButton.getAttribute("aria-pressed")).resolves.toBe("false");
    const before = requests.length;

    await internalButton.click();
    await expect(internalButton.getAttribute("aria-pressed")).resolves.toBe("true");
    await expect(page.locator("#print-copy-internal").isVisible()).resolves.toBe(true);
    await expect(page.locator("#print-copy-client").isHidden()).resolves.toBe(true);
    expect(new URL(page.url()).searchParams.get("copy")).toBe("internal");
    // What prints follows the toggle.
    const internal = await printToPdf(page, "print-toggled-internal");
    expect(internal.sizes).toEqual([LANDSCAPE, LANDSCAPE]);

    await clientButton.click();
    await expect(page.locator("#print-copy-client").isVisible()).resolves.toBe(true);
    await expect(page.locator("#print-copy-internal").isHidden()).resolves.toBe(true);
    expect(new URL(page.url()).searchParams.has("copy")).toBe(false);
    // Printing to PDF fetches the favicon again; that is Chromium, not the page.
    expect(requests.slice(before).filter((url) => !url.endsWith("/favicon.svg"))).toEqual([]);

    // The server honours ?copy=internal on load.
    await internalButton.click();
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector("html[data-hydrated=true]");
    await expect(page.locator("#print-copy-internal").isVisible()).resolves.toBe(true);
    await expect(page.getByRole("button", { name: "Internal Copy" }).getAttribute("aria-pressed"))
      .resolves.toBe("true");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  const tablets = [["portrait", TABLET_PORTRAIT], ["landscape", TABLET_LANDSCAPE]] as const;
  for (const [name, viewport] of tablets) {
    it(`the client copy fits a ${name} tablet without sideways scrolling`, async () => {
      const { quoteId } = await insertQuote();
      const { page, problems } = await openPrint(
        `/quote/${quoteId}/client-print?noprint=1`,
        viewport,
      );
      const overflow = await page.evaluate(() => {
        let widest = document.documentElement.scrollWidth;
        for (const el of Array.from(document.body.querySelectorAll("*"))) {
          widest = Math.max(widest, Math.ceil(el.getBoundingClientRect().right));
        }
        return widest - globalThis.innerWidth;
      });
      expect(overflow).toBeLessThanOrEqual(0);
      await shoot(page, `print-client-tablet-${name}`);
      // The paper is the same whatever the screen.
      const pdf = await printToPdf(page, `print-client-tablet-${name}`);
      expect(pdf.sizes).toEqual([PORTRAIT, PORTRAIT, PORTRAIT]);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }

  it("the Print button calls window.print, and nothing prints by itself", async () => {
    const { quoteId } = await insertQuote();
    const { page } = await openPrint(`/print/${quoteId}`);
    await page.waitForTimeout(200);
    await expect(printCalls(page)).resolves.toBe(0);
    await page.getByRole("button", { name: "Print", exact: true }).click();
    await expect(printCalls(page)).resolves.toBe(1);
    await page.context().close();
  });

  it("ships the entry script, the staff bar's search and the PrintControls island only", async () => {
    const { quoteId } = await insertQuote();
    const { page, requests } = await openPrint(`/print/${quoteId}`);
    await expect(
      page.locator("[data-island]").evaluateAll((els) =>
        els.map((el) => el.getAttribute("data-island"))
      ),
    ).resolves.toEqual(["SearchBox", "PrintControls"]);
    await expectCount(page.locator("script[type=module]"), 1);
    await expect(page.locator("script[type=module]").getAttribute("src")).resolves.toMatch(
      /^\/static\/build\/_entry-[0-9a-f]{12}\.js$/,
    );
    await expect(
      page.locator("link[rel=modulepreload]").evaluateAll((els) =>
        els.map((el) => el.getAttribute("href"))
      ),
    ).resolves.toEqual([
      expect.stringMatching(/\/SearchBox-[A-Z0-9]+\.js$/),
      expect.stringMatching(/\/PrintControls-[A-Z0-9]+\.js$/),
    ]);
    const islandChunks = requests.map((url) => new URL(url).pathname)
      .filter((p) => /\/[A-Z][A-Za-z0-9]*-[A-Z0-9]+\.js$/.test(p)).sort();
    expect(islandChunks.length).toBe(2);
    expect(islandChunks[0]).toMatch(/\/PrintControls-[A-Z0-9]+\.js$/);
    expect(islandChunks[1]).toMatch(/\/SearchBox-[A-Z0-9]+\.js$/);
    // No inline script: the island's props ride in a JSON script, never executed.
    const inline = await page.locator("script:not([src]):not([type='application/json'])").count();
    expect(inline).toBe(0);
    await page.context().close();
  });

  it("with no chosen option the internal copy says so", async () => {
    const { quoteId } = await insertQuote(THREE_OPTIONS.map((o) => ({ ...o, isChosen: false })));
    const { page } = await openPrint(`/print/${quoteId}?copy=internal`);
    await expect(
      page.locator("#print-copy-internal").getByText("No options selected for this quote.")
        .isVisible(),
    ).resolves.toBe(true);
    await shoot(page, "print-internal-none-chosen");
    const pdf = await printToPdf(page, "print-internal-none-chosen");
    expect(pdf.sizes).toEqual([LANDSCAPE]);
    // The client copy still has all three options.
    await page.getByRole("button", { name: "Client Copy" }).click();
    await expect(sheetTexts(page)).resolves.toHaveLength(3);
    await page.context().close();
  });

  it("with no options at all the client copy says so", async () => {
    const { quoteId } = await insertQuote([]);
    const { page } = await openPrint(`/print/${quoteId}`);
    await expect(
      page.locator("#print-copy-client").getByText("No options available for this quote.")
        .isVisible(),
    ).resolves.toBe(true);
    await shoot(page, "print-client-no-options");
    const pdf = await printToPdf(page, "print-client-no-options");
    expect(pdf.sizes).toEqual([PORTRAIT]);
    const res = await htmlOf(`/quote/${quoteId}/client-print?noprint=1`);
    expect(res.text).toContain("No options available for this quote.");
    await page.context().close();
  });

  it("an unknown, malformed or missing id gives No quote data to print with 404", async () => {
    const unknown = crypto.randomUUID();
    for (
      const path of [
        `/print/${unknown}`,
        "/print/not-a-uuid",
        "/print",
        "/print/",
        `/quote/${unknown}/client-print`,
        "/quote/not-a-uuid/client-print",
        `/print/${unknown}?external=true`,
      ]
    ) {
      const res = await htmlOf(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.text).toContain("No quote data to print");
      // Nothing to switch or print: the staff bar's search is the only island.
      expect([...res.text.matchAll(/data-island="(\w+)"/g)].map((m) => m[1])).toEqual([
        "SearchBox",
      ]);
    }
    const { page, status } = await openPrint("/print/not-a-uuid");
    expect(status).toBe(404);
    await expect(
      page.getByRole("heading", { name: "No quote data to print", level: 1 }).isVisible(),
    ).resolves.toBe(true);
    await shoot(page, "print-not-found");
    await page.context().close();
  });

  it("the signed-out visitor is sent to sign in", async () => {
    const { quoteId } = await insertQuote();
    for (const path of [`/print/${quoteId}`, `/quote/${quoteId}/client-print`, "/print"]) {
      const res = await htmlOf(path, false);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`/staff?returnTo=${encodeURIComponent(path)}`);
    }
  });
});
