// The reports and the dashboard in a chain of two stores (issue 48): the store
// select (no script: a GET form), "All stores" with a Store column and a chain
// total, one store's reports as today's tables, and the dashboard's counts
// for the store picked.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import { call, signedInUser, type TestApp } from "../helpers/test_app.ts";
import { expectCount, openSignedIn, screenshotPath } from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import {
  expectedFor,
  insertReportQuotes,
  REPORT_RANGE,
  reportQuotes,
  type SeedQuote,
} from "../helpers/report_seed.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { findFirstStore } from "../../src/stores/stores.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, owner: string, staffB: string;
let storeA: string, storeB: string;

const quotesA = reportQuotes();
const quotesB = reportQuotes().filter((_, i) => i % 3 === 0);
const inRange = (qs: SeedQuote[]) =>
  qs.filter((q) => q.createdAt >= new Date(2025, 0, 6) && q.createdAt < new Date(2025, 1, 3));

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  storeA = (await findFirstStore(app.db)).id;
  owner = (await signedInUser(app.db, { role: "OWNER", username: "olga_owner" })).cookie;
  const made = await call<{ id: string }>(app, "POST", "/api/admin/stores", {
    cookie: owner,
    body: { code: "DT", name: "Downtown" },
  });
  expect(made.status).toBe(201);
  storeB = made.body.id;
  staffB = (await signedInUser(app.db, { storeIds: [storeB], username: "bea_downtown" })).cookie;
  await insertReportQuotes(app.db, quotesA, { storeId: storeA });
  await insertReportQuotes(app.db, quotesB, { storeId: storeB });
});

async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage: true });
}

describe("reports in a chain of two stores", () => {
  it("the owner picks All stores: a Store column, a row per store and a chain total", async () => {
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, owner);
    try {
      await page.goto(`/reports?from=${REPORT_RANGE.from}&to=${REPORT_RANGE.to}`);
      const select = page.getByLabel("Store", { exact: true });
      await expect(select.locator("option").allTextContents()).resolves.toEqual([
        "All stores",
        "Downtown (DT)",
        expect.stringContaining("(MAIN)"),
      ]);
      await select.selectOption("all");
      await page.getByRole("button", { name: "Show Report" }).click();
      await page.waitForURL(/store=all/);
      const all = expectedFor(inRange([...quotesA, ...quotesB]), new Date());
      await expect(page.getByTestId("total-Created").textContent()).resolves.toBe(
        String(all.created),
      );
      const byStore = page.locator("#report-stores-caption").locator("xpath=..");
      await expectCount(byStore.locator("tbody tr"), 2);
      const created = async (row: number) =>
        Number(await byStore.locator("tbody tr").nth(row).locator("td").first().textContent());
      await expect(byStore.locator("tbody th").allTextContents()).resolves.toEqual([
        "Downtown (DT)",
        expect.stringContaining("(MAIN)"),
      ]);
      expect(await created(0)).toBe(inRange(quotesB).length);
      expect(await created(1)).toBe(inRange(quotesA).length);
      // The chain total is the sum of the stores.
      await expect(byStore.locator("tfoot th").textContent()).resolves.toBe("Chain total");
      await expect(byStore.locator("tfoot td").first().textContent()).resolves.toBe(
        String((await created(0)) + (await created(1))),
      );
      await page.getByRole("heading", { name: "By Store and Week" }).waitFor();
      await shoot(page, "reports-all-stores");
      expect(await seriousA11yViolations(page)).toEqual([]);

      // One store: today's tables, that store's figures, no store rows.
      await page.getByLabel("Store", { exact: true }).selectOption(storeB);
      await page.getByRole("button", { name: "Show Report" }).click();
      await page.waitForURL(new RegExp(`store=${storeB}`));
      await expect(page.getByTestId("total-Created").textContent()).resolves.toBe(
        String(inRange(quotesB).length),
      );
      await expectCount(page.getByRole("heading", { name: "By Store" }), 0);
      await expectCount(page.getByText("Chain total"), 0);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("the owner's audit log names each entry's store and filters by one", async () => {
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, owner);
    try {
      await page.goto("/admin/audit");
      await page.getByRole("columnheader", { name: "Store" }).waitFor();
      await page.getByLabel("Store", { exact: true }).selectOption(storeB);
      await page.getByRole("button", { name: "Apply Filters" }).click();
      await page.waitForURL(new RegExp(`store=${storeB}`));
      const cells = page.getByTestId("audit-store");
      await expect(cells.allTextContents()).resolves.toEqual(["DT"]);
      await page.getByText("Store added: DT").waitFor();
      await shoot(page, "audit-store");
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("the dashboard counts the store picked; staff are not offered All stores", async () => {
    await insertSavedQuote(app.db, { storeId: storeB, firstName: "Dora" });
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, staffB);
    try {
      await page.goto("/dashboard");
      const select = page.getByLabel("Store", { exact: true });
      await expect(select.locator("option").allTextContents()).resolves.not.toContain(
        "All stores",
      );
      await expect(select.inputValue()).resolves.toBe(storeB);
      const recent = page.locator("section[aria-labelledby=recent-title] .quote-client");
      await expect(recent.allTextContents()).resolves.toContain("Dora Doe");
      await select.selectOption(storeA);
      await page.getByRole("button", { name: "Show" }).click();
      await page.waitForURL(new RegExp(`store=${storeA}`));
      await expect(recent.allTextContents()).resolves.not.toContain("Dora Doe");
      await shoot(page, "dashboard-store");
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
