// The quote builder in a browser: building options and saving them.
import { describe, it } from "node:test";
import { expect } from "expect";
import { expectCount } from "../helpers/browser.ts";
import { app, countSaves, dialogNamed, dismissToast } from "./quote_builder_fixture.ts";
import { expectToast, insertClient, newQuote, openBuilder } from "./quote_builder_fixture.ts";
import { optionRows, quoteRow, savedQuote, shot } from "./quote_builder_fixture.ts";
import { summaryLine, tab, useQuoteBuilderApp } from "./quote_builder_fixture.ts";

useQuoteBuilderApp();

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
