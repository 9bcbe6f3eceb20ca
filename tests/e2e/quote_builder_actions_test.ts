// The quote builder in a browser: measurements, status actions and leaving the builder,
// its routes and its layout.
import { describe, it } from "node:test";
import { expect } from "expect";
import { createTestUser } from "../helpers/test_app.ts";
import { DESKTOP, expectCount, TABLET_LANDSCAPE } from "../helpers/browser.ts";
import { app, countSaves, dialogNamed, expectToast } from "./quote_builder_fixture.ts";
import { insertClient, openBuilder, optionRows, optionTabs } from "./quote_builder_fixture.ts";
import { quoteRow, savedQuote, shot, tab } from "./quote_builder_fixture.ts";
import { useQuoteBuilderApp } from "./quote_builder_fixture.ts";

useQuoteBuilderApp();

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
