// The store floor, round 3 (issue 36), measured in a real browser at the four
// sizes the store uses (1440×900 desk, 1024×768 and 768×1024 tablet, 390×844
// phone): focus rings against what is behind them, the client dialog's quote
// rows, the print pages' way back, the forgotten-password page's script, and
// the CSP (zod validates without probing `new Function`).
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import {
  createTestUser,
  kioskCookieFor,
  sessionCookieFor,
  type TestApp,
  type TestUser,
} from "../helpers/test_app.ts";
import {
  FLOOR_SIZES,
  openSignedIn,
  PHONE,
  screenshotPath,
  sizeName,
  TABLET_LANDSCAPE,
  TABLET_PORTRAIT,
  WIDE,
} from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import {
  createQuoteThroughApi,
  fill,
  insertSavedQuote,
  LIMITS,
  maximalClient,
  maximalOption,
  maximalOptions,
} from "../helpers/quote_fixture.ts";
import type { OptionInput } from "../../src/schemas/quote.ts";
import { CONTINUED_IN_SYSTEM } from "../../src/print/print_model.ts";
import { formatMoney } from "../../src/quotes/money.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp;
let browser: Browser;
let owner: TestUser;
let ownerCookie: string;
let quoteId: string;
let clientId: string;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  // A store without e-mail settings: the orange banner shows for the owner.
  owner = await createTestUser(app.db, { username: "olivia", firstName: "Olivia", role: "OWNER" });
  ownerCookie = await sessionCookieFor(app.db, owner.id);
  await app.db.insertInto("heardHowOptions").values([{ label: "Google", sortOrder: 1 }]).execute();
  ({ quoteId, clientId } = await insertSavedQuote(app.db));
  // A second quote, so the client dialog has rows to line up.
  const second = await insertSavedQuote(app.db, { firstName: "Jane" });
  await app.db.updateTable("quotes").set({ clientId }).where("id", "=", second.quoteId).execute();
});

async function open(path: string, viewport = WIDE) {
  const session = await openSignedIn(browser, app.baseUrl, ownerCookie, viewport);
  session.page.context().setDefaultTimeout(60_000);
  await session.page.goto(path);
  await session.page.waitForSelector("html[data-hydrated=true]");
  return session;
}

type Session = Awaited<ReturnType<typeof openSignedIn>>;

/**
 * One signed-in page for a test that looks at a screen at several sizes: call
 * `at` for each size (a fresh context per size cost a renderer and every asset
 * fetched and compiled anew: 1.3-1.8 s a page against 0.6-0.7 s on this
 * machine). `at` resizes the page, goes to `path` and waits until it is
 * hydrated; `problems` are those of that visit only.
 */
async function openForSizes() {
  const session: Session = await openSignedIn(browser, app.baseUrl, ownerCookie, WIDE);
  session.page.context().setDefaultTimeout(60_000);
  return {
    close: session.close,
    async at(path: string, viewport: { width: number; height: number }) {
      session.problems.length = 0;
      await session.page.setViewportSize(viewport);
      await session.page.goto(path);
      await session.page.waitForSelector("html[data-hydrated=true]");
      return session;
    },
  };
}

async function shoot(page: Page, name: string) {
  const path = screenshotPath(`round3-${name}`);
  if (path) await page.screenshot({ path, fullPage: true });
}

/**
 * The contrast of the focused element's outline against the background
 * behind it (the first ancestor with an opaque background), WCAG's formula.
 */
function focusRingContrast(page: Page): Promise<{ what: string; ring: string; ratio: number }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const parse = (color: string) => {
      const m = color.match(/rgba?\(([\d.]+),?\s*([\d.]+),?\s*([\d.]+)(?:[,/]\s*([\d.]+))?/);
      if (!m) throw new Error(`unreadable colour ${color}`);
      return { rgb: [+m[1], +m[2], +m[3]], alpha: m[4] === undefined ? 1 : +m[4] };
    };
    const luminance = ([r, g, b]: number[]) => {
      const lin = (v: number) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const style = getComputedStyle(el);
    if (style.outlineStyle === "none" || parseFloat(style.outlineWidth) < 2) {
      return { what: el.outerHTML.slice(0, 80), ring: "none", ratio: 0 };
    }
    const ring = parse(style.outlineColor);
    let node: HTMLElement | null = el.parentElement;
    let behind = [255, 255, 255];
    while (node) {
      const bg = parse(getComputedStyle(node).backgroundColor);
      if (bg.alpha === 1) {
        behind = bg.rgb;
        break;
      }
      node = node.parentElement;
    }
    const [hi, lo] = [luminance(ring.rgb), luminance(behind)].sort((a, b) => b - a);
    return {
      what: `${el.tagName.toLowerCase()}${
        el.getAttribute("type") ? `[${el.getAttribute("type")}]` : ""
      }`,
      ring: style.outlineColor,
      ratio: Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100,
    };
  });
}

/** Focuses an element from the keyboard (Tab from the one before), as a keyboard user does. */
async function keyboardFocus(page: Page, selector: string) {
  await page.locator(selector).first().evaluate((el: HTMLElement) => {
    // Focus the control, then Shift+Tab/Tab so :focus-visible applies as from the keyboard.
    el.focus();
  });
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
}

describe("round 3, the small ones (point 7)", () => {
  it("focus rings of inputs, checkboxes, radios and the orange banner reach 3:1 at every size", async () => {
    const sizes = await openForSizes();
    try {
      for (const viewport of FLOOR_SIZES) {
        const { page } = await sizes.at("/intake", viewport);
        const rings = [];
        for (
          const selector of [
            "input#firstName, input[name=firstName]",
            ".intake-form input[type=checkbox]",
            ".intake-form input[type=radio]",
            ".email-banner-dismiss",
            ".email-banner-action",
          ]
        ) {
          if (await page.locator(selector).count() === 0) throw new Error(`no ${selector}`);
          await keyboardFocus(page, selector);
          rings.push(await focusRingContrast(page));
        }
        for (const ring of rings) {
          expect([sizeName(viewport), ring.what, ring.ratio >= 3]).toEqual([
            sizeName(viewport),
            ring.what,
            true,
          ]);
        }
        console.log(
          `${sizeName(viewport)} focus rings: ${
            rings.map((r) => `${r.what} ${r.ratio}:1`).join(", ")
          }`,
        );
      }
    } finally {
      await sizes.close();
    }
  });

  it("the client dialog keeps each quote row whole, View in reach, at every size", async () => {
    const sizes = await openForSizes();
    try {
      for (const viewport of FLOOR_SIZES) {
        const { page, problems } = await sizes.at(`/clients?id=${clientId}`, viewport);
        const dialog = page.getByRole("dialog");
        await dialog.locator(".client-quote-row").nth(1).waitFor();
        const rows = await dialog.locator(".client-quote-row").evaluateAll((els) =>
          els.map((row) => {
            const box = row.getBoundingClientRect();
            const parts = [...row.children].map((c) => c.getBoundingClientRect());
            const view = row.querySelector("a")!.getBoundingClientRect();
            return {
              overflow: row.scrollWidth - row.clientWidth,
              partsInside: parts.every((p) => p.left >= box.left - 1 && p.right <= box.right + 1),
              viewInViewport: view.left >= 0 && view.right <= innerWidth,
              viewWidth: Math.round(view.width),
            };
          })
        );
        expect(rows.length).toBe(2);
        for (const row of rows) {
          expect([sizeName(viewport), row]).toEqual([sizeName(viewport), {
            overflow: 0,
            partsInside: true,
            viewInViewport: true,
            viewWidth: row.viewWidth,
          }]);
          expect(row.viewWidth).toBeGreaterThanOrEqual(44);
        }
        if (viewport === PHONE) {
          expect(await seriousA11yViolations(page)).toEqual([]);
          await shoot(page, `client-dialog-${sizeName(viewport)}`);
        }
        expect(problems).toEqual([]);
      }
    } finally {
      await sizes.close();
    }
  });

  it("print pages lead staff back to the quote; a kiosk gets its own way back instead", async () => {
    for (const path of [`/print/${quoteId}`, `/print/${quoteId}?external=true&noprint=1`]) {
      const { page, close } = await open(path, TABLET_LANDSCAPE);
      try {
        const back = page.getByRole("link", { name: "Back to Quote" });
        expect(await back.getAttribute("href")).toBe(`/quote/${quoteId}`);
        expect(await back.isVisible()).toBe(true);
        // It is for the screen: the printout does not carry it.
        await page.emulateMedia({ media: "print" });
        expect(await back.isVisible()).toBe(false);
        await page.emulateMedia({ media: "screen" });
        await back.click();
        await page.waitForURL(`${app.baseUrl}/quote/${quoteId}`);
      } finally {
        await close();
      }
    }
    const context = await browser.newContext({ viewport: TABLET_LANDSCAPE, baseURL: app.baseUrl });
    try {
      const [name, value] = (await kioskCookieFor(app.db, {
        kind: "QUOTE",
        quoteId,
        handedOverBy: owner.id,
      })).split("=");
      await context.addCookies([{ name, value, url: app.baseUrl, sameSite: "Strict" }]);
      const page = await context.newPage();
      await page.goto(`/quote/${quoteId}/client-print?noprint=1`);
      await page.getByRole("link", { name: "Back to your options" }).waitFor();
      expect(await page.getByRole("link", { name: "Back to Quote" }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("the forgotten-password page works without JavaScript too", async () => {
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: app.baseUrl,
      javaScriptEnabled: false,
    });
    try {
      const page = await context.newPage();
      await page.goto("/forgot-password");
      await page.getByRole("button", { name: "Send Reset Instructions" }).click();
      await page.locator(".field-error", { hasText: "Please enter your email address" }).waitFor();
      await page.getByLabel("Email").fill("nobody@store.test");
      await page.getByRole("button", { name: "Send Reset Instructions" }).click();
      await page.getByRole("heading", { name: "Check Your Email" }).waitFor();
      // (axe needs scripts: the page's a11y is checked with them in password_recovery_test.ts.)
    } finally {
      await context.close();
    }
  });

  it("the builder validates and saves under the CSP with no violation (zod is jitless)", async () => {
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, ownerCookie, WIDE);
    try {
      page.context().setDefaultTimeout(60_000);
      // Listening from the first script on: zod probes when its schemas are built.
      await page.addInitScript(() => {
        const seen: string[] = [];
        (globalThis as unknown as { cspViolations: string[] }).cspViolations = seen;
        document.addEventListener("securitypolicyviolation", (e) => {
          seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
        });
      });
      await page.goto(`/quote/${quoteId}`);
      await page.waitForSelector("html[data-hydrated=true]");
      // Saving runs the shared zod schemas in the browser (the builder's save check).
      await page.getByLabel("Option Label").first().fill("Everyday, checked");
      await page.getByRole("button", { name: "Save Quote" }).click();
      await page.getByText("Quote saved successfully!").first().waitFor();
      const violations = await page.evaluate(() =>
        (globalThis as unknown as { cspViolations: string[] }).cspViolations
      );
      expect(violations).toEqual([]);
      expect(problems.filter((p) => /Content Security Policy|unsafe-eval/.test(p))).toEqual([]);
    } finally {
      await close();
    }
  });
});

/** The printout as Chromium prints it (the page's @page sizes): each page's text. */
async function printedPages(page: Page, name: string): Promise<string[]> {
  const bytes = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  const file = await Deno.makeTempFile({ suffix: ".pdf" });
  try {
    await Deno.writeFile(file, bytes);
    const shot = screenshotPath(`round3-${name}`);
    if (shot) await Deno.copyFile(file, shot.replace(/\.png$/, ".pdf"));
    const out = await new Deno.Command("pdftotext", { args: [file, "-"] }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    const pages = new TextDecoder().decode(out.stdout).split("\f");
    pages.pop(); // pdftotext ends every page with a form feed
    return pages.map((p) => p.replace(/\s+/g, " "));
  } finally {
    await Deno.remove(file);
  }
}

async function printPage(path: string, viewport = WIDE) {
  const session = await openSignedIn(browser, app.baseUrl, ownerCookie, viewport);
  session.page.context().setDefaultTimeout(60_000);
  await session.page.addInitScript(() => {
    (globalThis as unknown as { print: () => void }).print = () => {};
  });
  await session.page.goto(path, { waitUntil: "load" });
  await session.page.waitForSelector("html[data-sheets-fitted=true]");
  return session;
}

/** Every option chosen, so the internal copy has a sheet for each. */
async function quoteOf(options: OptionInput[]) {
  const chosen = options.map((o) => ({ ...o, isChosen: true }));
  const quote = await createQuoteThroughApi(app, ownerCookie, maximalClient(), chosen);
  await app.db.updateTable("quotes")
    .set({ internalNotes: fill("Haggles; check the insurance card again. ", LIMITS.notes) })
    .where("id", "=", quote.id).execute();
  return quote;
}

describe("round 3, the internal copy staff order from (point 1)", () => {
  it("options at the schema's limits print every price line, one page each, free text cut with the mark", async () => {
    const { id } = await quoteOf(maximalOptions(3));
    for (const copy of ["internal", "client"]) {
      const { page, problems, close } = await printPage(`/print/${id}?copy=${copy}`);
      try {
        const pages = await printedPages(page, `limits-${copy}`);
        expect(pages.length).toBe(3);
        pages.forEach((text, i) => {
          const missing = Array.from({ length: LIMITS.items }, (_, n) => `Item#${n + 1} `)
            .filter((name) => !text.includes(name));
          expect([copy, i + 1, missing]).toEqual([copy, i + 1, []]);
          // Each line's amount: 999 × the unit price, 50 times, and the total.
          const amounts = text.match(/\$[\d,]+\.\d\d/g) ?? [];
          expect(amounts.length).toBeGreaterThanOrEqual(LIMITS.items + 2);
          expect(text).toContain(CONTINUED_IN_SYSTEM);
          expect(text).not.toMatch(/more items? continued/);
        });
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }
  });

  it("an option of 13 lines with long notes prints every name whole, in type as large as fits", async () => {
    const base = maximalOption(1);
    const thirteen: OptionInput = {
      ...base,
      label: "Everyday",
      notes: fill("The client asked about anti-fog coatings for cycling. ", LIMITS.notes),
      shipping: "0",
      adjustmentAmount: "0",
      adjustmentReason: "",
      items: base.items.slice(0, 13).map((item, i) => ({
        ...item,
        name: `Item#${i + 1} ${fill("progressive lens with blue-light filter ", 80)}`,
        unitPrice: "100.00",
        qty: 1,
      })),
    };
    const { id } = await quoteOf([thirteen]);
    const { page, close } = await printPage(`/print/${id}?copy=internal`, TABLET_LANDSCAPE);
    try {
      const sheet = page.locator(".print-copy-internal .print-sheet");
      const pages = await printedPages(page, "thirteen-internal");
      expect(pages.length).toBe(1);
      for (let n = 1; n <= 13; n++) expect(pages[0]).toContain(`Item#${n} `);
      expect(pages[0]).not.toContain("Shortened descriptions");
      expect(pages[0]).toContain(formatMoney(130_000));
      // Larger type than the smallest, and the page used: the content fills most of it.
      const fit = await sheet.evaluate((el) => ({
        density: [...el.classList].find((c) => c.startsWith("print-density-")),
      }));
      console.log(`13 lines, internal copy: ${fit.density}`);
    } finally {
      await close();
    }
  });
});

/** A quote of five options with long labels: more tabs than a tablet's strip shows. */
async function fiveOptionQuote() {
  const { quoteId } = await insertSavedQuote(app.db, {
    firstName: "Fiona",
    options: [1, 2, 3, 4, 5].map((i) => ({
      label: `Everyday pair number ${i}`,
      sku: `SKU-${i}`,
      price: "100.00",
    })),
  });
  // Every option chosen: each tab carries its sr-only "(selected)".
  await app.db.updateTable("quoteOptions").set({ isChosen: true }).where("quoteId", "=", quoteId)
    .execute();
  return quoteId;
}

/** What the browser shows at a box's centre: the element itself, or what covers it. */
function coveredBy(page: Page, selector: string): Promise<string> {
  return page.locator(selector).first().evaluate((el) => {
    const box = el.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (top && (top === el || el.contains(top))) return "";
    return top ? `${top.tagName.toLowerCase()}.${top.className}` : "outside the screen";
  });
}

describe("round 3, the builder on a desk screen and a tablet (point 2)", () => {
  it("the staff bar is one row at 1280 and 1440, an admin's eight entries and one more", async () => {
    const sizes = await openForSizes();
    try {
      for (const viewport of [{ width: 1280, height: 800 }, WIDE]) {
        const { page } = await sizes.at("/dashboard", viewport);
        // One more entry, as the Orders item other work adds.
        await page.evaluate(() => {
          const nav = document.querySelector(".mainnav")!;
          const extra = nav.lastElementChild!.cloneNode(true) as HTMLAnchorElement;
          extra.textContent = "Orders";
          extra.removeAttribute("aria-current");
          nav.insertBefore(extra, nav.children[3]);
        });
        const rows = await page.evaluate(() => {
          const bar = document.querySelector(".topbar")!.getBoundingClientRect();
          const parts = [...document.querySelectorAll(".topbar-inner > *, .mainnav > a")]
            .map((el) => el.getBoundingClientRect())
            .filter((b) => b.width > 0);
          return {
            height: Math.round(bar.height),
            tops: new Set(parts.map((b) => Math.round(b.top + b.height / 2))).size,
            overflow: document.documentElement.scrollWidth - innerWidth,
          };
        });
        console.log(`${sizeName(viewport)} staff bar: ${rows.height} px`);
        expect([sizeName(viewport), rows]).toEqual([sizeName(viewport), {
          height: rows.height,
          tops: 1,
          overflow: 0,
        }]);
        expect(rows.height).toBeLessThanOrEqual(62);
      }
    } finally {
      await sizes.close();
    }
  });

  it("the first option's editor on the first screen, actions without a scroll box, nothing under the bar", async () => {
    const id = await fiveOptionQuote();
    const sizes = await openForSizes();
    try {
      for (const viewport of FLOOR_SIZES) {
        const { page, problems } = await sizes.at(`/quote/${id}`, viewport);
        const size = sizeName(viewport);
        const label = page.getByLabel("Option Label");
        const box = (await label.boundingBox())!;
        console.log(`${size} builder: Option Label at y=${Math.round(box.y)}`);
        if (viewport !== PHONE) {
          // On the first screen, and not covered by the save bar.
          expect([size, box.y + box.height <= viewport.height]).toEqual([size, true]);
          expect([size, await coveredBy(page, "#qb-option-panel input")]).toEqual([size, ""]);
        }
        // No scroll box of its own: every action is reached by scrolling the page.
        const side = await page.locator(".qb-side").evaluate((el) => ({
          overflowY: getComputedStyle(el).overflowY,
          clipped: el.scrollHeight - el.clientHeight,
        }));
        expect([size, side]).toEqual([size, { overflowY: "visible", clipped: 0 }]);
        for (
          const name of ["Internal Notes", "Hand to Client", "Close Quote", "Email Quote"]
        ) {
          const target = name === "Internal Notes"
            ? "#qb-internal-notes"
            : `.qb-side button:has-text("${name}")`;
          await page.locator(target).first().scrollIntoViewIfNeeded();
          expect([size, name, await coveredBy(page, target)]).toEqual([size, name, ""]);
        }
        // No sideways page scroll, with five options' tabs and their sr-only marks.
        expect([
          size,
          await page.evaluate(() =>
            document.documentElement.scrollWidth - document.documentElement.clientWidth
          ),
        ]).toEqual([size, 0]);
        // A strip wider than its card says so, and the hint scrolls it.
        const strip = page.locator(".qb-tabs");
        const overflows = await strip.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
        const more = page.getByRole("button", { name: "Show more options" });
        expect([size, await more.isVisible()]).toEqual([size, overflows]);
        if (overflows) {
          await strip.scrollIntoViewIfNeeded();
          await more.click();
          await page.waitForFunction(() => document.querySelector(".qb-tabs")!.scrollLeft > 0);
          await page.getByRole("button", { name: "Show earlier options" }).waitFor();
        }
        if (viewport === TABLET_LANDSCAPE || viewport === WIDE) {
          expect(await seriousA11yViolations(page)).toEqual([]);
        }
        await shoot(page, `builder-${size}`);
        expect(problems).toEqual([]);
      }
    } finally {
      await sizes.close();
    }
  });
});

/** Whether two boxes overlap. */
const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe("round 3, the tablet after staff picks, and the client copy after a choice (points 3, 4)", () => {
  it("nothing preselected, cards titled by label, totals clear of the Confirm bar, the toast clear of the headings", async () => {
    const sizes = await openForSizes();
    try {
      for (const viewport of [WIDE, TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE]) {
        const { quoteId: id } = await insertSavedQuote(app.db, {
          firstName: "Tess",
          options: [
            { label: "Everyday", sku: "RB5154-2000", price: "189.00" },
            { label: "", sku: "OK-9102", price: "150.00" },
            { label: "Reading", sku: "ZZ-1000", price: "99.00" },
          ],
        });
        // Staff ticked two options for the internal print.
        await app.db.updateTable("quoteOptions").set({ isChosen: true })
          .where("quoteId", "=", id).where("position", "in", [0, 2]).execute();
        const { page, problems } = await sizes.at(`/tablet/${id}`, viewport);
        const size = sizeName(viewport);
        const toggles = page.getByRole("checkbox");
        expect(await toggles.evaluateAll((els) => els.map((e) => e.textContent))).toEqual([
          "Everyday",
          "Option 2",
          "Reading",
        ]);
        expect(await toggles.evaluateAll((els) => els.map((e) => e.getAttribute("aria-checked"))))
          .toEqual(["false", "false", "false"]);
        await page.getByText("No options selected yet").waitFor();
        // Every card's total in its head, clear of the bar, wherever the head is on screen.
        const heads = await page.locator(".tablet-card-total").evaluateAll((els) =>
          els.map((el) => {
            const box = el.getBoundingClientRect();
            const inView = box.bottom > 0 && box.top < innerHeight;
            const top = document.elementFromPoint(
              box.left + box.width / 2,
              box.top + box.height / 2,
            );
            // The card's toggle is stretched over the card (its hit area): only the bar counts.
            return { inView, covered: inView && !!top?.closest(".tablet-actions") };
          })
        );
        // (On a phone the bar takes two rows and some card is always under it while scrolling.)
        if (viewport !== PHONE) {
          expect([size, heads.filter((h) => h.covered).length]).toEqual([size, 0]);
        }
        expect(heads.some((h) => h.inView)).toBe(true);
        // At the end of the page the bar sits below the cards: no total row under it.
        await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
        const bar = (await page.locator(".tablet-actions").boundingBox())!;
        for (const row of await page.locator(".tablet-total").all()) {
          const box = await row.boundingBox();
          if (box) expect([size, overlaps(box, bar)]).toEqual([size, false]);
        }
        if (viewport === TABLET_LANDSCAPE) expect(await seriousA11yViolations(page)).toEqual([]);

        await page.locator(".tablet-card").filter({ hasText: "Reading" }).click();
        await page.getByRole("button", { name: "Confirm Selection(s)" }).click();
        const thanks = page.getByRole("heading", { name: "Thank You!" });
        await thanks.waitFor();
        const toast = page.locator(".toast").first();
        await toast.waitFor();
        const toastBox = (await toast.boundingBox())!;
        for (const heading of [thanks, page.getByRole("heading", { level: 1 })]) {
          const box = (await heading.boundingBox())!;
          expect([size, await heading.textContent(), overlaps(box, toastBox)]).toEqual([
            size,
            await heading.textContent(),
            false,
          ]);
        }
        await shoot(page, `tablet-confirmed-${size}`);
        expect(problems).toEqual([]);

        if (viewport === WIDE) {
          // Point 4: the client copy marks the choice and offers it alone.
          const print = await printPage(`/print/${id}`, WIDE);
          try {
            const sheets = print.page.locator(".print-copy-client .print-sheet");
            expect(await sheets.count()).toBe(3);
            const marked = await sheets.evaluateAll((els) =>
              els.map((el) => el.querySelector(".print-choice")?.textContent ?? "")
            );
            expect(marked).toEqual(["", "", "Your choice"]);
            const chosenOnly = print.page.getByRole("link", { name: "Print chosen only" });
            expect(await chosenOnly.isVisible()).toBe(true);
            await chosenOnly.click();
            await print.page.waitForURL(/chosen=only/);
            await print.page.waitForSelector("html[data-sheets-fitted=true]");
            const pages = await printedPages(print.page, "chosen-only");
            expect(pages.length).toBe(1);
            expect(pages[0]).toContain("Your choice");
            // The printed copy keeps staff's titles (the frame SKU first).
            expect(pages[0]).toContain("ZZ-1000");
            expect(pages[0]).toContain("Page 1 of 1");
          } finally {
            await print.close();
          }
        }
      }
    } finally {
      await sizes.close();
    }
  });
});

describe("round 3, lists at tablet width (point 5, the dashboard)", () => {
  it("Recent Quotes give total, optician and date; the Expired card's rows line up", async () => {
    for (const days of [3, 40, 400]) {
      await insertSavedQuote(app.db, {
        firstName: `Expired${days}`,
        expiresAt: new Date(Date.now() - days * 86_400_000),
        options: [{ label: "One", sku: "S-1", price: days === 400 ? "12345.67" : "9.50" }],
      });
    }
    const sizes = await openForSizes();
    try {
      for (const viewport of FLOOR_SIZES) {
        const { page } = await sizes.at("/dashboard", viewport);
        const size = sizeName(viewport);
        const recent = page.getByRole("region", { name: "Recent Quotes" }).locator(".quote-row");
        const first = await recent.first().textContent();
        expect(first).toContain("Dr. Hidden Opticianson");
        expect(first).toMatch(/\$[\d,]+\.\d\d/);
        expect(first).toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
        for (const region of ["Recent Quotes", "Expired Quotes - Follow Up Needed"]) {
          const rows = page.getByRole("region", { name: region }).locator(".quote-row");
          const edges = await rows.evaluateAll((els) =>
            els.map((el) => {
              const total = el.querySelector(".quote-total")!.getBoundingClientRect();
              const badge = el.querySelector(".badge")!.getBoundingClientRect();
              return {
                total: Math.round(total.right),
                badge: Math.round(badge.right),
                overflow: el.scrollWidth - el.clientWidth,
              };
            })
          );
          expect(edges.length).toBeGreaterThan(1);
          expect([size, region, new Set(edges.map((e) => e.total)).size]).toEqual([
            size,
            region,
            1,
          ]);
          expect([size, region, new Set(edges.map((e) => e.badge)).size]).toEqual([
            size,
            region,
            1,
          ]);
          expect([size, region, edges.filter((e) => e.overflow > 0)]).toEqual([size, region, []]);
        }
        expect(
          await page.evaluate(() =>
            document.documentElement.scrollWidth - document.documentElement.clientWidth
          ),
        ).toBe(0);
        if (viewport === TABLET_LANDSCAPE) {
          expect(await seriousA11yViolations(page)).toEqual([]);
          await shoot(page, `dashboard-${size}`);
        }
      }
    } finally {
      await sizes.close();
    }
  });
});
