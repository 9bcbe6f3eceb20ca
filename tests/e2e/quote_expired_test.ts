// The builder of an expired quote: e-mail and the tablet are off, with the hint
// that points to Reactivate Quote, until it is reactivated. Also the builder
// details a store notices: a discount below zero, an unreadable amount, a
// quantity the save would refuse, and a close reason of spaces.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import { DESKTOP, expectCount, openSignedIn, screenshotPath } from "../helpers/browser.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { EXPIRED_ACTIONS_HINT } from "../../src/quotes/rules.ts";
import { PD_REQUIRED_FOR_COMPLETE } from "../../src/schemas/client.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, staff: TestUser;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  staff = await createTestUser(app.db, { firstName: "Dana" });
  // E-mail configured, so Email Quote is off for the expiry alone.
  await app.db.updateTable("settings").set({
    smtpHost: "127.0.0.1",
    smtpFromEmail: "quotes@store.test",
  }).execute();
});

async function openBuilder(quoteId: string) {
  const { page, problems } = await openSignedIn(
    browser,
    app.baseUrl,
    await sessionCookieFor(app.db, staff.id),
    DESKTOP,
    // A bound for a step that will not happen, generous for a shared, busy machine.
    { timeout: 60_000, ignoreConsole: () => true },
  );
  await page.goto(`/quote/${quoteId}`);
  await page.waitForSelector("html[data-hydrated=true]");
  return { page, problems };
}

async function shot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage: true });
}

/** The ids an element's aria-describedby names, as the text a screen reader adds. */
const description = (page: Page, name: string) =>
  page.getByRole("button", { name, exact: true }).evaluate((el) =>
    (el.getAttribute("aria-describedby") ?? "").split(" ").map((id) =>
      document.getElementById(id)?.textContent ?? ""
    ).join(" ")
  );

describe("quote builder: an expired quote", () => {
  it("disables Email Quote, the tablet and Hand to Client with the hint, until Reactivate Quote", async () => {
    const { quoteId } = await insertSavedQuote(app.db, {
      status: "ACTIVE",
      expiresAt: new Date(Date.now() - 2 * 86_400_000),
    });
    const { page, problems } = await openBuilder(quoteId);
    await page.getByText("This quote has expired.").waitFor();
    const email = page.getByRole("button", { name: "Email Quote", exact: true });
    const tablet = page.getByRole("button", { name: "Open Tablet View", exact: true });
    const handOver = page.getByRole("button", { name: "Hand to Client" });
    await expect(email.isDisabled()).resolves.toBe(true);
    await expect(tablet.isDisabled()).resolves.toBe(true);
    await expect(handOver.isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId("expired-actions-hint").textContent()).resolves.toBe(
      EXPIRED_ACTIONS_HINT,
    );
    await expect(description(page, "Email Quote")).resolves.toBe(EXPIRED_ACTIONS_HINT);
    await expect(description(page, "Open Tablet View")).resolves.toBe(EXPIRED_ACTIONS_HINT);
    await expect(description(page, "Hand to Client")).resolves.toMatch(/Reactivate/);
    // No link to the tablet while it could not be confirmed there.
    await expectCount(page.locator(`a[href="/tablet/${quoteId}"]`), 0);
    expect(await seriousA11yViolations(page, ".qb-actions")).toEqual([]);
    await shot(page, "builder-expired-actions");

    await page.getByRole("button", { name: "Reactivate Quote" }).click();
    await page.locator(".toast", { hasText: "Quote reactivated successfully!" }).waitFor();
    await expect(email.isDisabled()).resolves.toBe(false);
    await expect(handOver.isDisabled()).resolves.toBe(false);
    await expectCount(page.getByTestId("expired-actions-hint"), 0);
    await expect(page.getByRole("link", { name: "Open Tablet View" }).getAttribute("href"))
      .resolves.toBe(`/tablet/${quoteId}`);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe("quote builder: amounts it cannot take as typed", () => {
  it("says so for a discount below zero, an unreadable price and a fraction or too many", async () => {
    const { quoteId } = await insertSavedQuote(app.db, {
      options: [{ label: "Everyday", sku: "RB-1", price: "100.00" }],
      expiresAt: new Date(Date.now() + 20 * 86_400_000),
    });
    const { page, problems } = await openBuilder(quoteId);
    const summary = page.getByTestId("quote-summary");
    const line = (label: string) =>
      summary.locator("div", { has: page.locator("dt").getByText(label, { exact: true }) })
        .locator("dd");

    // An unreadable price is marked, not counted as $0.00.
    await page.getByLabel("Frame Price").fill("12x");
    await expect(line("Frame").textContent()).resolves.toBe("?cannot be read");
    await expect(line("Total").textContent()).resolves.toBe("?cannot be read");
    await expect(page.getByTestId("summary-unreadable").textContent()).resolves.toContain(
      "Frame price",
    );
    await page.getByLabel("Frame Price").fill("100");
    await expect(line("Total").textContent()).resolves.toBe("$100.00");
    await expectCount(page.getByTestId("summary-unreadable"), 0);

    // A fraction or too many is said at once, and the save refuses it.
    const qty = page.getByLabel("Frame Quantity");
    await qty.fill("2.5");
    const qtyError = (text: string) => page.locator(".field-error", { hasText: text });
    await qtyError("Quantity must be a whole number").waitFor();
    await qty.fill("1500");
    await qtyError("Quantity can be at most 999").waitFor();
    await qty.blur();
    await expect(qty.inputValue()).resolves.toBe("1500");
    await page.getByRole("button", { name: "Save Quote" }).click();
    await page.locator(".toast", { hasText: "Quantity can be at most 999" }).waitFor();
    await qty.fill("2");
    await expectCount(qtyError("Quantity can be at most 999"), 0);

    // A discount beyond the subtotal is refused before it is sent.
    await page.getByLabel("Price Adjustment").fill("250");
    await page.getByLabel("Price Adjustment").blur();
    // Said in the summary while typing, and under the field once a save was tried.
    await expect(page.getByTestId("summary-below-zero").textContent()).resolves.toBe(
      "The discount is more than the subtotal and shipping: the total cannot go below $0.00.",
    );
    await expect(page.locator("#qb-o0-adjustment-error").textContent()).resolves.toBe(
      "Everyday: the discount is more than the subtotal and shipping ($200.00); " +
        "the total cannot go below $0.00",
    );
    await page.getByRole("button", { name: "Save Quote" }).click();
    await page.locator(".toast", { hasText: "the total cannot go below $0.00" }).waitFor();
    const stored = await app.db.selectFrom("quoteOptions").select("adjustmentAmount")
      .where("quoteId", "=", quoteId).executeTakeFirstOrThrow();
    expect(Number(stored.adjustmentAmount)).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("keeps Close Quote disabled for a reason of spaces only", async () => {
    const { quoteId } = await insertSavedQuote(app.db);
    const { page } = await openBuilder(quoteId);
    await page.getByRole("button", { name: "Close Quote" }).click();
    const dialog = page.getByRole("dialog", { name: "Close Quote" });
    const confirm = dialog.getByRole("button", { name: "Close Quote" });
    await dialog.getByLabel("Reason for closing").fill("  \n  ");
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel("Reason for closing").fill("Client bought elsewhere");
    await expect(confirm.isDisabled()).resolves.toBe(false);
    await page.context().close();
  });
});

describe("quote builder: measurements dialog", () => {
  it("says before sending that complete measurements need a PD distance", async () => {
    const { quoteId, clientId } = await insertSavedQuote(app.db, {
      status: "PENDING_MEASUREMENTS",
    });
    await app.db.insertInto("clientMeasurements").values({ clientId }).onConflict((oc) =>
      oc.column("clientId").doNothing()
    ).execute();
    const { page, problems } = await openBuilder(quoteId);
    const puts: string[] = [];
    page.on("request", (req) => {
      if (req.method() === "PUT" && req.url().endsWith("/measurements")) puts.push(req.url());
    });
    await page.getByRole("button", { name: "Edit client measurements" }).click();
    const dialog = page.getByRole("dialog", { name: "Client Measurements" });
    await dialog.getByLabel("PD Near").fill("59.5");
    await dialog.getByLabel("Mark measurements as complete").check();
    await dialog.getByRole("button", { name: "Save Measurements" }).click();
    const error = dialog.locator(".field-error", { hasText: PD_REQUIRED_FOR_COMPLETE });
    await error.waitFor();
    await expect(dialog.getByLabel("PD Distance").getAttribute("aria-invalid")).resolves.toBe(
      "true",
    );
    expect(puts).toEqual([]);
    // With a PD distance it goes through and the quote leaves Pending Measurements.
    await dialog.getByLabel("PD Distance").fill("62");
    await expectCount(error, 0);
    await dialog.getByRole("button", { name: "Save Measurements" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByTestId("quote-status").getByText("Active").waitFor();
    expect(puts.length).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
