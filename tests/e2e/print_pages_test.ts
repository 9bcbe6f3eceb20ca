// Paper, as Chromium's own print lays it out (page.pdf with the page's @page
// sizes): nothing but the sheets, and exactly one sheet per option however
// long the quote's texts are, whoever is signed in and whatever chrome the
// screen shows around the sheets (the owner's orange e-mail banner included).
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../helpers/test_app.ts";
import { createTestUser, kioskCookieFor, sessionCookieFor } from "../helpers/test_app.ts";
import { openSignedIn, screenshotPath } from "../helpers/browser.ts";
import {
  createQuoteThroughApi,
  fill,
  LIMITS,
  maximalClient,
  maximalOptions,
} from "../helpers/quote_fixture.ts";
import type { OptionInput } from "../../src/schemas/quote.ts";
import { CONTINUED_IN_SYSTEM } from "../../src/print/print_model.ts";
import { useBrowserApp } from "../helpers/suite.ts";
import { type Printed, printed } from "../helpers/printed.ts";

let app: TestApp, browser: Browser, ownerCookie: string, opticianCookie: string, ownerId: string;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  const owner = await createTestUser(app.db, { role: "OWNER", firstName: "Olga" });
  const optician = await createTestUser(app.db, { role: "AUTHORIZED_USER", firstName: "Omar" });
  ownerId = owner.id;
  ownerCookie = await sessionCookieFor(app.db, owner.id);
  opticianCookie = await sessionCookieFor(app.db, optician.id);
});

const NOTES = fill("The client asked about anti-fog coatings for cycling in winter. ", 2000);
const INTERNAL_NOTES = fill("Haggles; check the insurance card again before ordering. ", 2000);

/** A plain option: three lines (no package, so no catalog needed) and 2,000 characters of notes. */
const typicalOption = (index: number): OptionInput => ({
  id: `temp-${index}`,
  label: `Pair ${index}`,
  notes: NOTES,
  isChosen: true,
  shipping: "0",
  adjustmentAmount: "-10.00",
  adjustmentReason: "Spring sale",
  items: [
    {
      kind: "FRAME",
      name: "Ray-Ban",
      sku: `RB-${index}`,
      unitPrice: "189.00",
      qty: 1,
      notes: "",
      catalogId: null,
    },
    {
      kind: "LENS",
      name: "Progressive",
      sku: null,
      unitPrice: "389.00",
      qty: 1,
      notes: "",
      catalogId: null,
    },
    {
      kind: "ADDON",
      name: "Transitions",
      sku: null,
      unitPrice: "120.00",
      qty: 1,
      notes: "",
      catalogId: null,
    },
  ],
  segOc: "22/24",
});

/** Every option chosen, so the internal copy has as many sheets as the client copy. */
async function quoteWith(options: OptionInput[]) {
  const chosen = options.map((o) => ({ ...o, isChosen: true }));
  const quote = await createQuoteThroughApi(app, ownerCookie, maximalClient(), chosen);
  await app.db.updateTable("quotes").set({ internalNotes: INTERNAL_NOTES })
    .where("id", "=", quote.id).execute();
  return quote;
}

const LANDSCAPE = "792x612";
const PORTRAIT = "612x792";

/** Words of the screen's chrome: none may reach paper. */
const CHROME_WORDS = [
  "Email is not configured",
  "Configure Email",
  "Skip to content",
  "Dashboard",
  "Logout",
  "Client Copy",
  "Internal Copy",
  "Print Quote",
  "Back to your options",
];

/**
 * Each sheet's content, in print media, must fit its page box: a sheet that
 * overflows would be clipped without saying so (or spill a page).
 */
async function overflowingSheets(page: Page): Promise<string[]> {
  await page.emulateMedia({ media: "print" });
  const over = await page.locator(".print-copy:not([hidden]) .print-sheet").evaluateAll((els) =>
    els.flatMap((el, i) => {
      const sheet = el as HTMLElement;
      const bad: string[] = [];
      if (sheet.scrollHeight > sheet.clientHeight + 1) {
        bad.push(`sheet ${i + 1}: ${sheet.scrollHeight} > ${sheet.clientHeight}`);
      }
      return bad;
    })
  );
  await page.emulateMedia({ media: null });
  return over;
}

/**
 * A print page, signed in with `cookie`; its `next` goes on to another print
 * page in the same page, as staff go from one copy to the other (a fresh
 * context for each copy cost a renderer and the page's assets anew).
 */
async function open(cookie: string, path: string, name: string) {
  const { page, problems, close } = await openSignedIn(browser, app.baseUrl, cookie);
  // A real print dialog would block the test.
  await page.addInitScript(() => {
    (globalThis as unknown as { print: () => void }).print = () => {};
  });
  const opened = {
    page,
    problems,
    close,
    async next(path: string, name: string) {
      await page.goto(path, { waitUntil: "load" });
      await page.waitForSelector("html[data-hydrated=true]");
      const shot = screenshotPath(name);
      if (shot) await page.screenshot({ path: shot, fullPage: false });
      return opened;
    },
  };
  return await opened.next(path, name);
}

function expectOnlySheets(result: Printed, count: number, size: string, title: string) {
  expect(result.sizes).toEqual(Array(count).fill(size));
  result.pages.forEach((text, i) => {
    expect(text).toContain(title);
    expect(text).toContain(`Page ${i + 1} of ${count}`);
    expect({ page: i + 1, chrome: CHROME_WORDS.filter((w) => text.includes(w)) })
      .toEqual({ page: i + 1, chrome: [] });
  });
}

const USERS = [
  { who: "owner with the e-mail banner", cookie: () => ownerCookie, banner: true },
  { who: "optician", cookie: () => opticianCookie, banner: false },
];

describe("printed copies: nothing but the sheets, one per option", () => {
  for (const count of [1, 3, 5]) {
    for (const user of USERS) {
      it(`${count} option(s) at every limit, as ${user.who}`, async () => {
        const { id } = await quoteWith(maximalOptions(count));
        const slug = `${count}-${user.banner ? "owner" : "optician"}`;

        const client = await open(user.cookie(), `/print/${id}`, `print-pages-client-${slug}`);
        await expect(client.page.locator(".email-banner").isVisible()).resolves.toBe(user.banner);
        await expect(client.page.locator(".topbar").isVisible()).resolves.toBe(true);
        expect(await overflowingSheets(client.page)).toEqual([]);
        const clientPaper = await printed(client.page, `print-pages-client-${slug}`);
        expectOnlySheets(clientPaper, count, PORTRAIT, "EYEWEAR QUOTE");
        // Shortened with a mark, never a second page.
        for (const text of clientPaper.pages) expect(text).toContain(CONTINUED_IN_SYSTEM);
        expect(client.problems).toEqual([]);

        const internal = await client.next(
          `/print/${id}?copy=internal`,
          `print-pages-internal-${slug}`,
        );
        expect(await overflowingSheets(internal.page)).toEqual([]);
        const internalPaper = await printed(internal.page, `print-pages-internal-${slug}`);
        expectOnlySheets(internalPaper, count, LANDSCAPE, "INTERNAL QUOTE COPY");
        for (const text of internalPaper.pages) {
          expect(text).toContain(CONTINUED_IN_SYSTEM);
          expect(text).toContain("Haggles; check the insurance card");
        }
        expect(internal.problems).toEqual([]);
        await internal.close();
      });
    }
  }

  it("three plain options with 2,000-character notes and internal notes", async () => {
    const { id } = await quoteWith([1, 2, 3].map(typicalOption));
    for (const user of USERS) {
      const client = await open(user.cookie(), `/print/${id}`, "print-pages-typical-client");
      expect(await overflowingSheets(client.page)).toEqual([]);
      const paper = await printed(client.page, "print-pages-typical-client");
      expectOnlySheets(paper, 3, PORTRAIT, "EYEWEAR QUOTE");
      expect(paper.pages[0]).toContain("Total $688.00");

      const internal = await client.next(
        `/print/${id}?copy=internal`,
        "print-pages-typical-internal",
      );
      expect(await overflowingSheets(internal.page)).toEqual([]);
      const internalPaper = await printed(internal.page, "print-pages-typical-internal");
      expectOnlySheets(internalPaper, 3, LANDSCAPE, "INTERNAL QUOTE COPY");
      expect(internalPaper.pages[2]).toContain("Total $688.00");
      await internal.close();
    }
  });

  it("a client holding the tablet prints the client copy alone", async () => {
    const { id } = await quoteWith(maximalOptions(3));
    const kiosk = await kioskCookieFor(app.db, {
      kind: "QUOTE",
      quoteId: id,
      handedOverBy: ownerId,
    });
    const context = await browser.newContext({ baseURL: app.baseUrl });
    await context.addCookies([{
      name: kiosk.split("=")[0],
      value: kiosk.split("=")[1],
      url: app.baseUrl,
    }]);
    await context.addInitScript(() => {
      (globalThis as unknown as { print: () => void }).print = () => {};
    });
    const page = await context.newPage();
    await page.goto(`/quote/${id}/client-print`, { waitUntil: "load" });
    await page.waitForSelector("html[data-hydrated=true]");
    await expect(page.getByRole("link", { name: "Back to your options" }).isVisible()).resolves
      .toBe(true);
    const paper = await printed(page, "print-pages-kiosk");
    expectOnlySheets(paper, 3, PORTRAIT, "EYEWEAR QUOTE");
    await context.close();
  });

  it(`the limits used here are the schema's (${LIMITS.notes}-character notes)`, () => {
    expect(NOTES.length).toBe(LIMITS.notes);
    expect(INTERNAL_NOTES.length).toBe(2000);
  });
});
