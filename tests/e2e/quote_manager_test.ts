import { beforeEach, describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import type { Browser, Page } from "playwright-core";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import { DESKTOP, openSignedIn, screenshotPath, TABLET_PORTRAIT } from "../helpers/browser.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, staff: TestUser;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  staff = await createTestUser(app.db, { username: "quinn_qm", firstName: "Quinn" });
});
// Every test starts from an empty client book (quotes go with their clients).
beforeEach(async () => {
  await app.db.deleteFrom("clients").execute();
});

const DAY = 24 * 60 * 60 * 1000;

async function insertClient(firstName: string, lastName: string, email: string | null = null) {
  const row = await app.db.insertInto("clients").values({ firstName, lastName, email })
    .returning("id").executeTakeFirstOrThrow();
  return row.id;
}

async function insertQuote(
  clientId: string,
  status: QuoteStatus,
  init: { optician?: string; expiresInDays?: number | null; ageMs?: number } = {},
) {
  const days = init.expiresInDays;
  return await app.db.insertInto("quotes").values({
    clientId,
    status,
    opticianName: init.optician ?? "Dr. Lee",
    expiresAt: days === undefined || days === null ? null : new Date(Date.now() + days * DAY),
    createdAt: new Date(Date.now() - (init.ageMs ?? 0)),
    closureReason: status === "CLOSED" ? "Went elsewhere" : null,
  }).returning(["id", "quoteNumber"]).executeTakeFirstOrThrow();
}

/** Four quotes, newest first: active (far expiry), finalized (soon), draft (expired), closed (none). */
async function insertFixtures() {
  const ann = await insertClient("Ann", "Archer", "ann@example.com");
  const bob = await insertClient("Bob", "Baker");
  const cara = await insertClient("Cara", "Cole");
  const dan = await insertClient("Dan", "Dunn");
  const active = await insertQuote(ann, "ACTIVE", { expiresInDays: 25, ageMs: 1_000 });
  const soon = await insertQuote(bob, "FINALIZED", {
    expiresInDays: 3,
    optician: "Sam Ortiz",
    ageMs: 2_000,
  });
  const expired = await insertQuote(cara, "DRAFT", { expiresInDays: -2, ageMs: 3_000 });
  const closed = await insertQuote(dan, "CLOSED", { expiresInDays: null, ageMs: 4_000 });
  return { ann, bob, cara, dan, active, soon, expired, closed };
}

async function openQuotes(path = "/quotes", viewport = DESKTOP) {
  const cookie = await sessionCookieFor(app.db, staff.id);
  const { page, problems } = await openSignedIn(browser, app.baseUrl, cookie, viewport);
  await page.goto(path);
  await page.waitForSelector("html[data-hydrated=true]");
  return { page, problems };
}

const rows = (page: Page) => page.locator(".quote-table tbody tr");
const row = (page: Page, quoteNumber: string) =>
  rows(page).filter({ has: page.getByRole("link", { name: quoteNumber, exact: true }) });
const heading = (page: Page) => page.getByRole("heading", { level: 1 });
/** Opens a row's menu of its less common actions (Print External, Close, Delete) and gives it. */
async function openRowMenu(page: Page, quoteNumber: string) {
  await row(page, quoteNumber).locator("details.row-menu > summary").click();
  const menu = page.getByRole("menu", { name: `More actions for quote ${quoteNumber}` });
  await menu.waitFor();
  return menu;
}
/** Closes an open row menu as a keyboard user does. */
const closeRowMenu = (page: Page) => page.keyboard.press("Escape");

async function shot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage: true });
}

async function withMail(on: boolean) {
  await app.db.updateTable("settings").set({
    smtpHost: on ? "smtp.example.com" : null,
    smtpFromEmail: on ? "shop@example.com" : null,
    smtpUser: null,
  }).where("id", "=", 1).execute();
}

describe("quote management", () => {
  it("lists the quotes with the count, links, badges and expiry colours", async () => {
    const f = await insertFixtures();
    const { page, problems } = await openQuotes();
    await expect(heading(page).textContent()).resolves.toBe("Quote Management (4)");
    expect(await rows(page).count()).toBe(4);
    const headers = await page.locator(".quote-table thead th").allTextContents();
    expect(headers).toEqual([
      "Quote #",
      "Client",
      "Optician",
      "Status",
      "Created",
      "Expires",
      "Actions",
    ]);

    const first = row(page, f.active.quoteNumber);
    await expect(first.getByRole("link", { name: f.active.quoteNumber }).getAttribute("href"))
      .resolves.toBe(`/quote/${f.active.id}`);
    await expect(first.getByRole("link", { name: "Ann Archer" }).getAttribute("href"))
      .resolves.toBe(`/clients?id=${f.ann}`);
    await expect(first.locator(".badge").textContent()).resolves.toBe("Active");
    const firstMenu = await openRowMenu(page, f.active.quoteNumber);
    await expect(firstMenu.getByRole("menuitem", { name: "Print External" }).getAttribute("href"))
      .resolves.toBe(`/print/${f.active.id}?external=true`);
    await closeRowMenu(page);
    await expect(first.getByRole("link", { name: "Print", exact: true }).getAttribute("target"))
      .resolves.toBe("_blank");
    await expect(row(page, f.soon.quoteNumber).locator(".badge").getAttribute("class"))
      .resolves.toContain("badge-success");

    await expect(first.locator(".expiry").getAttribute("class")).resolves.toContain(
      "expiry-normal",
    );
    await expect(row(page, f.soon.quoteNumber).locator(".expiry").getAttribute("class"))
      .resolves.toContain("expiry-soon");
    await expect(row(page, f.expired.quoteNumber).locator(".expiry").getAttribute("class"))
      .resolves.toContain("expiry-past");
    await expect(row(page, f.closed.quoteNumber).locator(".expiry").textContent())
      .resolves.toBe("—");
    // A closed quote cannot be closed again.
    const closedMenu = await openRowMenu(page, f.closed.quoteNumber);
    expect(await closedMenu.getByRole("menuitem", { name: "Close" }).count()).toBe(0);
    await closeRowMenu(page);
    const activeMenu = await openRowMenu(page, f.active.quoteNumber);
    expect(await activeMenu.getByRole("menuitem", { name: "Close" }).count()).toBe(1);
    await closeRowMenu(page);
    await shot(page, "quotes-desktop");

    // The page itself never scrolls sideways on a portrait tablet.
    await page.setViewportSize(TABLET_PORTRAIT);
    const overflow = await page.evaluate(() =>
      document.documentElement.scrollWidth - document.documentElement.clientWidth
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, "quotes-tablet");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("searches by quote number and by client name, keeping the URL in step", async () => {
    const f = await insertFixtures();
    const { page, problems } = await openQuotes();
    const search = page.getByRole("searchbox");
    await search.fill(f.soon.quoteNumber);
    await expect(
      page.waitForFunction(() => document.querySelectorAll(".quote-table tbody tr").length === 1),
    ).resolves.toBeTruthy();
    expect(await row(page, f.soon.quoteNumber).count()).toBe(1);
    await expect(heading(page).textContent()).resolves.toBe("Quote Management (1)");
    expect(new URL(page.url()).searchParams.get("q")).toBe(f.soon.quoteNumber);

    await search.fill("cara cole");
    await page.waitForFunction(() =>
      document.querySelector(".quote-table tbody tr")?.textContent?.includes("Cara Cole") &&
      document.querySelectorAll(".quote-table tbody tr").length === 1
    );
    expect(new URL(page.url()).searchParams.get("q")).toBe("cara cole");

    await search.fill("nobody at all");
    await page.getByText("No quotes found matching your criteria.").waitFor();
    await expect(heading(page).textContent()).resolves.toBe("Quote Management (0)");
    await shot(page, "quotes-empty");

    // A reload honours the search in the URL.
    await page.goto("/quotes?q=archer");
    await page.waitForSelector("html[data-hydrated=true]");
    expect(await rows(page).count()).toBe(1);
    await expect(page.getByRole("searchbox").inputValue()).resolves.toBe("archer");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("shows a search found in more quotes than it counted as a floor, and loads on while pages are full", async () => {
    const f = await insertFixtures();
    // 2,500 more of Dr. Lee's quotes, older than the fixtures: the search
    // fills its page from the list's head and stops counting.
    await sql`insert into quotes (client_id, optician_name, status, created_at)
      select ${f.ann}, 'Dr. Lee', 'DRAFT', now() - make_interval(days => g)
      from generate_series(1, 2500) g`.execute(app.db);
    const { page, problems } = await openQuotes("/quotes?q=dr.%20lee");
    await expect(heading(page).textContent()).resolves.toMatch(/^Quote Management \(\d+\+\)$/);
    await page.getByText(/^Showing 100 of \d+\+$/).waitFor();
    await shot(page, "quotes-search-floor");
    await page.getByRole("button", { name: "Load more" }).click();
    // The second page reads a longer head (20 rows per row it needs), here
    // the whole list: its count is exact.
    await page.getByText("Showing 200 of 2503", { exact: true }).waitFor();
    // A rare word among them is counted exactly.
    await page.getByRole("searchbox").fill("bob baker");
    await page.waitForFunction(() =>
      document.querySelector("h1")?.textContent === "Quote Management (1)"
    );
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("filters by status and honours ?filter=expired on load", async () => {
    const f = await insertFixtures();
    const { page, problems } = await openQuotes("/quotes?filter=expired");
    expect(await rows(page).count()).toBe(1);
    expect(await row(page, f.expired.quoteNumber).count()).toBe(1);
    const select = page.getByRole("combobox", { name: "Filter by status" });
    await expect(select.inputValue()).resolves.toBe("expired");

    await select.selectOption({ label: "Finalized" });
    await page.waitForFunction(() =>
      document.querySelector(".quote-table tbody tr .badge")?.textContent === "Finalized"
    );
    expect(await rows(page).count()).toBe(1);
    const url = new URL(page.url());
    expect(url.searchParams.get("status")).toBe("FINALIZED");
    expect(url.searchParams.get("filter")).toBeNull();

    await select.selectOption({ label: "All statuses" });
    await page.waitForFunction(() =>
      document.querySelectorAll(".quote-table tbody tr").length === 4
    );
    expect(new URL(page.url()).search).toBe("");

    await page.goto("/quotes?status=CLOSED");
    await page.waitForSelector("html[data-hydrated=true]");
    expect(await rows(page).count()).toBe(1);
    expect(await row(page, f.closed.quoteNumber).count()).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("deletes a quote after confirming", async () => {
    const f = await insertFixtures();
    const { page, problems } = await openQuotes();
    await (await openRowMenu(page, f.expired.quoteNumber)).getByRole("menuitem", { name: "Delete" })
      .click();
    const dialog = page.getByRole("dialog", { name: "Delete Quote" });
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain("cannot be undone");
    await shot(page, "quotes-delete-dialog");
    await dialog.getByRole("button", { name: "Delete Quote" }).click();
    await page.getByText("Quote deleted successfully!").waitFor();
    await page.waitForFunction(() =>
      document.querySelectorAll(".quote-table tbody tr").length === 3
    );
    await expect(heading(page).textContent()).resolves.toBe("Quote Management (3)");
    const gone = await app.db.selectFrom("quotes").select("id").where("id", "=", f.expired.id)
      .executeTakeFirst();
    expect(gone).toBeUndefined();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("closes a quote with a reason", async () => {
    const f = await insertFixtures();
    const { page, problems } = await openQuotes();
    await (await openRowMenu(page, f.active.quoteNumber)).getByRole("menuitem", { name: "Close" })
      .click();
    const dialog = page.getByRole("dialog", { name: "Close Quote" });
    await dialog.waitFor();
    const confirm = dialog.getByRole("button", { name: "Close Quote" });
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel("Reason for closing").fill("Client decided to wait");
    await confirm.click();
    await page.getByText("Quote closed successfully!").waitFor();
    await page.waitForFunction(
      (n) =>
        [...document.querySelectorAll(".quote-table tbody tr")].find((r) =>
          r.textContent?.includes(n)
        )?.querySelector(".badge")?.textContent === "Closed",
      f.active.quoteNumber,
    );
    const menu = await openRowMenu(page, f.active.quoteNumber);
    expect(await menu.getByRole("menuitem", { name: "Close" }).count()).toBe(0);
    const saved = await app.db.selectFrom("quotes").select(["status", "closureReason"])
      .where("id", "=", f.active.id).executeTakeFirstOrThrow();
    expect(saved).toEqual({ status: "CLOSED", closureReason: "Client decided to wait" });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("turns the Email action off, with a reason, when e-mail isn't configured", async () => {
    const f = await insertFixtures();
    await withMail(false);
    const { page, problems } = await openQuotes();
    const email = row(page, f.active.quoteNumber).getByRole("button", { name: "Email" });
    await expect(email.isDisabled()).resolves.toBe(true);
    await expect(email.getAttribute("title")).resolves.toContain("Email is not configured");
    await page.context().close();

    // Configured: the dialog opens with the client's address filled in.
    await withMail(true);
    const second = await openQuotes();
    const enabled = row(second.page, f.active.quoteNumber).getByRole("button", { name: "Email" });
    await expect(enabled.isDisabled()).resolves.toBe(false);
    await enabled.click();
    const dialog = second.page.getByRole("dialog", { name: "Email Quote" });
    await dialog.waitFor();
    await expect(dialog.getByLabel("Client's email address").inputValue()).resolves.toBe(
      "ann@example.com",
    );
    await withMail(false);
    expect([...problems, ...second.problems]).toEqual([]);
    await second.page.context().close();
  });

  it("shows the empty text when there are no quotes", async () => {
    const { page, problems } = await openQuotes();
    await page.getByText("No quotes found matching your criteria.").waitFor();
    await expect(heading(page).textContent()).resolves.toBe("Quote Management (0)");
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
