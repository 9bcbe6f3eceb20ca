// The whole Saturday in one browser: a client fills the intake on the tablet,
// the optician signs in, builds a three-option quote, the client picks two on
// the tablet, and the dashboard and builder show the accepted quote with exact totals.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser } from "playwright-core";
import { createTestUser, type TestApp, type TestUser } from "../helpers/test_app.ts";
import { DESKTOP, screenshotPath, TABLET_LANDSCAPE, TABLET_PORTRAIT } from "../helpers/browser.ts";
import { ensureDefaultCatalog } from "../../src/catalog/default_catalog.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, optician: TestUser;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  await ensureDefaultCatalog(app.db);
  optician = await createTestUser(app.db, { username: "dana", firstName: "Dana" });
});

describe("intake to accepted quote", () => {
  it("goes from a tablet intake to an accepted three-option quote with exact totals", async () => {
    const context = await browser.newContext({ viewport: TABLET_PORTRAIT, baseURL: app.baseUrl });
    const page = await context.newPage();

    // 1. The client fills the intake on the store's tablet (nobody signed in).
    await page.goto("/intake");
    await page.waitForSelector("html[data-hydrated=true]");
    await page.getByLabel(/^First Name\*?$/).fill("Grace");
    await page.getByLabel(/^Last Name\*?$/).fill("Hopper");
    await page.getByLabel(/^Mobile Phone$/).fill("(555) 010-7788");
    await page.getByRole("button", { name: "Submit Intake Form" }).click();
    await page.waitForURL(/\/staff\?returnTo=%2Fquote%2F/);

    // 2. The optician takes the tablet back and signs in; the new quote opens.
    await page.waitForSelector("html[data-hydrated=true]");
    await page.getByLabel("Username").fill("dana");
    await page.getByLabel("Password", { exact: true }).fill(optician.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL(/\/quote\/[0-9a-f-]{36}$/);
    const quoteId = new URL(page.url()).pathname.split("/").pop()!;
    await page.setViewportSize(DESKTOP);
    await page.waitForSelector("html[data-hydrated=true]");
    await page.getByText("Managing quote for Grace Hopper").waitFor();

    // 3. Three options: two catalog packages and a custom package.
    await page.getByLabel("Optician's Name").fill("Dana");
    await page.getByLabel("Brand Name").fill("Ray-Ban");
    await page.getByLabel("SKU").fill("RB5154");
    await page.getByLabel("Frame Price").fill("189");
    await page.getByLabel("Lens Package").selectOption({
      label: "Premium Single Vision — $229.00",
    });
    await page.getByRole("button", { name: "+ Add Option" }).click();
    await page.getByLabel("Brand Name").fill("Persol");
    await page.getByLabel("SKU").fill("PO3007");
    await page.getByLabel("Frame Price").fill("150");
    await page.getByLabel("Lens Package").selectOption({
      label: "Essential Single Vision — $129.00",
    });
    await page.getByRole("button", { name: "+ Add Option" }).click();
    await page.getByLabel("Brand Name").fill("Oakley");
    await page.getByLabel("SKU").fill("OX8046");
    await page.getByLabel("Frame Price").fill("210");
    await page.getByLabel("Lens Package").selectOption({ label: "Custom Package" });
    await page.getByLabel("Lens Type").selectOption({ label: "Progressive — $199.00" });
    await page.getByLabel("Material").selectOption({ label: "Polycarbonate — $45.00" });
    await page.getByRole("button", { name: "Save Quote" }).click();
    await page.getByText("Quote saved successfully!").waitFor();

    // 4. The client picks two options on the tablet.
    const tablet = await context.newPage();
    await tablet.setViewportSize(TABLET_LANDSCAPE);
    await tablet.goto(`/tablet/${quoteId}`);
    await tablet.waitForSelector("html[data-hydrated=true]");
    await tablet.getByRole("heading", { name: "Select Your Preferred Options" }).waitFor();
    await tablet.getByRole("checkbox", { name: "Option 1", exact: true }).click();
    await tablet.getByRole("checkbox", { name: "Option 3", exact: true }).click();
    await tablet.getByRole("button", { name: "Confirm Selection(s)" }).click();
    await tablet.getByRole("heading", { name: "Thank You!" }).waitFor();
    const tabletShot = screenshotPath("journey-tablet-thanks");
    if (tabletShot) await tablet.screenshot({ path: tabletShot });
    await tablet.close();

    // 5. The dashboard shows the accepted quote.
    await page.goto("/dashboard");
    const recent = page.getByRole("region", { name: "Recent Quotes" }).getByRole("link").first();
    await expect(recent.textContent()).resolves.toContain("Grace Hopper");
    await expect(recent.locator(".badge").textContent()).resolves.toBe("accepted");
    const dashShot = screenshotPath("journey-dashboard");
    if (dashShot) await page.screenshot({ path: dashShot });

    // 6. The builder shows it accepted, with the chosen options and exact totals.
    await recent.click();
    await page.waitForSelector("html[data-hydrated=true]");
    await expect(page.getByTestId("quote-status").textContent()).resolves.toBe("Accepted");
    await page.getByRole("button", { name: /RB5154.*\$418\.00/ }).waitFor();
    await page.getByRole("button", { name: /PO3007.*\$279\.00/ }).waitFor();
    await page.getByRole("button", { name: /OX8046.*\$454\.00/ }).click();
    await expect(page.getByLabel("Selected - Internal Print").isChecked()).resolves.toBe(true);
    const options = await app.db.selectFrom("quoteOptions")
      .select(["subtotal", "isChosen"]).where("quoteId", "=", quoteId).orderBy("position")
      .execute();
    expect(options.map((o) => [String(o.subtotal), o.isChosen])).toEqual([
      ["418.00", true],
      ["279.00", false],
      ["454.00", true],
    ]);
    await context.close();
  });
});
