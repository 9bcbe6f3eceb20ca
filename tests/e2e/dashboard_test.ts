import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import { sql } from "kysely";
import { signedInUser, type TestApp } from "../helpers/test_app.ts";
import {
  DESKTOP,
  expectCount,
  openSignedIn,
  screenshotPath,
  TABLET_PORTRAIT,
} from "../helpers/browser.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import { readManifest } from "../../src/assets/manifest.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, cookie: string;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  ({ cookie: cookie } = await signedInUser(app.db, { firstName: "Maria" }));
});

async function open(viewport = DESKTOP): Promise<Page> {
  const { page } = await openSignedIn(browser, app.baseUrl, cookie, viewport);
  await page.goto("/dashboard");
  return page;
}

async function addQuote(
  clientName: [string, string],
  status: QuoteStatus,
  expiresInDays: number,
  options: Array<[string, boolean]> = [["100.00", false]],
  updatedMinutesAgo = 0,
) {
  const client = await app.db.insertInto("clients")
    .values({ firstName: clientName[0], lastName: clientName[1] }).returning("id")
    .executeTakeFirstOrThrow();
  const quote = await app.db.insertInto("quotes").values({
    clientId: client.id,
    status,
    closureReason: status === "CLOSED" ? "done" : null,
    expiresAt: new Date(Date.now() + expiresInDays * 86_400_000),
  }).returning(["id", "quoteNumber"]).executeTakeFirstOrThrow();
  await sql`update quotes set updated_at = now() - make_interval(mins => ${updatedMinutesAgo})
    where id = ${quote.id}`.execute(app.db);
  for (const [i, [subtotal, chosen]] of options.entries()) {
    await app.db.insertInto("quoteOptions").values({
      quoteId: quote.id,
      position: i,
      subtotal,
      isChosen: chosen,
    }).execute();
  }
  return quote;
}

describe("staff dashboard", () => {
  it("an empty store shows zero counts and both empty texts", async () => {
    const page = await open();
    await expect(page.getByRole("heading", { name: "Staff Dashboard" }).isVisible()).resolves
      .toBe(true);
    await expect(page.getByText("Manage clients, quotes, and measurements.").isVisible())
      .resolves.toBe(true);
    await expect(page.getByTestId("active-quotes").textContent()).resolves.toBe("0");
    await expect(page.getByTestId("new-clients").textContent()).resolves.toBe("0");
    await expect(page.getByText("No recent quotes").isVisible()).resolves.toBe(true);
    await expect(page.getByText("No expired quotes").isVisible()).resolves.toBe(true);
    await expect(page.getByText("Great! All quotes are current.").isVisible()).resolves.toBe(true);
    await expect(page.getByRole("link", { name: "New Client Intake" }).getAttribute("href"))
      .resolves.toBe("/intake");
    await expect(page.getByRole("link", { name: "Create Quote" }).getAttribute("href")).resolves
      .toBe("/clients");
    await page.context().close();
  });

  it("shows counts, the five most recent quotes and the expired ones to follow up", async () => {
    const pending = await addQuote(["Ana", "Ruiz"], "PENDING_MEASUREMENTS", 20, undefined, 0);
    await addQuote(["Ben", "Okafor"], "ACTIVE", 20, undefined, 1);
    await addQuote(["Cy", "Park"], "ACCEPTED", 20, undefined, 2);
    await addQuote(["Di", "Ng"], "DRAFT", 20, undefined, 3);
    await addQuote(["Eve", "Stone"], "FINALIZED", 20, undefined, 4);
    const expired = [];
    for (let i = 0; i < 7; i++) {
      expired.push(
        await addQuote([`Late${i}`, "Client"], "EMAILED", -1 - i, [["150.00", true], [
          "99.50",
          true,
        ]], 100 + i),
      );
    }
    await addQuote(["Closed", "Case"], "CLOSED", -3, undefined, 200);
    const page = await open();
    // Active: ACTIVE, PENDING_MEASUREMENTS, ACCEPTED that have not expired.
    await expect(page.getByTestId("active-quotes").textContent()).resolves.toBe("3");
    await expect(page.getByTestId("new-clients").textContent()).resolves.toBe("13");

    const recent = page.getByRole("region", { name: "Recent Quotes" }).getByRole("link");
    await expectCount(recent, 5);
    const first = recent.first();
    await expect(first.getAttribute("href")).resolves.toBe(`/quote/${pending.id}`);
    await expect(first.textContent()).resolves.toContain("Ana Ruiz");
    await expect(first.textContent()).resolves.toContain(pending.quoteNumber);
    const badge = first.locator(".badge");
    await expect(badge.textContent()).resolves.toBe("pending measurements");
    await expect(badge.getAttribute("class")).resolves.toContain("badge-secondary");
    await expectCount(badge.locator("svg"), 1);

    const expiredRegion = page.getByRole("region", { name: "Expired Quotes - Follow Up Needed" });
    const rows = expiredRegion.locator(".quote-row");
    await expectCount(rows, 5);
    const top = rows.first();
    await expect(top.getAttribute("href")).resolves.toBe(`/quote/${expired[0].id}`);
    await expect(top.textContent()).resolves.toContain("Expired");
    await expect(top.textContent()).resolves.toContain("$249.50");
    const viewAll = expiredRegion.getByRole("link", { name: "View All 7 Expired Quotes" });
    await expect(viewAll.getAttribute("href")).resolves.toBe("/quotes?filter=expired");
    // Its one island is the staff bar's search: the page loads the shared entry
    // (with the chunks it imports) and that island's code, no other island's.
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    await expect(
      page.locator("[data-island]").evaluateAll((els) => els.map((e) => e.dataset.island)),
    ).resolves.toEqual(["SearchBox"]);
    const manifest = await readManifest();
    const scripts = await page.evaluate(() =>
      performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname)
        .filter((path) => path.endsWith(".js"))
    );
    const others = Object.entries(manifest.islands).filter(([name]) => name !== "SearchBox")
      .map(([, url]) => url);
    expect(scripts).toContain(manifest.entry);
    expect(scripts).toContain(manifest.islands.SearchBox);
    expect(scripts.filter((url) => others.includes(url))).toEqual([]);

    const shot = screenshotPath("dashboard-desktop");
    if (shot) await page.screenshot({ path: shot, fullPage: true });
    await page.context().close();

    const tablet = await open(TABLET_PORTRAIT);
    const overflow = await tablet.evaluate(() =>
      document.documentElement.scrollWidth - globalThis.innerWidth
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const tabletShot = screenshotPath("dashboard-tablet");
    if (tabletShot) await tablet.screenshot({ path: tabletShot, fullPage: true });
    await tablet.context().close();
  });
});
