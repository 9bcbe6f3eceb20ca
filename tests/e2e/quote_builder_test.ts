import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import { sql } from "kysely";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import {
  DESKTOP,
  expectCount,
  openSignedIn,
  screenshotPath,
  TABLET_LANDSCAPE,
} from "../helpers/browser.ts";
import { ensureDefaultCatalog } from "../../src/catalog/default_catalog.ts";
import { insertDraftQuote } from "../../src/quotes/quotes.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, staff: TestUser;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  await ensureDefaultCatalog(app.db);
  staff = await createTestUser(app.db, { username: "dana", firstName: "Dana" });
});

// ---------------------------------------------------------------------------
// Fixtures, written straight to the database

/** A client; `complete` undefined means no measurements recorded at all. */
async function insertClient(
  firstName: string,
  lastName: string,
  complete?: boolean,
): Promise<string> {
  const row = await app.db.insertInto("clients").values({ firstName, lastName })
    .returning("id").executeTakeFirstOrThrow();
  if (complete !== undefined) {
    await app.db.insertInto("clientMeasurements").values({
      clientId: row.id,
      pdBinocular: complete ? "63.5" : "62",
      pdNear: complete ? "60" : "0",
      measurementsComplete: complete,
    }).execute();
  }
  return row.id;
}

/** A new DRAFT quote with its one empty option, the way the app starts one. */
async function newQuote(clientId: string) {
  return await insertDraftQuote(app.db, clientId, staff.id);
}

/** A quote already saved once: optician set, one option with a frame. */
async function savedQuote(clientId: string, sku = "RB5154") {
  const quote = await newQuote(clientId);
  const option = await app.db.selectFrom("quoteOptions").select("id")
    .where("quoteId", "=", quote.id).executeTakeFirstOrThrow();
  await app.db.insertInto("optionItems").values({
    optionId: option.id,
    position: 0,
    kind: "FRAME",
    name: "Ray-Ban",
    sku,
    unitPrice: "189.00",
    qty: 1,
  }).execute();
  await app.db.updateTable("quoteOptions").set({ subtotal: "189.00" })
    .where("id", "=", option.id).execute();
  await app.db.updateTable("quotes").set({ opticianName: "Dana", status: "ACTIVE" })
    .where("id", "=", quote.id).execute();
  return { ...quote, optionId: option.id };
}

const quoteRow = (id: string) =>
  app.db.selectFrom("quotes").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

async function optionRows(quoteId: string) {
  const options = await app.db.selectFrom("quoteOptions")
    .select([
      "id",
      "label",
      "isChosen",
      sql<string>`shipping::text`.as("shipping"),
      sql<string>`adjustment_amount::text`.as("adjustmentAmount"),
      "adjustmentReason",
      sql<string>`subtotal::text`.as("subtotal"),
    ])
    .where("quoteId", "=", quoteId).orderBy("position").execute();
  const items = await app.db.selectFrom("optionItems")
    .select([
      "optionId",
      "kind",
      "name",
      "sku",
      sql<string>`unit_price::text`.as("unitPrice"),
      "qty",
      "notes",
    ])
    .where("optionId", "in", options.length ? options.map((o) => o.id) : [crypto.randomUUID()])
    .orderBy("position").execute();
  return options.map((o) => ({
    ...o,
    items: items.filter((i) => i.optionId === o.id).map(({ optionId: _, ...i }) => i),
  }));
}

// ---------------------------------------------------------------------------
// Browser helpers

interface Opened {
  page: Page;
  problems: string[];
}

async function openBuilder(
  quoteId: string,
  viewport = DESKTOP,
  user: { id: string } = staff,
): Promise<Opened> {
  const cookie = await sessionCookieFor(app.db, user.id);
  const { page, problems } = await openSignedIn(browser, app.baseUrl, cookie, viewport, {
    // Fail fast: a step that has not happened in 10 s is not going to.
    timeout: 10_000,
    // A refused call is logged by the browser itself; the test checks what the page says.
    ignoreConsole: (text) => text.includes("Failed to load resource"),
  });
  await page.goto(`/quote/${quoteId}`);
  await page.waitForSelector("html[data-hydrated=true]");
  return { page, problems };
}

async function shot(page: Page, name: string, fullPage = true) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage });
}

/** The toast on screen (one at a time): waits for one containing `text`. */
async function expectToast(page: Page, text: string) {
  const toast = page.locator(".toast", { hasText: text });
  await toast.waitFor();
  return toast;
}

async function dismissToast(page: Page) {
  const close = page.getByRole("button", { name: "Dismiss notification" });
  if (await close.count()) await close.click();
}

function summaryLine(page: Page, label: string) {
  return page.getByTestId("quote-summary").locator("div", {
    has: page.locator("dt").getByText(label, { exact: true }),
  }).locator("dd");
}

/** An open dialog by its title. */
const dialogNamed = (page: Page, title: string) =>
  page.getByRole("dialog").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

const tab = (page: Page, name: string) => page.getByRole("tab", { name });
/** The option tabs only (the builder also has Quote/History view tabs). */
const optionTabs = (page: Page) =>
  page.getByRole("tablist", { name: "Quote options" }).getByRole("tab");

/** Counts the builder's full saves (PUT /api/quotes/{id}). */
function countSaves(page: Page) {
  const counter = { n: 0 };
  page.on("request", (req) => {
    if (req.method() === "PUT" && /\/api\/quotes\/[^/]+$/.test(new URL(req.url()).pathname)) {
      counter.n++;
    }
  });
  return counter;
}

// ---------------------------------------------------------------------------

describe("quote builder: building and saving", () => {
  it("builds a two-option quote, saves it, and shows the same numbers after a reload", async () => {
    const clientId = await insertClient("Ada", "Lovelace", true);
    const quote = await newQuote(clientId);
    const { page, problems } = await openBuilder(quote.id);

    await expect(page.getByRole("heading", { name: "Quote Builder" }).isVisible()).resolves
      .toBe(true);
    await page.getByText("Managing quote for Ada Lovelace").waitFor();
    await expect(page.getByTestId("quote-number").textContent()).resolves.toBe(quote.quoteNumber);
    await expect(page.getByTestId("quote-status").textContent()).resolves.toBe("Draft");
    await shot(page, "builder-new-desktop");

    await page.getByLabel("Optician's Name").fill("Dana Scully");

    // Option 1: a frame and a catalog package.
    await page.getByLabel("Brand Name").fill("Ray-Ban");
    await page.getByLabel("SKU").fill("RB5154");
    await page.getByLabel("Frame Price").fill("189");
    await page.getByLabel("Lens Package").selectOption({
      label: "Premium Single Vision — $229.00",
    });
    await expect(tab(page, "RB5154").getAttribute("aria-selected")).resolves.toBe("true");
    await expect(summaryLine(page, "Subtotal").textContent()).resolves.toBe("$418.00");
    await page.getByText("Unsaved changes").waitFor();

    // Option 2: a custom package with everything.
    await page.getByRole("button", { name: "+ Add Option" }).click();
    await expect(tab(page, "Option 2").getAttribute("aria-selected")).resolves.toBe("true");
    await page.getByLabel("Brand Name").fill("Oakley");
    await page.getByLabel("SKU").fill("OX8046");
    await page.getByLabel("Frame Price").fill("210");
    await expectCount(page.getByLabel("Lens Type"), 0);
    await page.getByLabel("Lens Package").selectOption({ label: "Custom Package" });
    await page.getByLabel("Lens Type").selectOption({ label: "Progressive — $199.00" });
    await page.getByLabel("Material").selectOption({ label: "Polycarbonate — $45.00" });
    await page.getByLabel("AR Coating").selectOption({ label: "Premium AR — $99.00" });
    await page.getByLabel("Scratch coat").check();
    await page.getByRole("button", { name: "+ Add Item" }).click();
    await page.getByLabel("Name, Other item 1").fill("Hard case");
    await page.getByLabel("Price, Other item 1").fill("15");
    await page.getByLabel("Qty, Other item 1").fill("abc");
    await page.getByLabel("Notes, Other item 1").fill("Blue");
    await page.getByLabel("Shipping", { exact: true }).fill("12.5");
    await page.getByLabel("Price Adjustment").fill("25");
    // Positive until the field is left: shown red, then made a discount, shown green.
    await expect(summaryLine(page, "Promo").getAttribute("class")).resolves.toBeNull();
    await expectCount(page.locator(".qb-lines .qb-debit"), 1);
    await page.getByLabel("Adjustment Reason").fill("Loyalty");
    await expect(page.getByLabel("Price Adjustment").inputValue()).resolves.toBe("-25.00");
    await expect(page.getByLabel("Qty, Other item 1").inputValue()).resolves.toBe("1");
    await expect(page.getByLabel("Shipping", { exact: true }).inputValue()).resolves.toBe("12.50");
    await expectCount(page.locator(".qb-lines .qb-credit"), 1);
    await expect(page.getByLabel("Adjustment Reason").getAttribute("placeholder")).resolves
      .toBe("Promo");
    await page.getByLabel("Selected - Internal Print").check();

    await expect(summaryLine(page, "Frame").textContent()).resolves.toBe("$210.00");
    await expect(summaryLine(page, "Lenses & Add-ons").textContent()).resolves.toBe("$368.00");
    await expect(summaryLine(page, "Other").textContent()).resolves.toBe("$15.00");
    await expect(summaryLine(page, "Subtotal").textContent()).resolves.toBe("$593.00");
    await expect(summaryLine(page, "Shipping").textContent()).resolves.toBe("$12.50");
    await expect(summaryLine(page, "Loyalty").textContent()).resolves.toBe("-$25.00");
    await expect(summaryLine(page, "Total").textContent()).resolves.toBe("$580.50");
    await shot(page, "builder-custom-option-desktop");

    await page.getByRole("button", { name: "Save Quote" }).click();
    await expectToast(page, "Quote saved successfully!");
    await page.getByText("All changes saved").waitFor();
    // Still on the option that was open, now under its saved id.
    await expect(tab(page, "OX8046").getAttribute("aria-selected")).resolves.toBe("true");
    await expect(page.getByTestId("quote-status").textContent()).resolves.toBe("Active");

    const saved = await quoteRow(quote.id);
    expect(saved.status).toBe("ACTIVE");
    expect(saved.opticianName).toBe("Dana Scully");
    expect(saved.version).toBe(2);
    const options = await optionRows(quote.id);
    expect(options.length).toBe(2);
    expect(options[0].subtotal).toBe("418.00");
    expect(options[0].items.map((i) => [i.kind, i.name, i.unitPrice])).toEqual([
      ["FRAME", "Ray-Ban", "189.00"],
      ["PACKAGE", "Premium Single Vision", "229.00"],
    ]);
    expect(options[1]).toMatchObject({
      subtotal: "593.00",
      shipping: "12.50",
      adjustmentAmount: "-25.00",
      adjustmentReason: "Loyalty",
      isChosen: true,
    });
    expect(options[1].items.map((i) => [i.kind, i.name, i.unitPrice, i.qty])).toEqual([
      ["FRAME", "Oakley", "210.00", 1],
      ["PACKAGE", "Custom Package", "0.00", 1],
      ["LENS", "Progressive", "199.00", 1],
      ["MATERIAL", "Polycarbonate", "45.00", 1],
      ["AR", "Premium AR", "99.00", 1],
      ["ADDON", "Scratch coat", "25.00", 1],
      ["OTHER", "Hard case", "15.00", 1],
    ]);
    expect(options[1].items.find((i) => i.kind === "OTHER")?.notes).toBe("Blue");

    // The same numbers come back from the database.
    await page.reload();
    await page.waitForSelector("html[data-hydrated=true]");
    await expect(tab(page, "RB5154").getAttribute("aria-selected")).resolves.toBe("true");
    await expect(summaryLine(page, "Total").textContent()).resolves.toBe("$418.00");
    await expect(page.getByLabel("Lens Package").inputValue()).resolves.not.toBe("none");
    await page.getByRole("button", { name: /OX8046.*\$580\.50/ }).click();
    await expect(tab(page, "OX8046").getAttribute("aria-selected")).resolves.toBe("true");
    await expect(summaryLine(page, "Subtotal").textContent()).resolves.toBe("$593.00");
    await expect(summaryLine(page, "Loyalty").textContent()).resolves.toBe("-$25.00");
    await expect(summaryLine(page, "Total").textContent()).resolves.toBe("$580.50");
    await expect(page.getByLabel("Material").inputValue()).resolves.not.toBe("");
    await expect(page.getByLabel("Scratch coat").isChecked()).resolves.toBe(true);
    await expect(page.getByText("All changes saved").isVisible()).resolves.toBe(true);
    await dismissToast(page);
    await shot(page, "builder-saved-desktop");
    await page.evaluate(() => globalThis.scrollTo(0, 0));
    await shot(page, "builder-saved-desktop-viewport", false);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("saves as Pending Measurements while the client's measurements are incomplete", async () => {
    const clientId = await insertClient("Bo", "Pending", false);
    const quote = await newQuote(clientId);
    const { page, problems } = await openBuilder(quote.id);
    await page.getByLabel("Optician's Name").fill("Dana");
    await page.getByLabel("SKU").fill("TF2201");
    // Ctrl+S saves, as in any editor.
    await page.keyboard.press("Control+s");
    await expectToast(page, "Quote saved successfully!");
    await expect(page.getByTestId("quote-status").textContent()).resolves.toBe(
      "Pending Measurements",
    );
    expect((await quoteRow(quote.id)).status).toBe("PENDING_MEASUREMENTS");
    await page.getByText("Measurements Needed").waitFor();
    await expect(page.getByTestId("pd-distance").textContent()).resolves.toBe("62 mm");
    await expect(page.getByTestId("pd-near").textContent()).resolves.toBe("Not measured");

    await page.getByRole("button", { name: "Edit client measurements" }).click();
    const dialog = dialogNamed(page, "Client Measurements");
    await dialog.getByLabel("PD Near").fill("59.5");
    await dialog.getByLabel("Mark measurements as complete").check();
    await dialog.getByRole("button", { name: "Save Measurements" }).click();
    await expectToast(page, "Client measurements updated successfully");
    await dialog.waitFor({ state: "hidden" });
    await expect(page.getByTestId("pd-near").textContent()).resolves.toBe("59.5 mm");
    // Completing them moved the quote on; the builder follows without losing its place.
    await page.getByTestId("quote-status").getByText("Active").waitFor();
    await expectCount(page.getByText("Measurements Needed"), 0);

    // The next save still goes through (the builder knows the quote's new version).
    await page.getByLabel("Option Label").fill("Everyday pair");
    await page.getByRole("button", { name: "Save Quote" }).click();
    await expectToast(page, "Quote saved successfully!");
    const row = await quoteRow(quote.id);
    expect(row.status).toBe("ACTIVE");
    const measurements = await app.db.selectFrom("clientMeasurements").selectAll()
      .where("clientId", "=", clientId).executeTakeFirstOrThrow();
    expect(measurements.pdNear).toBe("59.5");
    expect(measurements.measurementsComplete).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("refuses to save with the spec's messages and marks the fields", async () => {
    const clientId = await insertClient("Cy", "Checks", true);
    const quote = await newQuote(clientId);
    const { page } = await openBuilder(quote.id);
    const saves = countSaves(page);
    const save = page.getByRole("button", { name: "Save Quote" });

    await save.click();
    await expectToast(page, "Validation Error");
    await expectToast(page, "Optician's Name is required");
    const optician = page.getByLabel("Optician's Name");
    await expect(optician.getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe("qb-optician");
    await optician.fill("Dana");
    // Fixed fields lose their mark as soon as they are fixed.
    await expect(optician.getAttribute("aria-invalid")).resolves.toBeNull();

    await save.click();
    await expectToast(page, "Option 1 must have a frame with SKU");
    await expect(page.getByLabel("SKU").getAttribute("aria-invalid")).resolves.toBe("true");
    await page.getByLabel("SKU").fill("RB1");
    await page.getByLabel("Lens Package").selectOption({ label: "Custom Package" });

    await save.click();
    await expectToast(page, "RB1 requires a lens type to be selected");
    await expect(page.getByLabel("Lens Type").getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(page.getByLabel("Material").getAttribute("aria-invalid")).resolves.toBe("true");
    await page.getByLabel("Lens Type").selectOption({ label: "Single Vision — $79.00" });

    await save.click();
    await expectToast(page, "RB1 requires a material to be selected");
    await page.getByLabel("Material").selectOption({ label: "Trivex — $65.00" });

    // A problem in another option opens that option's tab.
    await page.getByRole("button", { name: "+ Add Option" }).click();
    await tab(page, "RB1").click();
    await save.click();
    await expectToast(page, "Option 2 must have a frame with SKU");
    await expect(tab(page, "Option 2").getAttribute("aria-selected")).resolves.toBe("true");
    await shot(page, "builder-validation-desktop");

    // A price the server would refuse is caught here too.
    await page.getByLabel("SKU").fill("RB2");
    await page.getByLabel("Frame Price").fill("12,5x");
    await save.click();
    await expectToast(page, "RB2: Price must be a number like 12.50");
    await expect(page.getByLabel("Frame Price").getAttribute("aria-invalid")).resolves.toBe("true");
    expect(saves.n).toBe(0);

    await page.getByLabel("Frame Price").fill("99");
    await save.click();
    await expectToast(page, "Quote saved successfully!");
    expect(saves.n).toBe(1);
    const options = await optionRows(quote.id);
    expect(options.map((o) => o.subtotal)).toEqual(["144.00", "99.00"]);
    await page.context().close();
  });

  it("a stale save (409) says so and keeps everything typed on screen", async () => {
    const clientId = await insertClient("Di", "Stale", true);
    const quote = await savedQuote(clientId);
    const { page } = await openBuilder(quote.id);
    await page.getByLabel("Optician's Name").fill("Fox Mulder");
    await page.getByLabel("Frame Price").fill("250");
    await page.getByLabel("Option Label").fill("Sunglasses");
    await page.getByLabel("Internal Notes").fill("Prefers matte finish");

    // Someone else (the tablet) saves the quote behind this page's back.
    await app.db.updateTable("quotes").set((eb) => ({ version: eb("version", "+", 1) }))
      .where("id", "=", quote.id).execute();

    await page.getByRole("button", { name: "Save Quote" }).click();
    await expectToast(page, "Quote not saved");
    await expect(page.locator(".toast").textContent()).resolves.toContain("changed elsewhere");
    const alert = page.getByRole("alert").filter({ hasText: "Not saved." });
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toContain("changed elsewhere");
    await expect(alert.getByRole("button", { name: "Reload Quote" }).isVisible()).resolves
      .toBe(true);
    await expect(page.getByLabel("Optician's Name").inputValue()).resolves.toBe("Fox Mulder");
    await expect(page.getByLabel("Frame Price").inputValue()).resolves.toBe("250.00");
    await expect(page.getByLabel("Option Label").inputValue()).resolves.toBe("Sunglasses");
    await expect(page.getByLabel("Internal Notes").inputValue()).resolves.toBe(
      "Prefers matte finish",
    );
    await expect(page.getByText("Unsaved changes").isVisible()).resolves.toBe(true);
    await shot(page, "builder-stale-desktop");

    const row = await quoteRow(quote.id);
    expect(row.opticianName).toBe("Dana");
    expect((await optionRows(quote.id))[0].subtotal).toBe("189.00");
    await page.context().close();
  });
});

describe("quote builder: measurements, status actions and leaving", () => {
  it("SEG/OC of a saved option reaches the database without a save", async () => {
    const clientId = await insertClient("Ed", "Segoc", true);
    const quote = await savedQuote(clientId);
    const { page, problems } = await openBuilder(quote.id);
    const saves = countSaves(page);
    const segOc = page.getByLabel("SEG/OC");
    await segOc.fill("18/22");
    await page.getByText("Saved", { exact: true }).waitFor();
    const stored = await app.db.selectFrom("optionFrameMeasurements").selectAll()
      .where("optionId", "=", quote.optionId).executeTakeFirst();
    expect(stored?.segOc).toBe("18/22");
    expect(saves.n).toBe(0);
    await expect(page.getByText("All changes saved").isVisible()).resolves.toBe(true);

    // An unsaved option's SEG/OC goes with the next save.
    await page.getByRole("button", { name: "+ Add Option" }).click();
    await page.getByLabel("SKU").fill("NEW1");
    await segOc.fill("20");
    await expect(page.getByText("Saved with the quote.").isVisible()).resolves.toBe(true);
    await page.getByRole("button", { name: "Save Quote" }).click();
    await expectToast(page, "Quote saved successfully!");
    const options = await optionRows(quote.id);
    const second = await app.db.selectFrom("optionFrameMeasurements").selectAll()
      .where("optionId", "=", options[1].id).executeTakeFirst();
    expect(second?.segOc).toBe("20");

    // After a reload each option shows its own.
    await page.reload();
    await page.waitForSelector("html[data-hydrated=true]");
    await expect(segOc.inputValue()).resolves.toBe("18/22");
    await tab(page, "NEW1").click();
    await expect(segOc.inputValue()).resolves.toBe("20");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("closes with a reason (blank refused), then the quote is read-only", async () => {
    const clientId = await insertClient("Flo", "Closer", true);
    const quote = await savedQuote(clientId);
    const { page } = await openBuilder(quote.id);
    await page.getByRole("button", { name: "Close Quote" }).click();
    const dialog = dialogNamed(page, "Close Quote");
    const confirm = dialog.getByRole("button", { name: "Close Quote" });
    await expect(confirm.isDisabled()).resolves.toBe(true);
    // A reason of spaces only keeps the button disabled.
    await dialog.getByLabel("Reason for closing").fill("   ");
    await expect(confirm.isDisabled()).resolves.toBe(true);
    expect((await quoteRow(quote.id)).status).toBe("ACTIVE");
    await shot(page, "builder-close-dialog-desktop");

    await dialog.getByLabel("Reason for closing").fill("Client bought elsewhere");
    await confirm.click();
    await expectToast(page, "Quote closed successfully!");
    await dialog.waitFor({ state: "hidden" });
    await page.getByText("This quote is closed and can no longer be changed.").waitFor();
    await page.getByText("Reason: Client bought elsewhere").waitFor();
    await expect(page.getByTestId("quote-status").textContent()).resolves.toBe("Closed");
    await expect(page.getByLabel("Optician's Name").isDisabled()).resolves.toBe(true);
    await expect(page.getByLabel("SKU").isDisabled()).resolves.toBe(true);
    await expectCount(page.getByRole("button", { name: "Save Quote" }), 0);
    await expectCount(page.getByRole("button", { name: "Close Quote" }), 0);
    await shot(page, "builder-closed-desktop");
    const row = await quoteRow(quote.id);
    expect(row.status).toBe("CLOSED");
    expect(row.closureReason).toBe("Client bought elsewhere");
    await page.context().close();
  });

  it("reactivates an expired quote", async () => {
    const clientId = await insertClient("Gus", "Expired", true);
    const quote = await savedQuote(clientId);
    await app.db.updateTable("quotes").set({ expiresAt: new Date(Date.now() - 86_400_000) })
      .where("id", "=", quote.id).execute();
    const { page, problems } = await openBuilder(quote.id, TABLET_LANDSCAPE);
    await page.getByText("This quote has expired.").waitFor();
    await expect(page.locator(".qb-head-meta").getByText("Expired").isVisible()).resolves
      .toBe(true);
    await shot(page, "builder-expired-tablet");
    // Edits typed before reactivating are kept.
    await page.getByLabel("Option Label").fill("Kept while reactivating");
    await page.getByRole("button", { name: "Reactivate Quote" }).click();
    await expectToast(page, "Quote reactivated successfully!");
    await expectCount(page.getByText("This quote has expired."), 0);
    await expect(page.getByLabel("Option Label").inputValue()).resolves.toBe(
      "Kept while reactivating",
    );
    const row = await quoteRow(quote.id);
    expect(row.expiresAt === null || row.expiresAt.getTime() > Date.now()).toBe(true);
    // The reactivation's new version was taken on, so the kept edit saves.
    await page.getByRole("button", { name: "Save Quote" }).click();
    await expectToast(page, "Quote saved successfully!");
    expect((await optionRows(quote.id))[0].label).toBe("Kept while reactivating");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("finalizes a saved quote only when nothing is unsaved", async () => {
    const clientId = await insertClient("Hal", "Final", true);
    const quote = await savedQuote(clientId);
    const { page } = await openBuilder(quote.id);
    const finalize = page.getByRole("button", { name: "Finalize" });
    await expect(finalize.isEnabled()).resolves.toBe(true);
    await page.getByLabel("Option Notes").fill("Rush order");
    await expect(finalize.isDisabled()).resolves.toBe(true);
    await page.getByText("Save your changes before finalizing.").waitFor();
    await page.getByRole("button", { name: "Save Quote" }).click();
    await expectToast(page, "Quote saved successfully!");
    await finalize.click();
    await dialogNamed(page, "Finalize Quote").getByRole("button", {
      name: "Finalize",
    }).click();
    await expectToast(page, "Quote finalized successfully!");
    await page.getByText("This quote is finalized and can no longer be changed.").waitFor();
    await expect(page.getByTestId("quote-status").textContent()).resolves.toBe("Finalized");
    await expect(page.getByLabel("Option Notes").isDisabled()).resolves.toBe(true);
    expect((await quoteRow(quote.id)).status).toBe("FINALIZED");
    await page.context().close();
  });

  it("a finalized quote is final for staff; an owner reopens it with a reason", async () => {
    const clientId = await insertClient("Ivo", "Reopen", true);
    const quote = await savedQuote(clientId);
    // Finalized and past its expiry: neither Close nor Reactivate may be offered.
    await app.db.updateTable("quotes").set({
      status: "FINALIZED",
      expiresAt: new Date(Date.now() - 86_400_000),
    }).where("id", "=", quote.id).execute();
    const staffView = await openBuilder(quote.id);
    await staffView.page.getByText("This quote is finalized and can no longer be changed.")
      .waitFor();
    await staffView.page.getByText("Only an owner can reopen it.").waitFor();
    for (const name of ["Reopen", "Close Quote", "Reactivate Quote", "Save Quote"]) {
      await expect(staffView.page.getByRole("button", { name, exact: true }).count()).resolves
        .toBe(0);
    }
    await shot(staffView.page, "builder-finalized-staff-desktop");
    expect(staffView.problems).toEqual([]);
    await staffView.page.context().close();

    const owner = await createTestUser(app.db, { role: "OWNER", firstName: "Olga" });
    const { page, problems } = await openBuilder(quote.id, DESKTOP, owner);
    await expectCount(page.getByText("Only an owner can reopen it."), 0);
    await page.getByRole("button", { name: "Reopen", exact: true }).click();
    const dialog = dialogNamed(page, "Reopen Quote");
    const confirm = dialog.getByRole("button", { name: "Reopen Quote" });
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel("Reason for reopening").fill("    ");
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel("Reason for reopening").fill("Client switched to progressive lenses");
    await expect(confirm.isEnabled()).resolves.toBe(true);
    await shot(page, "builder-reopen-dialog-desktop");
    await confirm.click();
    await expectToast(page, "Quote reopened successfully!");
    await dialog.waitFor({ state: "hidden" });
    await expect(page.getByTestId("quote-status").textContent()).resolves.toBe("Active");
    await page.getByRole("button", { name: "Save Quote" }).waitFor();
    await expect(page.getByLabel("Option Notes").isEnabled()).resolves.toBe(true);
    expect((await quoteRow(quote.id)).status).toBe("ACTIVE");
    const audit = await app.db.selectFrom("auditLog").select("details")
      .where("action", "=", "quote.reopen").where("entityId", "=", quote.id)
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ reason: "Client switched to progressive lenses" });
    await shot(page, "builder-reopened-desktop");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("the last option cannot be deleted; another one can, after confirming", async () => {
    const clientId = await insertClient("Ivy", "Options", true);
    const quote = await savedQuote(clientId);
    const { page } = await openBuilder(quote.id);
    const remove = page.getByRole("button", { name: "Delete Option" });
    await expect(remove.isDisabled()).resolves.toBe(true);
    await page.getByText("A quote needs at least one option.").waitFor();

    await page.getByRole("button", { name: "+ Add Option" }).click();
    await page.getByLabel("SKU").fill("GONE1");
    await expectCount(optionTabs(page), 2);
    await remove.click();
    const dialog = dialogNamed(page, "Delete Option");
    await dialog.getByText("Delete GONE1?").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expectCount(optionTabs(page), 2);
    await remove.click();
    await dialog.getByRole("button", { name: "Delete Option" }).click();
    await expectCount(optionTabs(page), 1);
    await expect(tab(page, "RB5154").getAttribute("aria-selected")).resolves.toBe("true");
    await expect(remove.isDisabled()).resolves.toBe(true);
    // Adding then removing the same option leaves nothing to save.
    await page.getByText("All changes saved").waitFor();
    await page.context().close();
  });

  it("arrow keys move between option tabs", async () => {
    const clientId = await insertClient("Jo", "Keys", true);
    const quote = await savedQuote(clientId);
    const { page } = await openBuilder(quote.id);
    await page.getByRole("button", { name: "+ Add Option" }).click();
    await page.getByRole("button", { name: "+ Add Option" }).click();
    await tab(page, "RB5154").click();
    await page.keyboard.press("ArrowRight");
    await expect(tab(page, "Option 2").getAttribute("aria-selected")).resolves.toBe("true");
    await page.keyboard.press("End");
    await expect(tab(page, "Option 3").getAttribute("aria-selected")).resolves.toBe("true");
    await page.keyboard.press("ArrowRight");
    await expect(tab(page, "RB5154").getAttribute("aria-selected")).resolves.toBe("true");
    await expect(page.evaluate(() => document.activeElement?.getAttribute("role"))).resolves
      .toBe("tab");
    await page.context().close();
  });

  it("asks before leaving with unsaved changes", async () => {
    const clientId = await insertClient("Kay", "Leaving", true);
    const quote = await savedQuote(clientId);
    const { page } = await openBuilder(quote.id);
    const dialogs: string[] = [];
    page.on("dialog", async (dialog) => {
      dialogs.push(dialog.type());
      await dialog.dismiss();
    });
    await page.getByLabel("Optician's Name").fill("Dana Changed");
    await page.getByText("Unsaved changes").waitFor();
    await page.getByRole("link", { name: "Print" }).click();
    for (let i = 0; i < 50 && dialogs.length === 0; i++) await page.waitForTimeout(100);
    expect(dialogs).toEqual(["beforeunload"]);
    // Staying keeps the page and what was typed.
    expect(new URL(page.url()).pathname).toBe(`/quote/${quote.id}`);
    await expect(page.getByLabel("Optician's Name").inputValue()).resolves.toBe("Dana Changed");
    await page.context().close();
  });
});

describe("quote builder: routes and layout", () => {
  it("links print in the same window and the tablet view in a new one", async () => {
    const clientId = await insertClient("Lu", "Links", true);
    const quote = await savedQuote(clientId);
    const { page } = await openBuilder(quote.id);
    const print = page.getByRole("link", { name: "Print" });
    await expect(print.getAttribute("href")).resolves.toBe(`/print/${quote.id}`);
    await expect(print.getAttribute("target")).resolves.toBeNull();
    const tablet = page.getByRole("link", { name: "Open Tablet View" });
    await expect(tablet.getAttribute("href")).resolves.toBe(`/tablet/${quote.id}`);
    await expect(tablet.getAttribute("target")).resolves.toBe("_blank");
    await expect(tablet.getAttribute("rel")).resolves.toContain("noopener");
    // E-mail is not configured in this test store: the action is there but off.
    await expect(page.getByRole("button", { name: "Email Quote" }).isDisabled()).resolves.toBe(
      true,
    );
    await page.context().close();
  });

  it("/quote without an id goes to the clients; an unknown id is a 404", async () => {
    const clientId = await insertClient("Mo", "Routes", true);
    const quote = await savedQuote(clientId);
    const { page } = await openBuilder(quote.id);
    await page.goto("/quote");
    expect(new URL(page.url()).pathname).toBe("/clients");
    for (const id of [crypto.randomUUID(), "not-a-quote"]) {
      const res = await page.goto(`/quote/${id}`);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "404 Page Not Found" }).isVisible())
        .resolves.toBe(true);
    }
    await page.context().close();
  });

  it("fits a 1024×768 tablet in two columns and a narrow screen in one", async () => {
    const clientId = await insertClient("Nia", "Tablet", false);
    const quote = await savedQuote(clientId);
    await app.db.updateTable("quotes").set({ status: "PENDING_MEASUREMENTS" })
      .where("id", "=", quote.id).execute();
    const { page, problems } = await openBuilder(quote.id, TABLET_LANDSCAPE);
    await page.getByLabel("Lens Package").selectOption({ label: "Custom Package" });
    await page.getByRole("button", { name: "+ Add Item" }).click();
    await page.getByLabel("Name, Other item 1").fill("Cleaning kit");
    await page.getByLabel("Price, Other item 1").fill("9.99");
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - globalThis.innerWidth);
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);
    const columns = () =>
      page.evaluate(() =>
        getComputedStyle(document.querySelector(".qb-layout")!).gridTemplateColumns.split(" ")
          .length
      );
    await expect(columns()).resolves.toBe(2);
    await shot(page, "builder-tablet-1024");
    // Scrolled down to the end of the option, Save is still on screen.
    await page.getByLabel("Option Notes").scrollIntoViewIfNeeded();
    await page.evaluate(() => globalThis.scrollTo(0, document.body.scrollHeight));
    const saveBox = await page.getByRole("button", { name: "Save Quote" }).boundingBox();
    expect(saveBox && saveBox.y > 0 && saveBox.y + saveBox.height < 768).toBe(true);
    await shot(page, "builder-tablet-1024-scrolled", false);
    // Buttons and fields are big enough for a finger.
    const small = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>(".qb button, .qb input, .qb select"))
        .filter((el) => el.offsetParent !== null && el.getAttribute("type") !== "checkbox")
        .filter((el) => el.getBoundingClientRect().height < 36)
        .map((el) => el.outerHTML.slice(0, 80))
    );
    expect(small).toEqual([]);
    await page.setViewportSize({ width: 800, height: 1024 });
    await expect(columns()).resolves.toBe(1);
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);
    await shot(page, "builder-narrow-800");
    // On one column the save bar stays at the bottom of the screen.
    const save = page.getByRole("button", { name: "Save Quote" });
    const box = await save.boundingBox();
    expect(box && box.y + box.height).toBeGreaterThan(1024 - 80);
    await shot(page, "builder-narrow-800-viewport", false);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
