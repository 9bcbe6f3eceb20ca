// The store floor measured in a real browser at the four sizes the store uses (1440×900
// desk, 1024×768 and 768×1024 tablet, 390×844 phone): the app and one Chromium, a
// signed-in owner in a store without e-mail settings, a client with two saved quotes, and
// the helpers that open, print and measure pages.
import type { Browser, Page } from "playwright-core";
import {
  createTestUser,
  sessionCookieFor,
  type TestApp,
  type TestUser,
} from "../helpers/test_app.ts";
import { openSignedIn, screenshotPath, WIDE } from "../helpers/browser.ts";
import {
  createQuoteThroughApi,
  fill,
  insertSavedQuote,
  LIMITS,
  maximalClient,
} from "../helpers/quote_fixture.ts";
import type { OptionInput } from "../../src/schemas/quote.ts";
import { useBrowserApp } from "../helpers/suite.ts";

export let app: TestApp;
export let browser: Browser;
export let owner: TestUser;
export let ownerCookie: string;
export let quoteId: string;
export let clientId: string;

export async function open(path: string, viewport = WIDE) {
  const session = await openSignedIn(browser, app.baseUrl, ownerCookie, viewport);
  session.page.context().setDefaultTimeout(60_000);
  await session.page.goto(path);
  await session.page.waitForSelector("html[data-hydrated=true]");
  return session;
}

export type Session = Awaited<ReturnType<typeof openSignedIn>>;

/**
 * One signed-in page for a test that looks at a screen at several sizes: call
 * `at` for each size (a fresh context per size cost a renderer and every asset
 * fetched and compiled anew: 1.3-1.8 s a page against 0.6-0.7 s on this
 * machine). `at` resizes the page, goes to `path` and waits until it is
 * hydrated; `problems` are those of that visit only.
 */
export async function openForSizes() {
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

export async function shoot(page: Page, name: string) {
  const path = screenshotPath(`floor-sizes-${name}`);
  if (path) await page.screenshot({ path, fullPage: true });
}

/**
 * The contrast of the focused element's outline against the background
 * behind it (the first ancestor with an opaque background), WCAG's formula.
 */
export function focusRingContrast(
  page: Page,
): Promise<{ what: string; ring: string; ratio: number }> {
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
export async function keyboardFocus(page: Page, selector: string) {
  await page.locator(selector).first().evaluate((el: HTMLElement) => {
    // Focus the control, then Shift+Tab/Tab so :focus-visible applies as from the keyboard.
    el.focus();
  });
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
}

/** The printout as Chromium prints it (the page's @page sizes): each page's text. */
export async function printedPages(page: Page, name: string): Promise<string[]> {
  const bytes = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  const file = await Deno.makeTempFile({ suffix: ".pdf" });
  try {
    await Deno.writeFile(file, bytes);
    const shot = screenshotPath(`floor-sizes-${name}`);
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

export async function printPage(path: string, viewport = WIDE) {
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
export async function quoteOf(options: OptionInput[]) {
  const chosen = options.map((o) => ({ ...o, isChosen: true }));
  const quote = await createQuoteThroughApi(app, ownerCookie, maximalClient(), chosen);
  await app.db.updateTable("quotes")
    .set({ internalNotes: fill("Haggles; check the insurance card again. ", LIMITS.notes) })
    .where("id", "=", quote.id).execute();
  return quote;
}

/** A quote of five options with long labels: more tabs than a tablet's strip shows. */
export async function fiveOptionQuote() {
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
export function coveredBy(page: Page, selector: string): Promise<string> {
  return page.locator(selector).first().evaluate((el) => {
    const box = el.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (top && (top === el || el.contains(top))) return "";
    return top ? `${top.tagName.toLowerCase()}.${top.className}` : "outside the screen";
  });
}

/** Whether two boxes overlap. */
export const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Starts the app for the calling test file (before its tests, closed after them). */
export function useFloorApp(): void {
  useBrowserApp(async (started) => {
    ({ app, browser } = started);
    // A store without e-mail settings: the orange banner shows for the owner.
    owner = await createTestUser(app.db, {
      username: "olivia",
      firstName: "Olivia",
      role: "OWNER",
    });
    ownerCookie = await sessionCookieFor(app.db, owner.id);
    await app.db.insertInto("heardHowOptions").values([{ label: "Google", sortOrder: 1 }])
      .execute();
    ({ quoteId, clientId } = await insertSavedQuote(app.db));
    // A second quote, so the client dialog has rows to line up.
    const second = await insertSavedQuote(app.db, { firstName: "Jane" });
    await app.db.updateTable("quotes").set({ clientId }).where("id", "=", second.quoteId).execute();
  });
}
