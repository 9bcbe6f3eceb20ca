// The store floor in a real browser at the four sizes the store uses
// (1440×900 desk, 1024×768 and 768×1024 tablet, 390×844 phone), with
// axe's WCAG 2.2 A and AA rules (target-size among them) on every screen:
// - phones and tablets: no sideways scroll on the dashboard (its order cards
//   with a long name), /orders, an order, the quotes list, the tablet's
//   thank-you and Settings; an /orders row's status, promised date and total
//   on a phone's screen; the staff bar a single row on a phone;
// - one look for every control: checkboxes one size everywhere, disclosures
//   that say (and show) that they open, and focus kept in place after a job
//   step, a payment and a closed date's removal.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import {
  call,
  createTestUser,
  sessionCookieFor,
  type TestApp,
  type TestUser,
} from "../helpers/test_app.ts";
import {
  FLOOR_SIZES,
  openPage,
  openSignedIn,
  PHONE,
  screenshotPath,
  sizeName,
  WIDE,
} from "../helpers/browser.ts";
import { animationsSettled, seriousA11yViolations } from "../helpers/axe.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { createQuoteLink } from "../../src/quotes/online_links.ts";
import type { OrderBundle } from "../../src/orders/views.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp;
let browser: Browser;
let owner: TestUser;
let ownerCookie: string;
let labId: string;
/** An order of two jobs, the first late, for the dashboard, /orders and the order page. */
let orderId: string;
/** One quote a size for the tablet's thank-you (a confirmed choice is final). */
const tabletQuotes = new Map<number, string>();
let onlineToken: string;

// A name as long as the client form takes on a line: it used to widen the
// dashboard's order cards to 605 px on a 390 px phone.
const LONG_FIRST = "Maximiliana-Alexandrina";
const LONG_LAST = "Featherstonehaugh-Worthington";

/** A finalized quote, its option chosen, made into an order through the API. */
async function orderFor(firstName: string, lastName = "Doe") {
  const quote = await insertSavedQuote(app.db, { status: "FINALIZED", firstName });
  await app.db.updateTable("clients").set({ lastName }).where("id", "=", quote.clientId).execute();
  await app.db.updateTable("quoteOptions").set({ isChosen: true })
    .where("quoteId", "=", quote.quoteId).execute();
  const made = await call<OrderBundle>(app, "POST", `/api/quotes/${quote.quoteId}/order`, {
    cookie: ownerCookie,
    body: { labId },
  });
  if (made.status !== 201) throw new Error(`order: ${made.status} ${made.text}`);
  return made.body.order.id;
}

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  owner = await createTestUser(app.db, { username: "olivia", firstName: "Olivia", role: "OWNER" });
  ownerCookie = await sessionCookieFor(app.db, owner.id);
  const lab = await call<{ id: string }>(app, "POST", "/api/admin/labs", {
    cookie: ownerCookie,
    body: { name: "Lakeside Optical Laboratory", turnaroundDays: 5 },
  });
  labId = lab.body.id;
  // Two closed dates for Settings, and the store's days.
  const settings = await call(app, "PUT", "/api/admin/settings", {
    cookie: ownerCookie,
    body: { closedDates: "2030-12-24,2030-12-25,2031-01-01" },
  });
  if (settings.status !== 200) throw new Error(`settings: ${settings.status} ${settings.text}`);

  // The dashboard's three order lists: a late job (the long name), one ready
  // and waiting a month, one picked up today.
  orderId = await orderFor(LONG_FIRST, LONG_LAST);
  await app.db.updateTable("jobs").set({ promisedDate: "2020-01-02" })
    .where("orderId", "=", orderId).execute();
  const waiting = await orderFor("Wanda");
  await app.db.updateTable("jobs")
    .set({ status: "READY", readyAt: new Date(Date.now() - 30 * 86_400_000) })
    .where("orderId", "=", waiting).execute();
  const picked = await orderFor(`${LONG_FIRST}-Picked`, LONG_LAST);
  await app.db.updateTable("jobs").set({ status: "PICKED_UP", pickedUpAt: new Date() })
    .where("orderId", "=", picked).execute();

  for (const [n, viewport] of FLOOR_SIZES.entries()) {
    const { quoteId } = await insertSavedQuote(app.db, {
      firstName: `Tess${n}`,
      options: [
        { label: "Everyday", sku: "RB5154-2000", price: "189.00" },
        { label: "Sport Pair", sku: "OK-9102", price: "150.00" },
        { label: "Reading", sku: "ZZ-1000", price: "99.00" },
      ],
    });
    tabletQuotes.set(viewport.width, quoteId);
  }
  // The online quote (its Decline disclosure).
  const online = await insertSavedQuote(app.db, { firstName: "Olga" });
  const { version } = await app.db.selectFrom("quotes").select("version")
    .where("id", "=", online.quoteId).executeTakeFirstOrThrow();
  onlineToken = await createQuoteLink(app.db, {
    quoteId: online.quoteId,
    quoteVersion: version,
    sentTo: "olga@example.com",
    createdBy: owner.id,
  });
});

type Session = Awaited<ReturnType<typeof openSignedIn>>;

/** One signed-in page for a test, resized and sent to each path (a context per visit costs more). */
async function staffPage() {
  const session: Session = await openSignedIn(browser, app.baseUrl, ownerCookie, WIDE);
  session.page.context().setDefaultTimeout(60_000);
  return {
    ...session,
    async at(path: string, viewport: { width: number; height: number }) {
      session.problems.length = 0;
      await session.page.setViewportSize(viewport);
      await session.page.goto(path);
      await session.page.waitForSelector("html[data-hydrated=true]");
      return session.page;
    },
  };
}

async function shoot(page: Page, name: string) {
  const path = screenshotPath(`phones-and-controls-${name}`);
  if (path) await page.screenshot({ path, fullPage: true });
}

/** How far the page reaches past the screen's right edge (0: no sideways scroll). */
const sideways = (page: Page) =>
  page.evaluate(() =>
    Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - innerWidth
  );

/** The cards (and order rows) that reach past the screen's right edge. */
const cardsPastTheEdge = (page: Page) =>
  page.locator("main .card").evaluateAll((els) =>
    els.filter((el) => el.getBoundingClientRect().right > innerWidth + 0.5)
      .map((el) => `${el.querySelector("h2")?.textContent ?? el.className}`)
  );

async function axe(page: Page, what: string) {
  expect({ what, violations: await seriousA11yViolations(page) }).toEqual({
    what,
    violations: [],
  });
}

describe("phones and tablets", () => {
  it("dashboard, orders, an order, quotes, tablet thanks and settings: no sideways scroll, axe WCAG 2.2 clean", async () => {
    const staff = await staffPage();
    try {
      for (const viewport of FLOOR_SIZES) {
        const size = sizeName(viewport);
        const paths = [
          ["dashboard", "/dashboard"],
          ["orders", "/orders"],
          ["order", `/orders/${orderId}`],
          ["quotes", "/quotes"],
          ["settings", "/admin/settings"],
        ];
        for (const [name, path] of paths) {
          const page = await staff.at(path, viewport);
          if (name === "quotes") await page.locator(".quote-table tbody tr").first().waitFor();
          const what = `${name} at ${size}`;
          expect({ what, sideways: await sideways(page) }).toEqual({ what, sideways: 0 });
          expect({ what, past: await cardsPastTheEdge(page) }).toEqual({ what, past: [] });
          await axe(page, what);
          await shoot(page, `${name}-${size}`);
          expect({ what, problems: staff.problems }).toEqual({ what, problems: [] });
        }

        // The staff bar: a single row on a phone (was 209 px, a quarter of the screen).
        const page = staff.page;
        const bar = (await page.locator(".topbar").boundingBox())!;
        console.log(`${size} staff bar: ${Math.round(bar.height)} px`);
        if (viewport === PHONE) expect(bar.height).toBeLessThanOrEqual(viewport.height * 0.15);

        // The tablet's thank-you: the options not chosen readable, the toast's × a finger's size.
        const tablet = await staff.at(`/tablet/${tabletQuotes.get(viewport.width)}`, viewport);
        await tablet.locator(".tablet-card").filter({ hasText: "Sport Pair" }).click();
        await tablet.getByRole("button", { name: "Confirm Selection(s)" }).click();
        await tablet.getByRole("heading", { name: "Thank You!" }).waitFor();
        // Measured once the toast has slid in: mid-animation its box is still moving.
        await tablet.locator(".toast-close").waitFor();
        await animationsSettled(tablet);
        const close = (await tablet.locator(".toast-close").boundingBox())!;
        expect([size, close, close.width >= 44, close.height >= 44]).toEqual([
          size,
          close,
          true,
          true,
        ]);
        const what = `tablet thank-you at ${size}`;
        expect({ what, sideways: await sideways(tablet) }).toEqual({ what, sideways: 0 });
        await axe(tablet, what);
        await shoot(tablet, `tablet-thanks-${size}`);
      }
    } finally {
      await staff.close();
    }
  });

  it("a phone sees each /orders row's status, promised date and total on its screen", async () => {
    const staff = await staffPage();
    try {
      const page = await staff.at("/orders", PHONE);
      const rows = page.locator(".orders-table tbody tr");
      // Three orders of two jobs.
      expect(await rows.count()).toBe(6);
      for (const row of await rows.all()) {
        await row.scrollIntoViewIfNeeded();
        const cells = await row.evaluate((tr) => {
          const cell = (name: string) => {
            const box = tr.querySelector(`.orders-cell-${name}`)!.getBoundingClientRect();
            return box.width > 0 && box.left >= 0 && box.right <= innerWidth;
          };
          return { status: cell("status"), promised: cell("promised"), total: cell("total") };
        });
        expect(cells).toEqual({ status: true, promised: true, total: true });
      }
      // The late job says so, its date with it.
      const late = rows.filter({ hasText: LONG_LAST }).filter({ hasText: "Late" });
      expect(await late.locator(".orders-cell-promised").allTextContents()).toEqual([
        "Jan 2, 2020",
        "Jan 2, 2020",
      ]);
    } finally {
      await staff.close();
    }
  });

  it("the staff bar's Menu holds the page entries on a phone, and the search stays in the bar", async () => {
    const staff = await staffPage();
    try {
      const page = await staff.at("/dashboard", PHONE);
      const search = page.getByRole("combobox", { name: /search/i });
      expect(await search.isVisible()).toBe(true);
      const main = page.getByRole("navigation", { name: "Main" });
      expect(await main.count()).toBe(0);
      const menu = page.locator("details.menu").filter({
        has: page.locator("summary", { hasText: "Menu" }),
      });
      await menu.locator("summary").click();
      expect(await menu.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
      const entries = page.getByRole("navigation", { name: "Main" }).getByRole("link");
      expect(await entries.allTextContents()).toEqual([
        "Dashboard",
        "Clients",
        "Quotes",
        "Orders",
        "New Client",
        "Reports",
        "Admin",
        "Settings",
      ]);
      await axe(page, "the phone's Menu open");
      await shoot(page, "menu-open-390");
      await page.getByRole("link", { name: "Orders" }).click();
      await page.waitForURL(/\/orders$/);
      // From a tablet up the entries are in the bar, the Menu keeps the account's.
      await staff.at("/dashboard", { width: 768, height: 1024 });
      expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link").count())
        .toBe(8);
    } finally {
      await staff.close();
    }
  });
});

describe("one look for every control", () => {
  it("every checkbox is the same 24×24 box in a label at least 44 px high", async () => {
    const staff = await staffPage();
    try {
      const boxes: string[] = [];
      for (const viewport of [WIDE, PHONE]) {
        const places: Array<[string, (page: Page) => Promise<void>]> = [
          ["/orders", async () => {}],
          [`/orders/${orderId}`, async () => {}],
          ["/admin/settings", async () => {}],
          ["/admin/labs", async (page) => {
            await page.getByRole("button", { name: "Add Lab" }).click();
            await page.getByRole("dialog").getByRole("checkbox").waitFor();
          }],
        ];
        for (const [path, prepare] of places) {
          const page = await staff.at(path, viewport);
          await prepare(page);
          const found = await page.locator("input[type=checkbox]:not([role=switch])").evaluateAll(
            (els) =>
              els.filter((el) => el.getClientRects().length > 0).map((el) => {
                const box = el.getBoundingClientRect();
                const label = el.closest("label")!.getBoundingClientRect();
                const name = el.closest("label")!.textContent!.trim();
                return `${name}: ${box.width}×${box.height}, label ${
                  label.height >= 44 ? "≥44" : label.height
                }`;
              }),
          );
          expect(found.length).toBeGreaterThan(0);
          boxes.push(...found);
        }
      }
      console.log(`checkboxes: ${[...new Set(boxes)].join("; ")}`);
      // "Ready and waiting", "Refund", a lab's "Active", the opening days, the SMTP ones…
      for (
        const name of ["Ready and waiting", "Refund", "Active (offered on new orders)", "Monday"]
      ) {
        expect(boxes.some((b) => b.startsWith(`${name}:`))).toBe(true);
      }
      expect(boxes.filter((b) => !b.endsWith(": 24×24, label ≥44"))).toEqual([]);
    } finally {
      await staff.close();
    }
  });

  it("What was sold, Decline this quote and the Menu open and close, and say so", async () => {
    const staff = await staffPage();
    /** The disclosure's open state (what assistive technology is told) and its chevron's turn. */
    const state = (page: Page, details: string) =>
      page.locator(details).evaluate((el) => ({
        open: (el as HTMLDetailsElement).open,
        chevron: getComputedStyle(el.querySelector("summary")!, "::after").transform,
      }));
    async function flips(page: Page, details: string, what: string) {
      // The chevron turns at once (no transition to wait for).
      await page.emulateMedia({ reducedMotion: "reduce" });
      const closed = await state(page, details);
      expect([what, closed.open]).toEqual([what, false]);
      await page.locator(`${details} > summary`).click();
      const opened = await state(page, details);
      expect([what, opened.open, opened.chevron !== closed.chevron]).toEqual([what, true, true]);
      await page.locator(`${details} > summary`).press("Enter");
      expect([what, (await state(page, details)).open]).toEqual([what, false]);
    }
    try {
      for (const viewport of [WIDE, PHONE]) {
        const page = await staff.at(`/orders/${orderId}`, viewport);
        await flips(page, ".job-card >> nth=0 >> details.disclosure", "What was sold");
        await flips(page, ".topbar details.menu", "Menu");
      }
      // The client's online quote, signed out.
      const online = await openPage(browser, app.baseUrl, { viewport: PHONE, timeout: 60_000 });
      try {
        await online.page.goto(`/q/${onlineToken}`);
        await online.page.waitForSelector("html[data-hydrated=true]");
        await flips(online.page, "details.online-decline", "Decline this quote");
        await online.page.locator("details.online-decline > summary").click();
        await online.page.getByLabel("A message to the store (optional)").waitFor();
        await axe(online.page, "online quote, decline open");
        expect(online.problems).toEqual([]);
      } finally {
        await online.close();
      }
    } finally {
      await staff.close();
    }
  });

  it("after a job step, a payment or a closed date's removal focus stays in its place, not the page's top", async () => {
    const staff = await staffPage();
    const focused = (page: Page) =>
      page.evaluate(() => {
        const el = document.activeElement!;
        if (el === document.body) return "body";
        const name = el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 40) ?? "";
        return `${el.tagName.toLowerCase()} ${name}`.trim();
      });
    try {
      for (const viewport of [WIDE, PHONE]) {
        const size = sizeName(viewport);
        const order = await orderFor(`Focus${viewport.width}`);
        const page = await staff.at(`/orders/${order}`, viewport);
        const card = page.getByTestId("job-card").first();
        // From the keyboard: the step's button is disabled while it is sent, then gone.
        await card.getByRole("button", { name: "Mark sent to lab", exact: true }).focus();
        await page.keyboard.press("Enter");
        await card.getByTestId("job-status").filter({ hasText: "Sent to lab" }).waitFor();
        await page.waitForFunction(() => !document.querySelector(".job-steps button:disabled"));
        expect([size, await focused(page)]).toEqual([size, "button Mark received"]);
        // And the next one, from there.
        await page.keyboard.press("Enter");
        await card.getByTestId("job-status").filter({ hasText: "Received" }).waitFor();
        await page.waitForFunction(() => !document.querySelector(".job-steps button:disabled"));
        expect([size, await focused(page)]).not.toEqual([size, "body"]);

        await page.getByLabel("Amount").fill("25");
        await page.getByRole("button", { name: "Record Payment" }).click();
        await page.getByTestId("order-paid").filter({ hasText: "$25.00" }).waitFor();
        await page.getByRole("button", { name: "Record Payment" }).and(page.locator(":enabled"))
          .waitFor();
        expect([size, await focused(page)]).toEqual([size, "button Record Payment"]);
        await axe(page, `order page after a step and a payment at ${size}`);
        await shoot(page, `order-after-${size}`);
        expect(staff.problems).toEqual([]);
      }

      const page = await staff.at("/admin/settings", PHONE);
      const list = page.getByRole("list", { name: "Closed dates" });
      const removes = list.getByRole("button");
      expect(await removes.count()).toBe(3);
      await removes.nth(1).click();
      await page.waitForFunction(() =>
        document.querySelectorAll(".closed-dates-list button").length === 2
      );
      // The date now in its place.
      expect(await focused(page)).toBe("button Remove Wed, Jan 1, 2031");
      await page.keyboard.press("Enter");
      expect(await focused(page)).toBe("button Remove Tue, Dec 24, 2030");
      await page.keyboard.press("Enter");
      // The last one gone: the date picker, to add another.
      expect(await focused(page)).toBe("input");
      await axe(page, "settings without closed dates");
    } finally {
      await staff.close();
    }
  });
});
