// The quotes list at the four sizes the store uses (1440×900 desk, 1024×768
// and 768×1024 tablet, 390×844 phone): each quote one row of at most two
// lines, the Actions column whole at 1024 (six buttons a row would cut it and
// fit four rows a screen at 1440), the less common actions in the row's menu,
// every action still reachable, the menu worked from the keyboard and clean
// for axe while open.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Locator, Page } from "playwright-core";
import { createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import { FLOOR_SIZES, openSignedIn, screenshotPath, sizeName, WIDE } from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { fill, LIMITS } from "../helpers/quote_fixture.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import { useBrowserApp } from "../helpers/suite.ts";

/** One row a quote: two lines of text, or a button, and the row's padding. */
const MAX_ROW_HEIGHT = 60;
const ALL_ACTIONS = ["View", "Email", "Print", "Print External", "Close", "Delete"];

let app: TestApp;
let browser: Browser;
let cookie: string;
/** The quote with the widest row: the longest names, the widest badge, opened online. */
let widest: string;
let closed: string;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  const owner = await createTestUser(app.db, {
    username: "olga",
    firstName: "Olga",
    role: "OWNER",
  });
  cookie = await sessionCookieFor(app.db, owner.id);
  // E-mail set up, so Email is a live action.
  await app.db.updateTable("settings").set({
    smtpHost: "smtp.example.com",
    smtpFromEmail: "shop@example.com",
  }).where("id", "=", 1).execute();
  const statuses: QuoteStatus[] = [
    "DRAFT",
    "ACTIVE",
    "FINALIZED",
    "EMAILED",
    "ACCEPTED",
    "CLOSED",
    "PENDING_MEASUREMENTS",
  ];
  for (const [i, status] of statuses.entries()) {
    const longest = status === "PENDING_MEASUREMENTS";
    const client = await app.db.insertInto("clients").values({
      firstName: longest ? fill("Maximiliana-Alexandrina ", LIMITS.name) : `Client${i}`,
      lastName: longest ? fill("Bartholomew-Vandenberghe ", LIMITS.name) : "Doe",
      email: `client${i}@example.com`,
    }).returning("id").executeTakeFirstOrThrow();
    const quote = await app.db.insertInto("quotes").values({
      clientId: client.id,
      status,
      opticianName: longest ? fill("Dr. Evangelina Montgomery-Fitzgerald ", 100) : "Dr. Lee",
      expiresAt: new Date(Date.now() + (i - 3) * 86_400_000),
      // The widest row first, so its menu opens over the rows below it.
      createdAt: new Date(Date.now() - (statuses.length - i) * 60_000),
      clientViewedAt: longest ? new Date() : null,
      closureReason: status === "CLOSED" ? "Went elsewhere" : null,
    }).returning("quoteNumber").executeTakeFirstOrThrow();
    if (longest) widest = quote.quoteNumber;
    if (status === "CLOSED") closed = quote.quoteNumber;
  }
});

async function open(viewport: { width: number; height: number }) {
  const session = await openSignedIn(browser, app.baseUrl, cookie, viewport, { timeout: 60_000 });
  await session.page.goto("/quotes");
  await session.page.waitForSelector("html[data-hydrated=true]");
  return session;
}

const rowOf = (page: Page, quoteNumber: string) =>
  page.locator(".quote-table tbody tr").filter({
    has: page.getByRole("link", { name: quoteNumber, exact: true }),
  });
const menuButton = (page: Page, quoteNumber: string) =>
  rowOf(page, quoteNumber).locator("details.row-menu > summary");
const menuOf = (page: Page, quoteNumber: string) =>
  page.getByRole("menu", { name: `More actions for quote ${quoteNumber}` });
/** Waits for the menu button to say it is open or closed (the toggle event comes after the change). */
const saysExpanded = (button: Locator, value: "true" | "false") =>
  button.evaluate(
    (el, value) =>
      new Promise<void>((resolve, reject) => {
        const started = Date.now();
        const check = () => {
          if (el.getAttribute("aria-expanded") === value) resolve();
          else if (Date.now() - started > 5_000) reject(new Error(`aria-expanded is not ${value}`));
          else requestAnimationFrame(check);
        };
        check();
      }),
    value,
  );

/** Each row's height, and how far any row action sits outside the table's box or the screen. */
function measure(page: Page) {
  return page.evaluate(() => {
    const wrap = document.querySelector(".quote-table-wrap")!;
    const box = wrap.getBoundingClientRect();
    const rows = [...document.querySelectorAll<HTMLElement>(".quote-table tbody tr")];
    const outside: string[] = [];
    for (const row of rows) {
      const controls = row.querySelectorAll<HTMLElement>(".quote-row-actions > *");
      for (const el of controls) {
        const r = el.getBoundingClientRect();
        if (r.width === 0) continue; // shown at other widths only
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.right > innerWidth) {
          outside.push(`${el.textContent?.trim()}: ${Math.round(r.left)}–${Math.round(r.right)}`);
        }
      }
    }
    return {
      pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      tableOverflow: wrap.scrollWidth - wrap.clientWidth,
      heights: rows.map((row) => Math.round(row.getBoundingClientRect().height)),
      outside,
    };
  });
}

/** The row's actions on the row and, the menu opened, in it: every one of the spec's. */
async function reachableActions(page: Page, quoteNumber: string) {
  const group = rowOf(page, quoteNumber).getByRole("group", {
    name: `Actions for quote ${quoteNumber}`,
  });
  const onRow = await group.locator(":scope > a, :scope > span > button, :scope > button")
    .filter({ visible: true }).allTextContents();
  await menuButton(page, quoteNumber).click();
  const menu = menuOf(page, quoteNumber);
  await menu.waitFor();
  const inMenu = await menu.getByRole("menuitem").allTextContents();
  await page.keyboard.press("Escape");
  return { onRow: onRow.map((t) => t.trim()), inMenu: inMenu.map((t) => t.trim()) };
}

async function shoot(page: Page, name: string) {
  const path = screenshotPath(`quotes-list-rows-${name}`);
  if (path) await page.screenshot({ path, fullPage: true });
}

describe("the quotes list at tablet width", () => {
  for (const viewport of FLOOR_SIZES) {
    const size = sizeName(viewport);
    it(`at ${size}: one row a quote, Actions whole, every action reachable, the menu by keyboard`, async () => {
      const { page, problems, close } = await open(viewport);
      try {
        const m = await measure(page);
        console.log(`${size} quotes list: rows ${m.heights.join(", ")} px`);
        expect([size, m.pageOverflow, m.tableOverflow, m.outside]).toEqual([size, 0, 0, []]);
        expect(m.heights.length).toBe(7);
        expect([size, m.heights.filter((h) => h > MAX_ROW_HEIGHT)]).toEqual([size, []]);
        // At 1440×900 all seven rows are on the first screen (it held four).
        const lastRow = (await page.locator(".quote-table tbody tr").last().boundingBox())!;
        const bottom = Math.round(lastRow.y + lastRow.height);
        console.log(`${size} quotes list: the 7th row ends at y=${bottom}`);
        if (viewport === WIDE) expect(bottom).toBeLessThanOrEqual(viewport.height);

        // Every action of the spec, on the row or in its menu; a closed quote has no Close.
        const actions = await reachableActions(page, widest);
        console.log(
          `${size} on the row: ${actions.onRow.join(", ")}; in the menu: ${
            actions.inMenu.join(", ")
          }`,
        );
        expect([...actions.onRow, ...actions.inMenu].sort()).toEqual([...ALL_ACTIONS].sort());
        const closedActions = await reachableActions(page, closed);
        expect([...closedActions.onRow, ...closedActions.inMenu].sort()).toEqual(
          ALL_ACTIONS.filter((a) => a !== "Close").sort(),
        );

        // The keyboard: Enter opens, the arrows move, Escape closes and gives focus back.
        const button = menuButton(page, widest);
        const menu = menuOf(page, widest);
        await button.focus();
        await expect(button.getAttribute("aria-haspopup")).resolves.toBe("menu");
        await expect(button.getAttribute("aria-expanded")).resolves.toBe("false");
        await page.keyboard.press("Enter");
        await menu.waitFor();
        await saysExpanded(button, "true");
        await page.keyboard.press("ArrowDown");
        const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
        await expect(focused()).resolves.toBe(actions.inMenu[0]);
        await page.keyboard.press("ArrowDown");
        await expect(focused()).resolves.toBe(actions.inMenu[1]);
        await page.keyboard.press("End");
        await expect(focused()).resolves.toBe("Delete");
        await page.keyboard.press("ArrowDown");
        await expect(focused()).resolves.toBe(actions.inMenu[0]);

        // Open, the menu is whole on the screen, on top of the rows below, and clean for axe.
        await menu.getByRole("menuitem").last().scrollIntoViewIfNeeded();
        const panel = await menu.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const last = el.lastElementChild!.getBoundingClientRect();
          const top = document.elementFromPoint(
            last.left + last.width / 2,
            last.top + last.height / 2,
          );
          return {
            inside: r.left >= 0 && r.right <= innerWidth,
            onTop: !!top && el.contains(top),
          };
        });
        expect([size, panel]).toEqual([size, { inside: true, onTop: true }]);
        expect([size, await seriousA11yViolations(page)]).toEqual([size, []]);
        await shoot(page, `menu-open-${size}`);

        await page.keyboard.press("Escape");
        await menu.waitFor({ state: "hidden" });
        await expect(button.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
        await saysExpanded(button, "false");

        // Space opens it too, and Tab walks through the items (and out, closing it).
        await page.keyboard.press("Space");
        await menu.waitFor();
        await page.keyboard.press("Tab");
        await expect(focused()).resolves.toBe(actions.inMenu[0]);
        for (let i = 1; i < actions.inMenu.length; i++) await page.keyboard.press("Tab");
        await expect(focused()).resolves.toBe("Delete");
        await page.keyboard.press("Tab");
        await menu.waitFor({ state: "hidden" });

        // An item's dialog gives focus back to the menu's button when it closes.
        // ArrowUp on the button opens the menu on its last item.
        await button.focus();
        await page.keyboard.press("ArrowUp");
        await menu.waitFor();
        await expect(focused()).resolves.toBe("Delete");
        await page.keyboard.press("Enter");
        const dialog = page.getByRole("dialog", { name: "Delete Quote" });
        await dialog.waitFor();
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "hidden" });
        await expect(button.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
        await shoot(page, size);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
