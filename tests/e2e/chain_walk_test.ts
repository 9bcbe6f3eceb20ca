// The chain of stores in a real browser (issue: several stores, one install):
// a client registers on store A's intake page (its own address), is quoted
// and ordered at A, the glasses are sent to store B for pickup (the ready
// e-mail names B's address and hours and waits for B's opening), the deposit
// is taken at A and the balance at B, a staff member of both switching store
// in the staff bar. axe on each screen and dialog the chain adds.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Locator, Page } from "playwright-core";
import type { TestApp } from "../helpers/test_app.ts";
import { call, signedInUser } from "../helpers/test_app.ts";
import {
  openPage,
  openSignedIn,
  PHONE,
  screenshotPath,
  TABLET_PORTRAIT,
  visit,
} from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { mailSettingsFor, type SmtpServer } from "../helpers/smtp.ts";
import { PRESCRIPTION_BODY } from "../helpers/route_table/fixtures.ts";
import { deliverDue } from "../../src/mail/outbox.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";
import type { OrderBundle } from "../../src/orders/views.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp;
let browser: Browser;
let smtp: SmtpServer;
let owner: string;
let labId: string;
const stores = { uptown: "", downtown: "" };
// Friday 2026-11-27, 10:00 in Chicago (the chain), 11:00 in New York (Downtown).
let now = new Date("2026-11-27T16:00:00Z");

const UPTOWN = { code: "UPT", name: "Clearview Uptown", address: "1 Uptown Plaza, Chicago" };
const DOWNTOWN = {
  code: "DT",
  name: "Clearview Downtown",
  address: "9 Elm Street, Springfield",
  phone: "(555) 010-0199",
  // Open Monday to Saturday, 10:00-19:00 in New York (the chain: Mon-Fri 09:00-18:00, Chicago).
  openingDays: "1,2,3,4,5,6",
  openingTime: "10:00",
  closingTime: "19:00",
  timeZone: "America/New_York",
};

useBrowserApp(async (started) => {
  ({ app, browser, smtp } = started);
  ({ cookie: owner } = await signedInUser(app.db, { role: "OWNER" }));
  const settings = await call(app, "PUT", "/api/admin/settings", {
    cookie: owner,
    body: {
      ...mailSettingsFor(smtp, { fromEmail: "store@store.test" }),
      openingDays: [1, 2, 3, 4, 5],
      openingTime: "09:00",
      closingTime: "18:00",
      timeZone: "America/Chicago",
      storeName: "Clearview Optical",
    },
  });
  expect(settings.status).toBe(200);
  for (const [key, body] of [["uptown", UPTOWN], ["downtown", DOWNTOWN]] as const) {
    const made = await call<{ id: string }>(app, "POST", "/api/admin/stores", {
      cookie: owner,
      body,
    });
    expect(made.status).toBe(201);
    stores[key] = made.body.id;
  }
  const lab = await call<{ id: string }>(app, "POST", "/api/admin/labs", {
    cookie: owner,
    body: { name: "Hoya Vision Lab", email: "jobs@hoya.test", turnaroundDays: 4 },
  });
  expect(lab.status).toBe(201);
  labId = lab.body.id;
}, { clock: () => now, smtp: true });

async function axe(page: Page, what: string) {
  expect({ what, violations: await seriousA11yViolations(page) }).toEqual({
    what,
    violations: [],
  });
}

const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}\\*?$`));

/** Clicks a job's step and waits for its new status. */
async function takeStep(card: Locator, button: string, status: string) {
  await card.getByRole("button", { name: button, exact: true }).click();
  await card.getByTestId("job-status").filter({ hasText: status }).waitFor();
}

/** The staff bar's store picker: opens it, picks `name`, and waits for the page to come back. */
async function switchStore(page: Page, label: string, code: string) {
  await page.getByTestId("current-store").click();
  await page.getByRole("button", { name: label }).click();
  await page.getByTestId("current-store").filter({ hasText: code }).waitFor();
  await page.waitForSelector("html[data-hydrated=true]");
}

/** The client's draft quote, measured and with a prescription, made into a finalized one-option quote. */
async function quoteAtUptown(cookie: string, clientId: string, quoteId: string) {
  const measured = await call(app, "PUT", `/api/clients/${clientId}/measurements`, {
    cookie,
    body: { pdBinocular: "63", pdNear: "60", measurementsComplete: true },
  });
  expect(measured.status).toBe(200);
  const rx = await call(app, "POST", `/api/clients/${clientId}/prescriptions`, {
    cookie,
    body: PRESCRIPTION_BODY,
  });
  expect(rx.status).toBe(201);
  const bundle = (await call<QuoteBundle>(app, "GET", `/api/quotes/${quoteId}`, { cookie })).body;
  const saved = await call(app, "PUT", `/api/quotes/${quoteId}`, {
    cookie,
    body: {
      version: bundle.quote.version,
      opticianName: "Sam",
      internalNotes: "",
      options: [{
        id: bundle.options[0].id,
        label: "Everyday",
        isChosen: true,
        segOc: "18/18",
        items: [{ kind: "FRAME", name: "Ray-Ban", sku: "RB-2000", unitPrice: "300.00", qty: 1 }],
      }],
    },
  });
  expect(saved.status).toBe(200);
  const finalized = await call(app, "POST", `/api/quotes/${quoteId}/finalize`, { cookie });
  expect(finalized.status).toBe(200);
}

describe("a chain of stores in the browser", () => {
  it("registers at A's tablet, quotes and orders at A, picks up and pays the balance at B", async () => {
    // Sam works in both stores; a phone-sized view too, for the staff bar's picker.
    const { cookie: sam, user } = await signedInUser(app.db, {
      firstName: "Sam",
      storeIds: [stores.uptown, stores.downtown],
    });

    // 1. Store A's own intake address: the page is A's, and so is the client.
    const tablet = await openPage(browser, app.baseUrl, { viewport: TABLET_PORTRAIT });
    try {
      await visit(tablet.page, "/intake/upt");
      await tablet.page.getByRole("heading", { name: `Welcome to ${UPTOWN.name}` }).waitFor();
      expect(await tablet.page.title()).toContain(UPTOWN.name);
      await axe(tablet.page, "store A's intake page");
      await field(tablet.page, "First Name").fill("Noor");
      await field(tablet.page, "Last Name").fill("Haddad");
      await field(tablet.page, "Email").fill("noor@example.com");
      await tablet.page.getByRole("radio", { name: "Other" }).check();
      await tablet.page.getByLabel("Please tell us how").fill("Walked past");
      await tablet.page.getByRole("button", { name: "Submit Intake Form" }).click();
      await tablet.page.waitForURL(/\/staff\?returnTo=/);
      expect(tablet.problems).toEqual([]);
    } finally {
      await tablet.close();
    }
    const client = await app.db.selectFrom("clients").select(["id", "homeStoreId"])
      .where("firstName", "=", "Noor").executeTakeFirstOrThrow();
    expect(client.homeStoreId).toBe(stores.uptown);
    const quote = await app.db.selectFrom("quotes").select(["id", "storeId"])
      .where("clientId", "=", client.id).executeTakeFirstOrThrow();
    expect(quote.storeId).toBe(stores.uptown);
    await quoteAtUptown(sam, client.id, quote.id);

    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, sam);
    page.context().setDefaultTimeout(60_000);
    try {
      // 2. Sam's first store by code is Downtown; the staff bar switches this device to Uptown.
      await visit(page, "/quotes");
      expect(await page.getByTestId("current-store").textContent()).toBe("DT");
      await page.getByTestId("current-store").click();
      await axe(page, "staff bar store picker");
      await page.keyboard.press("Escape");
      await switchStore(page, `${UPTOWN.name} (UPT)`, "UPT");
      expect(await page.locator(".brand-name").textContent()).toBe(UPTOWN.name);
      // The quotes list is Uptown's, each row with its store.
      const row = page.locator(`tr[data-quote-id="${quote.id}"]`);
      await row.waitFor();
      expect(await row.locator(".quote-cell-store").textContent()).toBe("UPT");
      expect(await page.getByLabel("Store", { exact: true }).inputValue()).toBe(stores.uptown);
      await axe(page, "quotes list of a store");
      // Downtown's list does not have it; staff are not offered every store at once.
      await page.getByLabel("Store", { exact: true }).selectOption(stores.downtown);
      await row.waitFor({ state: "detached" });
      expect(await page.getByLabel("Store", { exact: true }).locator("option[value=all]").count())
        .toBe(0);

      // 3. The order is Uptown's; its glasses go to Downtown.
      await visit(page, `/quote/${quote.id}`);
      await page.getByRole("button", { name: "Create Order" }).click();
      const create = page.getByRole("dialog");
      await create.getByLabel("Lab").selectOption(labId);
      await create.getByRole("button", { name: "Create Order" }).click();
      await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
      await page.waitForSelector("html[data-hydrated=true]");
      const orderPath = new URL(page.url()).pathname;
      expect(await page.getByTestId("order-store").textContent()).toBe(`${UPTOWN.name} (UPT)`);
      const card = page.getByTestId("job-card").first();
      expect(await card.getByTestId("pickup-store").textContent()).toBe(`${UPTOWN.name} (UPT)`);
      await card.getByRole("button", { name: "Change pickup store" }).click();
      const move = page.getByRole("dialog");
      await move.getByLabel("Pick up at").selectOption(stores.downtown);
      await axe(page, "pickup store dialog");
      await move.getByRole("button", { name: "Save Pickup Store" }).click();
      await card.getByTestId("pickup-store").filter({ hasText: `${DOWNTOWN.name} (DT)` })
        .waitFor();

      // 4. The deposit at Uptown.
      await page.getByLabel("Amount").fill("100");
      await page.getByRole("button", { name: "Record Payment" }).click();
      await page.getByTestId("order-balance").filter({ hasText: "$200.00" }).waitFor();
      await takeStep(card, "Mark sent to lab", "Sent to lab");
      await takeStep(card, "Mark received", "Received");
      await takeStep(card, "Check passed", "Checked");
      // Ready on Friday at 18:55 in New York: past the undo window Downtown is closed.
      now = new Date("2026-11-27T23:55:00Z");
      await takeStep(card, "Mark ready for pickup", "Ready for pickup");
      await axe(page, "order page of a chain");
      const shot = screenshotPath("chain-order-page");
      if (shot) await page.screenshot({ path: shot, fullPage: true });

      // 5. The ready e-mail is Downtown's, sent when Downtown opens (Saturday 10:00 there).
      const mails = () => smtp.received.filter((m) => m.raw.includes("noor@example.com"));
      await deliverDue(app.db, app.config.secretKey, new Date("2026-11-28T14:59:00Z"));
      expect(mails().length).toBe(0);
      now = new Date("2026-11-28T15:00:00Z");
      await deliverDue(app.db, app.config.secretKey, now);
      await deliverDue(app.db, app.config.secretKey, new Date("2026-11-28T16:00:00Z"));
      expect(mails().length).toBe(1);
      const mail = mails()[0].raw.replace(/=\r?\n/g, "");
      expect(mail).toContain(DOWNTOWN.name);
      expect(mail).toContain(DOWNTOWN.address);
      expect(mail).toContain("Mon=E2=80=93Sat 10:00=E2=80=9319:00");
      expect(mail).not.toContain(UPTOWN.address);

      // 6. Saturday at Downtown: the balance, and the pickup.
      await switchStore(page, `${DOWNTOWN.name} (DT)`, "DT");
      expect(new URL(page.url()).pathname).toBe(orderPath);
      await page.getByLabel("Amount").fill("200");
      await page.getByLabel("Method").selectOption("CASH");
      await page.getByRole("button", { name: "Record Payment" }).click();
      await page.getByTestId("order-balance").filter({ hasText: "$0.00" }).waitFor();
      const paidAt = await page.locator(".order-payments tbody tr").evaluateAll((rows) =>
        rows.map((r) => (r as HTMLTableRowElement).cells[3].textContent)
      );
      expect(paidAt).toEqual(["UPT", "DT"]);
      await takeStep(card, "Mark picked up", "Picked up");

      // Downtown's orders list has the job it handed over, marked as Uptown's.
      await visit(page, "/orders");
      const job = page.locator(".orders-table tbody tr").first();
      expect((await job.locator(".orders-cell-store").textContent())?.trim()).toBe("UPT → DT");
      await axe(page, "orders list of a store");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }

    // What the database holds: each payment in the store that took it.
    const payments = await app.db.selectFrom("payments").select(["storeId", "amount"])
      .orderBy("createdAt").execute();
    expect(payments.map((p) => p.storeId)).toEqual([stores.uptown, stores.downtown]);
    const job = await app.db.selectFrom("jobs").innerJoin("orders", "orders.id", "jobs.orderId")
      .select(["orders.storeId", "jobs.pickupStoreId", "jobs.status"]).executeTakeFirstOrThrow();
    expect(job).toEqual({
      storeId: stores.uptown,
      pickupStoreId: stores.downtown,
      status: "PICKED_UP",
    });
    expect(user.id).toBeTruthy();
  });

  it("staff of another store read an order but are not offered its job's steps", async () => {
    const q = await insertSavedQuote(app.db, {
      status: "FINALIZED",
      storeId: stores.uptown,
      firstName: "Remy",
    });
    await app.db.updateTable("quoteOptions").set({ isChosen: true })
      .where("quoteId", "=", q.quoteId).execute();
    const made = await call<OrderBundle>(app, "POST", `/api/quotes/${q.quoteId}/order`, {
      cookie: owner,
      body: { labId },
    });
    expect(made.status).toBe(201);
    // Works in the chain's first store only (MAIN): neither Uptown nor Downtown.
    const { cookie } = await signedInUser(app.db, { firstName: "Mo" });
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, cookie);
    try {
      await visit(page, `/orders/${made.body.order.id}`);
      const card = page.getByTestId("job-card").first();
      expect(await card.getByTestId("job-others").textContent()).toBe(
        `Moved on by the staff of ${UPTOWN.name} (UPT).`,
      );
      expect(await card.getByRole("button", { name: "Mark sent to lab" }).count()).toBe(0);
      // Taking a payment is theirs: it is their store's.
      await page.getByLabel("Amount").fill("10");
      await page.getByRole("button", { name: "Record Payment" }).click();
      await page.locator(".order-payments tbody tr").first().waitFor();
      await axe(page, "another store's order");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("a phone's staff bar keeps the store picker on one row", async () => {
    const { cookie } = await signedInUser(app.db, {
      firstName: "Pat",
      storeIds: [stores.uptown, stores.downtown],
    });
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, cookie, PHONE);
    try {
      await visit(page, "/orders");
      const picker = page.getByTestId("current-store");
      await picker.click();
      const menu = page.locator(".store-menu .menu-panel");
      await menu.waitFor();
      const box = await menu.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
      const shot = screenshotPath("chain-staff-bar-phone");
      if (shot) await page.screenshot({ path: shot });
      await axe(page, "phone staff bar with the store picker open");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
