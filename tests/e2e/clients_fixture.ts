// Client management in a browser: the app and one Chromium, consent texts, a heard-how
// option and a signed-in optician, an empty client book before every test, and the
// helpers that write clients and read the list.
import { beforeEach } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import { DESKTOP, openSignedIn, screenshotPath } from "../helpers/browser.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import { useBrowserApp } from "../helpers/suite.ts";

export let app: TestApp, browser: Browser, staff: TestUser;
export let google: { id: string; label: string };

export const SMS_TEXT = "Lensdesk Optical may text me about my glasses. Reply STOP to opt out.";

export const EMAIL_TEXT = "Lensdesk Optical may email me about my glasses.";

// ---------------------------------------------------------------------------
// Fixtures, written straight to the database

export interface ClientInit {
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

export async function insertClient(init: ClientInit): Promise<string> {
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

export async function insertQuote(clientId: string, status: QuoteStatus, createdAt = new Date()) {
  return await app.db.insertInto("quotes").values({
    clientId,
    status,
    createdAt,
    closureReason: status === "CLOSED" ? "Client went elsewhere" : null,
  }).returning(["id", "quoteNumber"]).executeTakeFirstOrThrow();
}

/** Three clients, one per measurement state, newest first: Ann, Bob, Cara. */
export async function insertTrio() {
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
export async function openClients(path = "/clients", viewport = DESKTOP, timezoneId?: string) {
  const cookie = await sessionCookieFor(app.db, staff.id);
  const opened = await openSignedIn(browser, app.baseUrl, cookie, viewport, { timezoneId });
  await opened.page.goto(path);
  await opened.page.waitForSelector("html[data-hydrated=true]");
  return opened;
}

export const cards = (page: Page) => page.locator(".client-card");

export const card = (page: Page, name: string) =>
  cards(page).filter({ has: page.getByRole("button", { name, exact: true }) });

export async function cardNames(page: Page): Promise<string[]> {
  return await page.locator(".client-card-open").allTextContents();
}

/** Waits until the list shows exactly these names, in this order. */
export async function expectNames(page: Page, names: string[]) {
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

export const dialog = (page: Page, title: string) =>
  page.getByRole("dialog").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

export async function toastSays(page: Page, text: string) {
  await page.locator(".toast-region").getByText(text, { exact: true }).waitFor();
}

export async function horizontalOverflow(page: Page): Promise<number> {
  return await page.evaluate(() => document.documentElement.scrollWidth - globalThis.innerWidth);
}

export async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (!path) return;
  // Let button colour transitions finish so the picture shows the settled state.
  await page.waitForTimeout(200);
  await page.screenshot({ path, fullPage: false });
}

// ---------------------------------------------------------------------------

/** Starts the app for the calling test file (before its tests, closed after them). */
export function useClientsApp(): void {
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
}
