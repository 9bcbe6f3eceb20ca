import { beforeEach, describe, it } from "node:test";
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
  TABLET_PORTRAIT,
} from "../helpers/browser.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, staff: TestUser;
let google: { id: string; label: string };

const SMS_TEXT = "Lensdesk Optical may text me about my glasses. Reply STOP to opt out.";
const EMAIL_TEXT = "Lensdesk Optical may email me about my glasses.";

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  await app.db.updateTable("settings")
    .set({ smsConsentText: SMS_TEXT, emailConsentText: EMAIL_TEXT })
    .where("id", "=", 1).execute();
  google = await app.db.insertInto("heardHowOptions").values({ label: "Google", sortOrder: 1 })
    .returning(["id", "label"]).executeTakeFirstOrThrow();
  staff = await createTestUser(app.db, { username: "maria", firstName: "Maria" });
});
// Every test starts from an empty client book and adds what it needs.
beforeEach(async () => {
  await app.db.deleteFrom("clients").execute();
});

// ---------------------------------------------------------------------------
// Fixtures, written straight to the database

interface ClientInit {
  firstName: string;
  lastName: string;
  email?: string | null;
  mobilePhone?: string | null;
  homePhone?: string | null;
  address1?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  dob?: string | null;
  smsConsent?: boolean;
  emailConsent?: boolean;
  consentDate?: Date | null;
  createdAt?: Date;
  /** Omitted: no measurements row at all. */
  measurements?: { pdBinocular: string; pdNear: string; measurementsComplete: boolean };
}

async function insertClient(init: ClientInit): Promise<string> {
  const { measurements, ...fields } = init;
  const row = await app.db.insertInto("clients").values({
    ...fields,
    createdAt: init.createdAt ?? new Date(),
  }).returning("id").executeTakeFirstOrThrow();
  if (measurements) {
    await app.db.insertInto("clientMeasurements").values({ clientId: row.id, ...measurements })
      .execute();
  }
  return row.id;
}

async function insertQuote(clientId: string, status: QuoteStatus, createdAt = new Date()) {
  return await app.db.insertInto("quotes").values({
    clientId,
    status,
    createdAt,
    closureReason: status === "CLOSED" ? "Client went elsewhere" : null,
  }).returning(["id", "quoteNumber"]).executeTakeFirstOrThrow();
}

/** Three clients, one per measurement state, newest first: Ann, Bob, Cara. */
async function insertTrio() {
  const now = Date.now();
  const ann = await insertClient({
    firstName: "Ann",
    lastName: "Archer",
    email: "ann.archer@example.com",
    mobilePhone: "(555) 010-2030",
    address1: "12 Main St",
    city: "Springfield",
    state: "IL",
    zip: "62701",
    createdAt: new Date(now - 1_000),
    measurements: { pdBinocular: "62", pdNear: "0", measurementsComplete: false },
  });
  const bob = await insertClient({
    firstName: "Bob",
    lastName: "Baker",
    email: "bob@example.com",
    homePhone: "555-777-1234",
    createdAt: new Date(now - 2_000),
  });
  const cara = await insertClient({
    firstName: "Cara",
    lastName: "Cole",
    email: "cara@example.com",
    mobilePhone: "555-888-9999",
    createdAt: new Date(now - 3_000),
    measurements: { pdBinocular: "63.5", pdNear: "60", measurementsComplete: true },
  });
  return { ann, bob, cara };
}

// ---------------------------------------------------------------------------
// Browser helpers

/** A signed-in page that records page errors, console errors and API calls. */
async function openClients(path = "/clients", viewport = DESKTOP, timezoneId?: string) {
  const cookie = await sessionCookieFor(app.db, staff.id);
  const opened = await openSignedIn(browser, app.baseUrl, cookie, viewport, { timezoneId });
  await opened.page.goto(path);
  await opened.page.waitForSelector("html[data-hydrated=true]");
  return opened;
}

const cards = (page: Page) => page.locator(".client-card");
const card = (page: Page, name: string) =>
  cards(page).filter({ has: page.getByRole("button", { name, exact: true }) });

async function cardNames(page: Page): Promise<string[]> {
  return await page.locator(".client-card-open").allTextContents();
}

/** Waits until the list shows exactly these names, in this order. */
async function expectNames(page: Page, names: string[]) {
  await page.waitForFunction(
    (expected) =>
      JSON.stringify(
        Array.from(document.querySelectorAll(".client-card-open"), (el) => el.textContent),
      ) === JSON.stringify(expected),
    names,
    { timeout: 5000 },
  ).catch(() => {});
  expect(await cardNames(page)).toEqual(names);
}

const dialog = (page: Page, title: string) =>
  page.getByRole("dialog").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

async function toastSays(page: Page, text: string) {
  await page.locator(".toast-region").getByText(text, { exact: true }).waitFor();
}

async function horizontalOverflow(page: Page): Promise<number> {
  return await page.evaluate(() => document.documentElement.scrollWidth - globalThis.innerWidth);
}

async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (!path) return;
  // Let button colour transitions finish so the picture shows the settled state.
  await page.waitForTimeout(200);
  await page.screenshot({ path, fullPage: false });
}

// ---------------------------------------------------------------------------

describe("client management: list, search and filter", () => {
  it("shows the empty states for an empty book, a search and the filter", async () => {
    const { page, problems } = await openClients();
    await expect(page.getByRole("heading", { name: "Client Management", level: 1 }).isVisible())
      .resolves.toBe(true);
    await page.getByText("No clients yet. Add your first client to get started.").waitFor();

    await page.getByRole("searchbox").fill("nobody");
    await page.getByText("No clients found matching your search.").waitFor();
    await page.getByRole("searchbox").fill("");
    await page.getByText("No clients yet. Add your first client to get started.").waitFor();

    await page.getByRole("button", { name: "Missing Measurements" }).click();
    await page.getByText("No clients found matching your search.").waitFor();
    await shoot(page, "clients-empty-filter-desktop");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("renders the first page on the server and shows each client's card", async () => {
    const { ann, bob } = await insertTrio();
    const { page, problems, apiCalls } = await openClients();
    // The first page came with the HTML: the island made no call to show it.
    expect(apiCalls).toEqual([]);
    await expectNames(page, ["Ann Archer", "Bob Baker", "Cara Cole"]);

    const annCard = card(page, "Ann Archer");
    await expect(annCard.textContent()).resolves.toContain("ann.archer@example.com");
    await expect(annCard.textContent()).resolves.toContain("(555) 010-2030");
    await expect(annCard.textContent()).resolves.toContain("12 Main St, Springfield, IL 62701");
    const created = new Date().toLocaleDateString("en-US", {
      month: "short",
      day: "numeric",
      year: "numeric",
    });
    await expect(annCard.textContent()).resolves.toContain(created);
    await expect(annCard.locator(".badge").allTextContents()).resolves.toEqual([
      "Measurements Pending",
    ]);
    await expectCount(annCard.locator(".badge.badge-warning"), 1);
    await expect(card(page, "Bob Baker").locator(".badge.badge-secondary").textContent())
      .resolves.toBe("No Measurements");
    await expectCount(card(page, "Cara Cole").locator(".badge"), 0);
    // Actions carry the client's name for screen readers.
    await expect(annCard.getByRole("button", { name: "Edit Ann Archer" }).isVisible()).resolves
      .toBe(true);
    expect(ann).not.toBe(bob);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("searches by name, e-mail and phone digits, debounced, and clears back to the list", async () => {
    await insertTrio();
    const { page, problems, apiCalls } = await openClients();
    const search = page.getByRole("searchbox", { name: "Search clients by name, email or phone" });

    await search.pressSequentially("arch", { delay: 40 });
    await expectNames(page, ["Ann Archer"]);
    // One call for the whole word: typing is debounced.
    expect(apiCalls.filter((c) => c.startsWith("GET /api/clients/search"))).toEqual([
      "GET /api/clients/search?q=arch&limit=50&offset=0",
    ]);

    await search.fill("5550102");
    await expectNames(page, ["Ann Archer"]);
    await search.fill("777 1234");
    await expectNames(page, ["Bob Baker"]);
    await search.fill("BOB@EXAMPLE");
    await expectNames(page, ["Bob Baker"]);
    await search.fill("example.com");
    await expectNames(page, ["Ann Archer", "Bob Baker", "Cara Cole"]);

    await search.fill("");
    await expectNames(page, ["Ann Archer", "Bob Baker", "Cara Cole"]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("filters to missing measurements, keeps ?filter=missing in the URL, and clears it", async () => {
    await insertTrio();
    const { page, problems } = await openClients();
    const filter = page.getByRole("button", { name: "Missing Measurements" });
    await expect(filter.getAttribute("aria-pressed")).resolves.toBe("false");
    await expectCount(page.getByRole("button", { name: "Clear Filter" }), 0);

    await filter.click();
    await expectNames(page, ["Ann Archer", "Bob Baker"]);
    expect(new URL(page.url()).search).toBe("?filter=missing");
    await expect(filter.getAttribute("aria-pressed")).resolves.toBe("true");

    await page.getByRole("button", { name: "Clear Filter" }).click();
    await expectNames(page, ["Ann Archer", "Bob Baker", "Cara Cole"]);
    expect(new URL(page.url()).search).toBe("");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("honours ?filter=missing on load, with the filtered page rendered by the server", async () => {
    await insertTrio();
    const { page, problems, apiCalls } = await openClients("/clients?filter=missing");
    expect(apiCalls).toEqual([]);
    await expectNames(page, ["Ann Archer", "Bob Baker"]);
    await expect(
      page.getByRole("button", { name: "Missing Measurements" }).getAttribute("aria-pressed"),
    ).resolves.toBe("true");
    await page.getByRole("button", { name: "Clear Filter" }).click();
    await expectNames(page, ["Ann Archer", "Bob Baker", "Cara Cole"]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("shows dates in the browser's time zone without a hydration mismatch", async () => {
    // 23:30 UTC on 1 March is already 2 March in Auckland.
    await insertClient({
      firstName: "Zed",
      lastName: "Zone",
      createdAt: new Date("2025-03-01T23:30:00Z"),
    });
    const { page, problems } = await openClients("/clients", DESKTOP, "Pacific/Auckland");
    await expect(card(page, "Zed Zone").locator("time").textContent()).resolves.toBe(
      "Mar 2, 2025",
    );
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("pages through more than 50 clients with Load more", async () => {
    const base = Date.now();
    await app.db.insertInto("clients").values(
      Array.from({ length: 57 }, (_, i) => ({
        firstName: "Client",
        lastName: `Number${String(i + 1).padStart(2, "0")}`,
        createdAt: new Date(base - i * 1000),
      })),
    ).execute();
    const { page, problems, apiCalls } = await openClients();
    await expectCount(cards(page), 50);
    await expect(page.getByRole("status").filter({ hasText: "Showing" }).textContent()).resolves
      .toBe("Showing 50+ clients");
    const loadMore = page.getByRole("button", { name: "Load more" });
    await loadMore.click();
    await page.waitForFunction(() => document.querySelectorAll(".client-card").length === 57);
    expect(apiCalls).toEqual(["GET /api/clients?limit=50&offset=50"]);
    await expectCount(loadMore, 0);
    const names = await cardNames(page);
    expect(names[0]).toBe("Client Number01");
    expect(names[56]).toBe("Client Number57");
    expect(new Set(names).size).toBe(57);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

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

describe("client management: layout", () => {
  for (const [label, viewport] of [["desktop", DESKTOP], ["tablet", TABLET_PORTRAIT]] as const) {
    it(`fits ${viewport.width}×${viewport.height} with list, details and edit dialogs`, async () => {
      const { ann } = await insertTrio();
      await insertQuote(ann, "DRAFT");
      await insertQuote(ann, "CLOSED", new Date(Date.now() - 3_600_000));
      const { page, problems } = await openClients("/clients", viewport);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await shoot(page, `clients-list-${label}`);

      await page.getByRole("button", { name: "Ann Archer", exact: true }).click();
      const details = dialog(page, "Ann Archer");
      await details.getByRole("heading", { name: "Quotes" }).waitFor();
      const box = await details.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
      await shoot(page, `clients-detail-${label}`);
      await details.getByRole("button", { name: "Edit Measurements" }).click();
      await shoot(page, `clients-measurements-${label}`);
      await page.keyboard.press("Escape");

      await card(page, "Ann Archer").getByRole("button", { name: "Edit Ann Archer" }).click();
      await dialog(page, "Edit Client").getByLabel("First Name").waitFor();
      await shoot(page, `clients-edit-${label}`);
      await page.keyboard.press("Escape");

      await page.getByRole("button", { name: "Add New Client" }).click();
      await dialog(page, "Add New Client").getByLabel("First Name").waitFor();
      await shoot(page, `clients-add-${label}`);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});
