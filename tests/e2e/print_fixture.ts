// The printed quote in a browser: the app and one Chromium, a signed-in optician, store
// settings with a footer, quotes written straight to the database, and the helpers that
// open a print page and print it to PDF.
import type { Browser, Page } from "playwright-core";
import { sql } from "kysely";
import { PDFDocument } from "pdf-lib";
import { call, signedInUser, type TestApp } from "../helpers/test_app.ts";
import { DESKTOP, screenshotPath } from "../helpers/browser.ts";
import { insertOptions, type OptionInit } from "../helpers/quote_fixture.ts";
import { useBrowserApp } from "../helpers/suite.ts";

export let app: TestApp, browser: Browser, cookie: string;

// ---------------------------------------------------------------------------
// Fixtures, written straight to the database

// Staff-only words: none of them may reach the client copy.
export const INTERNAL_NOTE = "INTERNAL-ONLY-7731 client haggles, do not go below cost";

export const INTERNAL_MARK = "INTERNAL-ONLY-7731";

export const PD_DISTANCE = "63.5";

export const EXTRA = ["Vertex distance", "12 mm"] as const;

export const FOOTER_MESSAGE = "Thank you for choosing Northside. Prices are valid for 30 days.";

/** Three options, the first and the third chosen. */
export const THREE_OPTIONS: OptionInit[] = [
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

export let heardHowId: string | undefined;

export async function insertQuote(options: OptionInit[] = THREE_OPTIONS) {
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
  await insertOptions(app.db, quote.id, options);
  return { quoteId: quote.id, quoteNumber: quote.quoteNumber };
}

// ---------------------------------------------------------------------------
// Browser helpers

/**
 * A signed-in page with window.print stubbed (a real print dialog would block
 * the test), recording every request made after the page has loaded.
 */
export async function openPrint(path: string, viewport = DESKTOP) {
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

export const printCalls = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { printCalls: number }).printCalls);

export interface PdfPages {
  count: number;
  sizes: Array<{ width: number; height: number }>;
}

/** Prints the page the way the browser's own print would, with the page's @page sizes. */
export async function printToPdf(page: Page, name: string): Promise<PdfPages> {
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

export const LANDSCAPE = { width: 792, height: 612 };

export const PORTRAIT = { width: 612, height: 792 };

export async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage: true });
}

export async function htmlOf(path: string, withCookie = true) {
  return await call(app, "GET", path, {
    cookie: withCookie ? cookie : undefined,
    headers: { accept: "text/html" },
  });
}

/** The visible text of every sheet of the copy on show, one string per sheet. */
export const sheetTexts = (page: Page) =>
  page.locator(".print-copy:not([hidden]) .print-sheet").evaluateAll((els) =>
    els.map((el) => (el as HTMLElement).innerText.replace(/\s+/g, " "))
  );

// ---------------------------------------------------------------------------

/** Starts the app for the calling test file (before its tests, closed after them). */
export function usePrintApp(): void {
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
}
