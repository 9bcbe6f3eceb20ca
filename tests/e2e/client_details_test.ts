// Client management in a browser: a client's details and measurements, and adding,
// editing and deleting clients and starting a quote.
import { describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import { expectCount } from "../helpers/browser.ts";
import { app, card, cards, dialog, EMAIL_TEXT, expectNames } from "./clients_fixture.ts";
import { google, insertQuote, insertTrio, openClients, shoot } from "./clients_fixture.ts";
import { SMS_TEXT, toastSays, useClientsApp } from "./clients_fixture.ts";

useClientsApp();

describe("client management: details and measurements", () => {
  it("opens a client's details from the card and keeps ?id= in the URL", async () => {
    const { bob } = await insertTrio();
    await app.db.updateTable("clients").set({
      smsConsent: true,
      emailConsent: false,
      consentDate: new Date("2024-03-05T15:00:00Z"),
      dob: "1980-07-14",
      heardHowId: google.id,
    }).where("id", "=", bob).execute();
    const older = await insertQuote(bob, "EMAILED", new Date(Date.now() - 86_400_000));
    const newer = await insertQuote(bob, "DRAFT");
    const { page, problems, apiCalls } = await openClients();

    // A tap anywhere on the card opens it (the name's hit area covers the card).
    await card(page, "Bob Baker").locator(".client-card-details").click({ force: true });
    const details = dialog(page, "Bob Baker");
    await details.getByRole("heading", { name: "Contact Information" }).waitFor();
    expect(new URL(page.url()).searchParams.get("id")).toBe(bob);
    expect(apiCalls).toEqual([`GET /api/clients/${bob}`]);

    const text = await details.textContent();
    expect(text).toContain("bob@example.com");
    expect(text).toContain("555-777-1234");
    expect(text).toContain("Jul 14, 1980");
    expect(text).toContain("Google");
    const consent = details.locator("section", {
      has: page.getByRole("heading", { name: "Communication Consent" }),
    });
    await expect(consent.locator("dd").allTextContents()).resolves.toEqual([
      "Yes",
      "No",
      new Date("2024-03-05T15:00:00Z").toLocaleDateString("en-US", {
        month: "short",
        day: "numeric",
        year: "numeric",
      }),
    ]);
    const measurements = details.locator("section", {
      has: page.getByRole("heading", { name: "Baseline Measurements" }),
    });
    await expect(measurements.locator(".badge-warning").textContent()).resolves.toBe("Incomplete");
    await expect(measurements.textContent()).resolves.toContain("Not measured");

    const rows = details.locator(".client-quote-row");
    await expectCount(rows, 2);
    await expect(rows.nth(0).locator("code").textContent()).resolves.toBe(newer.id.slice(-8));
    await expect(rows.nth(0).locator(".badge-secondary").textContent()).resolves.toBe("Draft");
    await expect(rows.nth(1).locator("code").textContent()).resolves.toBe(older.id.slice(-8));
    await expect(rows.nth(1).locator(".badge-info").textContent()).resolves.toBe("Emailed");
    await expect(rows.nth(0).getByRole("link", { name: /View/ }).getAttribute("href")).resolves
      .toBe(`/quote/${newer.id}`);
    await expect(details.getByRole("button", { name: "New Quote" }).isVisible()).resolves.toBe(
      true,
    );
    await shoot(page, "clients-detail-consent-desktop");

    await page.keyboard.press("Escape");
    await details.waitFor({ state: "hidden" });
    expect(new URL(page.url()).searchParams.has("id")).toBe(false);

    // Keyboard: the name is a button; Enter opens the card, the actions stay separate.
    await page.getByRole("button", { name: "Cara Cole", exact: true }).focus();
    await page.keyboard.press("Enter");
    await dialog(page, "Cara Cole").getByText("Complete", { exact: true }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Cara Cole", exact: true }).focus();
    await page.keyboard.press("Space");
    await dialog(page, "Cara Cole").waitFor();
    await page.keyboard.press("Escape");
    await dialog(page, "Cara Cole").waitFor({ state: "hidden" });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("opens the details named by ?id= on load, with no extra round trip", async () => {
    const { ann } = await insertTrio();
    const quote = await insertQuote(ann, "PENDING_MEASUREMENTS");
    const { page, problems, apiCalls } = await openClients(`/clients?id=${ann}`);
    const details = dialog(page, "Ann Archer");
    await details.getByRole("heading", { name: "Baseline Measurements" }).waitFor();
    await expect(details.isVisible()).resolves.toBe(true);
    expect(apiCalls).toEqual([]);
    await expect(details.locator(".client-quote-row code").textContent()).resolves.toBe(
      quote.id.slice(-8),
    );
    await expect(details.locator(".client-quote-row .badge-warning").textContent()).resolves.toBe(
      "Pending Measurements",
    );
    await details.getByRole("button", { name: "Close" }).first().click();
    await details.waitFor({ state: "hidden" });
    expect(new URL(page.url()).search).toBe("");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("an unknown ?id= says Failed to load client details", async () => {
    await insertTrio();
    const { page } = await openClients(`/clients?id=${crypto.randomUUID()}`);
    await toastSays(page, "Failed to load client details");
    await expect(page.getByRole("dialog").getByText("Failed to load client details").isVisible())
      .resolves.toBe(true);
    await page.context().close();
  });

  it("records measurements: validation, a server 400 under its field, then Complete", async () => {
    const { ann } = await insertTrio();
    const quote = await insertQuote(ann, "PENDING_MEASUREMENTS");
    const { page } = await openClients(`/clients?id=${ann}`);
    const details = dialog(page, "Ann Archer");
    await details.getByRole("button", { name: "Edit Measurements" }).click();
    const pdDistance = details.getByLabel("PD Distance");
    const pdNear = details.getByLabel("PD Near");
    await expect(pdDistance.inputValue()).resolves.toBe("62");
    await expect(pdDistance.getAttribute("inputmode")).resolves.toBe("decimal");
    await expect(pdNear.inputValue()).resolves.toBe("");

    await pdDistance.fill("abc");
    await details.getByRole("button", { name: "Save Measurements" }).click();
    await details.getByText(/Enter a pupillary distance/).waitFor();

    // A 400 from the server lands under the field it names.
    await page.route(`**/api/clients/${ann}/measurements`, (route) =>
      route.fulfill({
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({ message: "Invalid input", errors: { pdNear: "Too far apart" } }),
      }), { times: 1 });
    await pdDistance.fill("62.5");
    await pdNear.fill("60");
    await details.getByRole("button", { name: "Save Measurements" }).click();
    await details.getByText("Too far apart").waitFor();
    await toastSays(page, "Failed to update measurements");

    await details.getByLabel("Mark measurements as complete").check();
    await details.getByRole("button", { name: "Save Measurements" }).click();
    await toastSays(page, "Client measurements updated successfully");
    const section = details.locator("section", {
      has: page.getByRole("heading", { name: "Baseline Measurements" }),
    });
    await section.locator(".badge-success", { hasText: "Complete" }).waitFor();
    // The badge follows the refreshed client while the form may still say Saving...; the
    // saved values show only once the form has closed.
    await section.getByRole("button", { name: "Edit Measurements" }).waitFor();
    await expect(section.textContent()).resolves.toContain("62.5 mm");
    await expect(section.textContent()).resolves.toContain("60 mm");

    const row = await app.db.selectFrom("clientMeasurements").selectAll()
      .where("clientId", "=", ann).executeTakeFirstOrThrow();
    expect(Number(row.pdBinocular)).toBe(62.5);
    expect(Number(row.pdNear)).toBe(60);
    expect(row.measurementsComplete).toBe(true);
    // The quote waiting on measurements moved on, and the dialog says so.
    await section.page().locator(".client-quote-row .badge-default", { hasText: "Active" })
      .waitFor();
    const saved = await app.db.selectFrom("quotes").select("status").where("id", "=", quote.id)
      .executeTakeFirstOrThrow();
    expect(saved.status).toBe("ACTIVE");

    await page.keyboard.press("Escape");
    await card(page, "Ann Archer").locator(".badge").waitFor({ state: "detached" });
    await page.context().close();
  });
});

describe("client management: add, edit, delete, new quote", () => {
  it("adds a client with heard-how Other and consents, then lands on the new quote", async () => {
    const { page } = await openClients();
    await page.getByRole("button", { name: "Add New Client" }).click();
    const add = dialog(page, "Add New Client");
    await add.getByRole("heading", { name: "Personal Information" }).waitFor();
    await expect(add.getByText(SMS_TEXT).isVisible()).resolves.toBe(true);
    await expect(add.getByText(EMAIL_TEXT).isVisible()).resolves.toBe(true);
    await expect(
      add.getByLabel("How did you hear about us?").locator("option").allTextContents(),
    ).resolves.toEqual(["Select an option", "Google", "Other"]);

    // Escape keeps a half-typed client for later; Cancel discards it.
    await add.getByLabel("First Name").fill("Draft");
    await page.keyboard.press("Escape");
    await add.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Add New Client" }).click();
    await expect(add.getByLabel("First Name").inputValue()).resolves.toBe("Draft");
    await add.getByRole("button", { name: "Cancel" }).click();
    await add.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Add New Client" }).click();
    await expect(add.getByLabel("First Name").inputValue()).resolves.toBe("");

    await add.getByRole("button", { name: "Add Client" }).click();
    await add.getByText("First name is required").waitFor();
    await expect(add.getByText("Last name is required").isVisible()).resolves.toBe(true);

    await add.getByLabel("First Name").fill("Dana");
    await add.getByLabel("Last Name").fill("Diaz");
    await add.getByLabel("Email", { exact: true }).fill("dana@example.com");
    await add.getByLabel("Mobile Phone").fill("555-123-4567");
    await add.getByLabel("How did you hear about us?").selectOption("other");
    await add.getByLabel("Please specify").fill("Saw the sign");
    await add.getByRole("checkbox", { name: /^Text messages/ }).check();
    await add.getByRole("checkbox", { name: /^Email/ }).check();
    await shoot(page, "clients-add-filled-desktop");
    await add.getByRole("button", { name: "Add Client" }).click();
    await toastSays(page, "Client created successfully!");
    await page.waitForURL(/\/quote\/[0-9a-f-]{36}$/);
    const quoteId = new URL(page.url()).pathname.split("/").pop()!;

    const client = await app.db.selectFrom("clients").selectAll()
      .where("firstName", "=", "Dana").executeTakeFirstOrThrow();
    expect(client).toMatchObject({
      lastName: "Diaz",
      email: "dana@example.com",
      mobilePhone: "555-123-4567",
      heardHowId: null,
      heardHowText: "Saw the sign",
      smsConsent: true,
      emailConsent: true,
    });
    const quote = await app.db.selectFrom("quotes").select(["clientId", "status"])
      .where("id", "=", quoteId).executeTakeFirstOrThrow();
    expect(quote).toEqual({ clientId: client.id, status: "DRAFT" });
    const consents = await app.db.selectFrom("consentRecords")
      .select(["consentType", "statement", "target", "consentGiven"])
      .where("clientId", "=", client.id).orderBy("consentType").execute();
    expect(consents).toEqual([
      {
        consentType: "EMAIL",
        statement: EMAIL_TEXT,
        target: "dana@example.com",
        consentGiven: true,
      },
      { consentType: "SMS", statement: SMS_TEXT, target: "555-123-4567", consentGiven: true },
    ]);
    await page.context().close();
  });

  it("edits a client's fields (no heard-how or consent in the form)", async () => {
    const { bob } = await insertTrio();
    const { page, problems } = await openClients();
    await card(page, "Bob Baker").getByRole("button", { name: "Edit Bob Baker" }).click();
    const edit = dialog(page, "Edit Client");
    await expect(edit.getByLabel("First Name").inputValue()).resolves.toBe("Bob");
    await expect(edit.getByLabel("Home Phone").inputValue()).resolves.toBe("555-777-1234");
    await expectCount(edit.getByText("How did you hear about us?"), 0);
    await expectCount(edit.getByText("Communication Preferences"), 0);
    await shoot(page, "clients-edit-desktop");

    await edit.getByLabel("First Name").fill("");
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await edit.getByText("First name is required").waitFor();
    await edit.getByLabel("First Name").fill("Robert");
    await expectCount(edit.getByText("First name is required"), 0);
    await edit.getByLabel("Email").fill("robert@example.com");
    await edit.getByLabel("City").fill("Shelbyville");
    await edit.getByLabel("State").selectOption("IL");
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await toastSays(page, "Client updated successfully!");
    await edit.waitFor({ state: "hidden" });
    await expectNames(page, ["Ann Archer", "Robert Baker", "Cara Cole"]);
    await expect(card(page, "Robert Baker").textContent()).resolves.toContain(
      "robert@example.com",
    );

    const row = await app.db.selectFrom("clients").selectAll().where("id", "=", bob)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      firstName: "Robert",
      email: "robert@example.com",
      city: "Shelbyville",
      state: "IL",
      homePhone: "555-777-1234",
    });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("deletes a client after an exact confirmation, with its quotes", async () => {
    const { cara } = await insertTrio();
    await insertQuote(cara, "ACTIVE");
    const { page, problems } = await openClients();
    const del = () =>
      card(page, "Cara Cole").getByRole("button", { name: "Delete Cara Cole" }).click();

    await del();
    const confirm = dialog(page, "Delete Client");
    await expect(confirm.locator(".dialog-description").textContent()).resolves.toBe(
      "Are you sure you want to delete Cara Cole? This action cannot be undone. " +
        "This will also delete all associated quotes and measurements.",
    );
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "hidden" });
    await expectNames(page, ["Ann Archer", "Bob Baker", "Cara Cole"]);

    await del();
    await confirm.getByRole("button", { name: "Delete", exact: true }).click();
    await toastSays(page, "Client deleted successfully");
    await expectNames(page, ["Ann Archer", "Bob Baker"]);
    await expect(
      app.db.selectFrom("clients").select("id").where("id", "=", cara).executeTakeFirst(),
    ).resolves.toBeUndefined();
    const quotes = await app.db.selectFrom("quotes").select(sql<number>`count(*)::int`.as("n"))
      .where("clientId", "=", cara).executeTakeFirstOrThrow();
    expect(quotes.n).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("a failed delete says Failed to delete client and keeps the card", async () => {
    await insertTrio();
    const { page } = await openClients();
    await page.route(
      "**/api/clients/*",
      (route) =>
        route.request().method() === "DELETE"
          ? route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"x"}' })
          : route.continue(),
    );
    await card(page, "Ann Archer").getByRole("button", { name: "Delete Ann Archer" }).click();
    await dialog(page, "Delete Client").getByRole("button", { name: "Delete", exact: true })
      .click();
    await toastSays(page, "Failed to delete client");
    await expectCount(cards(page), 3);
    await page.context().close();
  });

  it("New Quote on a card creates a quote and opens it", async () => {
    const { bob } = await insertTrio();
    const { page } = await openClients();
    await card(page, "Bob Baker").getByRole("button", { name: "New Quote for Bob Baker" }).click();
    await toastSays(page, "New quote created successfully");
    await page.waitForURL(/\/quote\/[0-9a-f-]{36}$/);
    const quoteId = new URL(page.url()).pathname.split("/").pop()!;
    const quote = await app.db.selectFrom("quotes").select(["clientId", "status"])
      .where("id", "=", quoteId).executeTakeFirstOrThrow();
    expect(quote).toEqual({ clientId: bob, status: "DRAFT" });
    await page.context().close();
  });

  it("New Quote in the details dialog opens the new quote; a failure says so", async () => {
    const { cara } = await insertTrio();
    const { page } = await openClients(`/clients?id=${cara}`);
    const details = dialog(page, "Cara Cole");
    await page.route(
      "**/api/quotes",
      (route) =>
        route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"x"}' }),
      {
        times: 1,
      },
    );
    await details.getByRole("button", { name: "New Quote" }).click();
    await toastSays(page, "Failed to create quote");
    await details.getByRole("button", { name: "New Quote" }).click();
    await toastSays(page, "New quote created successfully");
    await page.waitForURL(/\/quote\/[0-9a-f-]{36}$/);
    const quoteId = new URL(page.url()).pathname.split("/").pop()!;
    const quote = await app.db.selectFrom("quotes").select("clientId").where("id", "=", quoteId)
      .executeTakeFirstOrThrow();
    expect(quote.clientId).toBe(cara);
    await page.context().close();
  });
});
