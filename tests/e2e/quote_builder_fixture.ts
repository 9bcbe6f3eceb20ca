// The quote builder in a browser: the app and one Chromium, a signed-in optician and the
// default catalog, and the helpers that make quotes, open the builder and read it.
import type { Browser, Page } from "playwright-core";
import { sql } from "kysely";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import { DESKTOP, openSignedIn, screenshotPath } from "../helpers/browser.ts";
import { ensureDefaultCatalog } from "../../src/catalog/default_catalog.ts";
import { insertDraftQuote } from "../../src/quotes/quotes.ts";
import { findFirstStore } from "../../src/stores/stores.ts";
import { useBrowserApp } from "../helpers/suite.ts";

export let app: TestApp, browser: Browser, staff: TestUser;

// ---------------------------------------------------------------------------
// Fixtures, written straight to the database

/** A client; `complete` undefined means no measurements recorded at all. */
export async function insertClient(
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
export async function newQuote(clientId: string) {
  return await insertDraftQuote(app.db, clientId, staff.id, (await findFirstStore(app.db)).id);
}

/** A quote already saved once: optician set, one option with a frame. */
export async function savedQuote(clientId: string, sku = "RB5154") {
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

export const quoteRow = (id: string) =>
  app.db.selectFrom("quotes").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

export async function optionRows(quoteId: string) {
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

export interface Opened {
  page: Page;
  problems: string[];
}

export async function openBuilder(
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

export async function shot(page: Page, name: string, fullPage = true) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage });
}

/** The toast on screen (one at a time): waits for one containing `text`. */
export async function expectToast(page: Page, text: string) {
  const toast = page.locator(".toast", { hasText: text });
  await toast.waitFor();
  return toast;
}

export async function dismissToast(page: Page) {
  const close = page.getByRole("button", { name: "Dismiss notification" });
  if (await close.count()) await close.click();
}

export function summaryLine(page: Page, label: string) {
  return page.getByTestId("quote-summary").locator("div", {
    has: page.locator("dt").getByText(label, { exact: true }),
  }).locator("dd");
}

/** An open dialog by its title. */
export const dialogNamed = (page: Page, title: string) =>
  page.getByRole("dialog").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

export const tab = (page: Page, name: string) => page.getByRole("tab", { name });

/** The option tabs only (the builder also has Quote/History view tabs). */
export const optionTabs = (page: Page) =>
  page.getByRole("tablist", { name: "Quote options" }).getByRole("tab");

/** Counts the builder's full saves (PUT /api/quotes/{id}). */
export function countSaves(page: Page) {
  const counter = { n: 0 };
  page.on("request", (req) => {
    if (req.method() === "PUT" && /\/api\/quotes\/[^/]+$/.test(new URL(req.url()).pathname)) {
      counter.n++;
    }
  });
  return counter;
}

/** Starts the app for the calling test file (before its tests, closed after them). */
export function useQuoteBuilderApp(): void {
  useBrowserApp(async (started) => {
    ({ app, browser } = started);
    await ensureDefaultCatalog(app.db);
    staff = await createTestUser(app.db, { username: "dana", firstName: "Dana" });
  });
}
