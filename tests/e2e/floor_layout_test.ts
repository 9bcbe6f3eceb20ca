// The store floor in a real browser: every tap target of the two tablet pages
// (intake and tablet selection) at least 44×44 CSS px whoever holds the tablet
// (an owner with the e-mail banner, an optician, a kiosk), and the staff
// screens laid out without sideways page scroll from 1440 px down to a phone.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { createTestUser, kioskCookieFor, sessionCookieFor } from "../helpers/test_app.ts";
import {
  PHONE,
  screenshotPath,
  smallTapTargets,
  TABLET_LANDSCAPE,
  TABLET_PORTRAIT,
} from "../helpers/browser.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { useBrowserApp } from "../helpers/suite.ts";

const WIDE = { width: 1440, height: 900 };

let app: TestApp, browser: Browser, owner: TestUser, optician: TestUser, quoteId: string;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  // An owner on a store without e-mail settings: the orange banner shows for her.
  owner = await createTestUser(app.db, { username: "olivia", firstName: "Olivia", role: "OWNER" });
  optician = await createTestUser(app.db, { username: "sam", firstName: "Sam" });
  await app.db.insertInto("heardHowOptions").values([
    { label: "Google", sortOrder: 1 },
    { label: "Friend or family", sortOrder: 2 },
  ]).execute();
  ({ quoteId } = await insertSavedQuote(app.db, {
    options: [
      { label: "Everyday", sku: "RB5154-2000", price: "189.00" },
      { label: "Sport Pair", sku: "OK-9102", price: "150.00" },
      { label: "Reading", sku: "ZZ-1000", price: "99.00" },
    ],
  }));
});

type Holder = "owner" | "optician" | "kiosk";

async function openAs(
  holder: Holder,
  viewport: { width: number; height: number },
  kiosk?: { kind: "QUOTE" | "INTAKE"; quoteId?: string },
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport, baseURL: app.baseUrl, hasTouch: true });
  if (holder === "kiosk") {
    const [name, value] = (await kioskCookieFor(app.db, {
      kind: kiosk!.kind,
      quoteId: kiosk!.quoteId,
      handedOverBy: owner.id,
    })).split("=");
    await context.addCookies([{ name, value, url: app.baseUrl, sameSite: "Strict" }]);
  } else {
    const user = holder === "owner" ? owner : optician;
    const cookie = await sessionCookieFor(app.db, user.id);
    await context.addCookies([{
      name: "lensdesk_session",
      value: cookie.split("=")[1],
      url: app.baseUrl,
    }]);
  }
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  return { context, page, problems };
}

async function hydrated(page: Page) {
  await page.waitForSelector("html[data-hydrated=true]");
}

/** Boxes are measured at rest, not halfway through an animation. */
async function settled(page: Page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== "running")
  );
}

async function shoot(page: Page, name: string) {
  const path = screenshotPath(`floor-${name}`);
  if (path) await page.screenshot({ path, fullPage: true });
}

/** How far the page scrolls sideways (0 when it does not). */
const pageOverflow = (page: Page) =>
  page.evaluate(() =>
    Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) -
    document.documentElement.clientWidth
  );

describe("tap targets on the tablet pages", () => {
  for (const viewport of [TABLET_LANDSCAPE, TABLET_PORTRAIT]) {
    const size = `${viewport.width}x${viewport.height}`;
    for (const holder of ["owner", "optician", "kiosk"] as const) {
      it(`at ${size} as ${holder}: the intake and the tablet selection, staff chrome included`, async () => {
        const small: Record<string, string[]> = {};
        async function measure(page: Page, name: string) {
          await settled(page);
          small[name] = await smallTapTargets(page);
          expect([name, await pageOverflow(page)]).toEqual([name, 0]);
          await shoot(page, `${name}-${holder}-${size}`);
        }

        const intake = await openAs(holder, viewport, { kind: "INTAKE" });
        await intake.page.goto("/intake");
        await hydrated(intake.page);
        // "Other" opens the free-text field: every control of the form is on screen.
        await intake.page.getByText("Other", { exact: true }).tap();
        await measure(intake.page, "intake");
        if (holder === "owner") {
          await expect(
            intake.page.getByText("Email is not configured", { exact: false }).isVisible(),
          )
            .resolves.toBe(true);
        }
        if (holder !== "kiosk") {
          // The staff Menu open: its items are tap targets too.
          await intake.page.getByText("Menu", { exact: true }).tap();
          await intake.page.getByRole("link", { name: "Logout" }).waitFor();
          await measure(intake.page, "intake-menu");
        } else {
          await intake.page.getByRole("button", { name: "Staff: return to staff work" }).tap();
          await measure(intake.page, "intake-staff-form");
        }
        expect(intake.problems).toEqual([]);
        await intake.context.close();

        const tablet = await openAs(holder, viewport, { kind: "QUOTE", quoteId });
        await tablet.page.goto(`/tablet/${quoteId}`);
        await hydrated(tablet.page);
        await measure(tablet.page, "tablet");
        await tablet.page.getByRole("checkbox", { name: "Sport Pair" }).tap();
        await measure(tablet.page, "tablet-selected");
        expect(tablet.problems).toEqual([]);
        await tablet.context.close();

        expect(small).toEqual(
          Object.fromEntries(Object.keys(small).map((name) => [name, []])),
        );
      });
    }
  }
});

describe("staff screens without sideways scroll", () => {
  const pages = () => [
    { name: "dashboard", path: "/dashboard" },
    { name: "builder", path: `/quote/${quoteId}` },
    { name: "admin catalog", path: "/admin" },
    { name: "quotes list", path: "/quotes" },
    { name: "admin users", path: "/admin/users" },
  ];
  for (const viewport of [WIDE, TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE]) {
    it(`at ${viewport.width} px wide, as an owner with the e-mail banner`, async () => {
      const { context, page, problems } = await openAs("owner", viewport);
      const overflow: Record<string, number> = {};
      for (const { name, path } of pages()) {
        await page.goto(path);
        await hydrated(page);
        await settled(page);
        overflow[name] = await pageOverflow(page);
        await shoot(page, `${name.replace(" ", "-")}-${viewport.width}`);
      }
      expect(overflow).toEqual(Object.fromEntries(pages().map((p) => [p.name, 0])));
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  /** How far a table's own scroll box overflows, and whether its last column is in view. */
  async function tableFit(scrollBox: Locator) {
    return await scrollBox.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const last = el.querySelector("thead th:last-child")!.getBoundingClientRect();
      return {
        overflow: el.scrollWidth - el.clientWidth,
        lastColumn: el.querySelector("thead th:last-child")!.textContent?.trim(),
        lastColumnInView: last.right <= box.right + 0.5 && last.left >= box.left - 0.5,
      };
    });
  }

  it("the quotes list shows its Actions column at 1440 px without scrolling the table", async () => {
    // Long names are what push a table wide.
    await insertSavedQuote(app.db, { firstName: "Maximiliana-Alexandrina Bartholomew" });
    const { context, page } = await openAs("owner", WIDE);
    await page.goto("/quotes");
    await hydrated(page);
    // The scroll box is the focusable region the table sits in; row 0 is the header.
    const region = page.getByRole("region", { name: "Quotes table" });
    await region.getByRole("row").nth(1).waitFor();
    await expect(tableFit(region)).resolves.toEqual({
      overflow: 0,
      lastColumn: "Actions",
      lastColumnInView: true,
    });
    await context.close();
  });

  it("the admin users table fits a 1024 px screen, with a user at the field limits", async () => {
    // 60 characters, the username limit, and a long address: no spaces to wrap at.
    await createTestUser(app.db, {
      username: `sam.the.longest.username.${"x".repeat(35)}`,
      firstName: "Maximiliana-Alexandrina Bartholomew",
      email: `sam.the.longest.email.address.${"y".repeat(60)}@example.com`,
    });
    const { context, page } = await openAs("owner", TABLET_LANDSCAPE);
    await page.goto("/admin/users");
    await hydrated(page);
    const region = page.getByRole("region", { name: "Users table" });
    await region.getByRole("row").nth(1).waitFor();
    const fit = await tableFit(region);
    const shot = screenshotPath("users-1024-field-limits");
    if (shot) await page.screenshot({ path: shot, fullPage: true });
    expect([fit.overflow, fit.lastColumnInView]).toEqual([0, true]);
    await context.close();
  });
});
