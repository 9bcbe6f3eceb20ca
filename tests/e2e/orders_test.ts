// The walk in a real browser: a finalized two-option quote → Create
// Order (two jobs) → sent to lab → received → check failed → remake → ready
// (the e-mail reaches the SMTP server once, after the undo window, with the
// app's clock injected) → deposit and balance → picked up. axe on each new
// screen and dialog; the /orders list and the admin Labs page too.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Locator, Page } from "playwright-core";
import type { TestApp } from "../helpers/test_app.ts";
import { call, createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import { openSignedIn, PHONE, screenshotPath, TABLET_PORTRAIT } from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { deadPort, mailSettingsFor } from "../helpers/smtp.ts";
import { PRESCRIPTION_BODY } from "../helpers/route_table.ts";
import { deliverDue } from "../../src/mail/outbox.ts";
import type { CreatedClient } from "../../src/clients/views.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";
import type { SmtpServer } from "../helpers/smtp.ts";
import { useBrowserApp } from "../helpers/suite.ts";
import { pdfPageCount, pdfRawPages, readPdf } from "../helpers/printed.ts";
import type { OrderBundle } from "../../src/orders/views.ts";

/** "1,234.50" in cents. */
const cents = (amount: string) => Math.round(Number(amount.replace(/,/g, "")) * 100);

let app: TestApp;
let browser: Browser;
let smtp: SmtpServer;
let owner: string;
let staff: string;
let labId: string;
// Friday 2026-11-27, 10:00 in Chicago (the store is open).
const now = new Date("2026-11-27T16:00:00Z");

useBrowserApp(async (started) => {
  ({ app, browser, smtp } = started);
  owner = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "OWNER" })).id);
  staff = await sessionCookieFor(app.db, (await createTestUser(app.db)).id);
  const settings = await call(app, "PUT", "/api/admin/settings", {
    cookie: owner,
    body: {
      ...mailSettingsFor(smtp, { fromEmail: "store@store.test" }),
      openingDays: [1, 2, 3, 4, 5],
      timeZone: "America/Chicago",
      storeName: "Clearview Optical",
    },
  });
  expect(settings.status).toBe(200);
  const lab = await call(app, "POST", "/api/admin/labs", {
    cookie: owner,
    body: { name: "Hoya Vision Lab", email: "jobs@hoya.test", turnaroundDays: 4 },
  });
  expect(lab.status).toBe(201);
  labId = (lab.body as { id: string }).id;
}, { clock: () => now, smtp: true });

/** A measured client with a prescription and a finalized quote of two chosen options. */
async function finalizedTwoOptionQuote() {
  const created = await call<CreatedClient>(app, "POST", "/api/clients", {
    cookie: owner,
    body: { firstName: "Lena", lastName: "Okafor", email: "lena@example.com" },
  });
  const clientId = created.body.client.id;
  await call(app, "PUT", `/api/clients/${clientId}/measurements`, {
    cookie: owner,
    body: { pdBinocular: "63", pdNear: "60", measurementsComplete: true },
  });
  expect(
    (await call(app, "POST", `/api/clients/${clientId}/prescriptions`, {
      cookie: owner,
      body: PRESCRIPTION_BODY,
    })).status,
  ).toBe(201);
  const bundle = (await call<QuoteBundle>(app, "GET", `/api/quotes/${created.body.quote.id}`, {
    cookie: owner,
  })).body;
  const option = (id: string, label: string, sku: string, price: string) => ({
    id,
    label,
    isChosen: true,
    segOc: "18/18",
    items: [{ kind: "FRAME", name: "Ray-Ban", sku, unitPrice: price, qty: 1 }],
  });
  const saved = await call(app, "PUT", `/api/quotes/${bundle.quote.id}`, {
    cookie: owner,
    body: {
      version: bundle.quote.version,
      opticianName: "Maria",
      internalNotes: "",
      options: [
        option(bundle.options[0].id, "Everyday", "RB-2000", "200.00"),
        option("temp-2", "Sun", "RB-3025", "150.00"),
      ],
    },
  });
  expect(saved.status).toBe(200);
  expect(
    (await call(app, "POST", `/api/quotes/${bundle.quote.id}/finalize`, { cookie: owner }))
      .status,
  ).toBe(200);
  return { quoteId: bundle.quote.id, clientId };
}

async function axe(page: Page, what: string) {
  expect({ what, violations: await seriousA11yViolations(page) }).toEqual({
    what,
    violations: [],
  });
}

/** Clicks a job's step and waits for its new status. */
async function takeStep(card: Locator, button: string, status: string) {
  await card.getByRole("button", { name: button, exact: true }).click();
  await card.getByTestId("job-status").filter({ hasText: status }).waitFor();
}

async function reason(page: Page, text: string, confirm: string) {
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("textbox").fill(text);
  await dialog.getByRole("button", { name: confirm }).click();
  await dialog.waitFor({ state: "hidden" });
}

const mailsFor = (jobNumber: string) =>
  smtp.received.filter((m) => m.raw.includes(jobNumber) && m.raw.includes("lena@example.com"));

describe("orders in the browser", () => {
  it("walks a finalized quote to two picked-up jobs, the e-mail sent once", async () => {
    const { quoteId, clientId } = await finalizedTwoOptionQuote();
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, staff);
    page.context().setDefaultTimeout(60_000);
    try {
      await page.goto(`/quote/${quoteId}`);
      await page.waitForSelector("html[data-hydrated=true]");
      await page.getByRole("button", { name: "Create Order" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Lab").waitFor();
      // It says which options become jobs before anything is made.
      const jobsList = dialog.getByRole("list", { name: "These options become jobs:" });
      expect((await jobsList.getByRole("listitem").allTextContents()).length).toBe(2);
      await axe(page, "create order dialog");
      await dialog.getByRole("button", { name: "Create Order" }).click();
      await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
      const orderUrl = page.url();
      // Back on the quote, the banner links to its order instead of offering another.
      await page.goto(`/quote/${quoteId}`);
      await page.waitForSelector("html[data-hydrated=true]");
      expect(await page.getByRole("button", { name: "Create Order" }).count()).toBe(0);
      const open = page.getByRole("link", { name: "Open Order" });
      expect(new URL(await open.getAttribute("href") ?? "", orderUrl).href).toBe(orderUrl);
      await page.goto(orderUrl);
      await page.waitForSelector("html[data-hydrated=true]");
      const cards = page.getByTestId("job-card");
      expect(await cards.count()).toBe(2);
      const [first, second] = [cards.nth(0), cards.nth(1)];
      const jobNumbers = await page.locator(".job-card .job-number").allTextContents();
      expect(jobNumbers).toEqual([
        expect.stringMatching(/^J-\d{6}$/),
        expect.stringMatching(/^J-\d{6}$/),
      ]);
      expect(await page.getByTestId("order-balance").textContent()).toBe("$350.00");
      await axe(page, "order page");

      // The lab moves the date: changed with a reason.
      await first.getByRole("button", { name: "Change promised date" }).click();
      const dateDialog = page.getByRole("dialog");
      await dateDialog.getByLabel("Promised date").fill("2026-12-09");
      await dateDialog.getByLabel("Reason").fill("Lab is short of blanks");
      await axe(page, "promised date dialog");
      await dateDialog.getByRole("button", { name: "Save Date" }).click();
      await first.getByTestId("promised-date").filter({ hasText: "Dec 9, 2026" }).waitFor();

      // A deposit at order.
      await page.getByLabel("Amount").fill("100");
      await page.getByRole("button", { name: "Record Payment" }).click();
      await page.getByTestId("order-balance").filter({ hasText: "$250.00" }).waitFor();

      // The first pair: a failed check sends it back as a remake.
      await takeStep(first, "Mark sent to lab", "Sent to lab");
      await takeStep(first, "Mark received", "Received");
      await first.getByRole("button", { name: "Remake", exact: true }).click();
      await page.getByRole("dialog").getByRole("textbox").waitFor();
      await axe(page, "remake dialog");
      await reason(page, "Left lens axis 10° off", "Send for Remake");
      await first.getByTestId("job-status").filter({ hasText: "Remake" }).waitFor();
      expect(await first.getByTestId("remake-count").textContent()).toBe("1");
      await takeStep(first, "Send remake to lab", "Sent to lab");
      await takeStep(first, "Mark received", "Received");
      await takeStep(first, "Check passed", "Checked");
      await takeStep(first, "Mark ready for pickup", "Ready for pickup");

      // The second: a wrong click on Ready is undone inside the window.
      await takeStep(second, "Mark sent to lab", "Sent to lab");
      await takeStep(second, "Mark received", "Received");
      await takeStep(second, "Check passed", "Checked");
      await takeStep(second, "Mark ready for pickup", "Ready for pickup");
      await takeStep(second, "Back to checked", "Checked");
      await takeStep(second, "Mark ready for pickup", "Ready for pickup");
      const path = screenshotPath("orders-order-page");
      if (path) await page.screenshot({ path, fullPage: true });

      // Nothing goes before the undo window ends; once after it, never twice.
      await deliverDue(app.db, app.config.secretKey, new Date("2026-11-27T16:09:00Z"));
      expect(mailsFor(jobNumbers[0]).length + mailsFor(jobNumbers[1]).length).toBe(0);
      await deliverDue(app.db, app.config.secretKey, new Date("2026-11-27T16:10:00Z"));
      await deliverDue(app.db, app.config.secretKey, new Date("2026-11-27T16:30:00Z"));
      expect(mailsFor(jobNumbers[0]).length).toBe(1);
      expect(mailsFor(jobNumbers[1]).length).toBe(1);
      expect(mailsFor(jobNumbers[0])[0].raw).toContain("Your glasses are ready");
      await page.reload();
      await page.waitForSelector("html[data-hydrated=true]");
      await first.getByTestId("client-notified").waitFor();

      // Picked up with money owed: staff are told to take the payment first.
      await first.getByRole("button", { name: "Mark picked up" }).click();
      await page.getByRole("dialog").getByText("Take the payment first").waitFor();
      await axe(page, "balance due dialog");
      await page.getByRole("dialog").getByRole("button", { name: "Close", exact: true }).last()
        .click();
      await page.getByLabel("Amount").fill("250,00");
      await page.getByLabel("Method").selectOption("CASH");
      await page.getByRole("button", { name: "Record Payment" }).click();
      await page.getByTestId("order-balance").filter({ hasText: "$0.00" }).waitFor();
      await takeStep(first, "Mark picked up", "Picked up");
      await takeStep(second, "Mark picked up", "Picked up");
      expect(await first.getByRole("button").count()).toBe(0);
      expect(problems).toEqual([]);

      // The list finds the job by its number, and shows it picked up.
      await page.goto(`/orders?q=${jobNumbers[1]}`);
      expect(await page.locator(".orders-table tbody tr").count()).toBe(1);
      expect(await page.locator(".orders-table tbody").textContent()).toContain("Picked up");
      await axe(page, "orders list");

      // The client dialog lists the order with both jobs.
      await page.goto(`/clients?id=${clientId}`);
      await page.waitForSelector("html[data-hydrated=true]");
      const orders = page.getByRole("region", { name: "Orders" });
      await orders.getByText(jobNumbers[0]).waitFor();
      expect(await orders.textContent()).toContain(jobNumbers[1]);
      await axe(page, "client dialog with orders");
    } finally {
      await close();
    }
  });

  it("says the work order is queued, not e-mailed, while the mail server is down", async () => {
    const { quoteId } = await finalizedTwoOptionQuote();
    const created = await call<{ order: { id: string } }>(
      app,
      "POST",
      `/api/quotes/${quoteId}/order`,
      { cookie: staff, body: { labId } },
    );
    expect(created.status).toBe(201);
    const mailTo = async (port: number) =>
      expect(
        (await call(app, "PUT", "/api/admin/settings", {
          cookie: owner,
          body: mailSettingsFor(smtp, { port, fromEmail: "store@store.test" }),
        })).status,
      ).toBe(200);
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, staff);
    page.context().setDefaultTimeout(60_000);
    await mailTo(deadPort());
    try {
      await page.goto(`/orders/${created.body.order.id}`);
      await page.waitForSelector("html[data-hydrated=true]");
      const toast = page.locator(".toast");
      // The jobs not sent to the lab yet are ticked; staff may untick or tick others.
      await page.getByRole("button", { name: "E-mail to Lab" }).click();
      const dialog = page.getByRole("dialog", { name: "E-mail Work Order to Lab" });
      const boxes = dialog.getByRole("checkbox");
      expect(await boxes.count()).toBe(2);
      expect([await boxes.nth(0).isChecked(), await boxes.nth(1).isChecked()]).toEqual([
        true,
        true,
      ]);
      await axe(page, "e-mail to lab dialog");
      const shot = screenshotPath("orders-email-lab-dialog");
      if (shot) await page.screenshot({ path: shot });
      await boxes.nth(1).uncheck();
      await dialog.getByRole("button", { name: "Send 1 Job" }).click();
      await toast.getByText("Work order queued", { exact: true }).waitFor();
      await dialog.waitFor({ state: "hidden" });
      expect(await toast.textContent()).toMatch(/could not be reached.*will be sent automatically/);
      expect(await toast.textContent()).not.toContain("E-mailed");

      await mailTo(smtp.port);
      const before = smtp.received.length;
      await page.getByRole("button", { name: "E-mail to Lab" }).click();
      await dialog.getByRole("button", { name: "Send 2 Jobs" }).click();
      await toast.getByText("Work Order E-mailed", { exact: true }).waitFor();
      expect(await toast.textContent()).toContain("jobs@hoya.test");
      expect(smtp.received.length).toBe(before + 1);
      expect(problems).toEqual([]);
    } finally {
      await mailTo(smtp.port);
      await close();
    }
  });

  it("prints a receipt naming the glasses as chosen, under the store's address, adding up", async () => {
    const store = {
      storeName: "Clearview Optical",
      storeAddress: "12 Harbour Road, Wellington 6011",
      storePhone: "(04) 555 0199",
      storeEmail: "desk@clearview.test",
    };
    expect((await call(app, "PUT", "/api/admin/settings", { cookie: owner, body: store })).status)
      .toBe(200);
    const { quoteId } = await finalizedTwoOptionQuote();
    const made = await call<OrderBundle>(app, "POST", `/api/quotes/${quoteId}/order`, {
      cookie: staff,
      body: { labId },
    });
    expect(made.status).toBe(201);
    const sun = made.body.jobs[1];
    expect(
      (await call(app, "POST", `/api/jobs/${sun.id}/step`, {
        cookie: staff,
        body: { to: "CANCELLED", version: sun.version, reason: "Only one pair after all" },
      })).status,
    ).toBe(200);
    expect(
      (await call(app, "POST", `/api/orders/${made.body.order.id}/payments`, {
        cookie: staff,
        body: { amount: "50.00", method: "CASH" },
      })).status,
    ).toBe(201);
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, staff);
    page.context().setDefaultTimeout(60_000);
    try {
      await page.goto(`/orders/${made.body.order.id}/receipt`);
      await page.waitForSelector("html[data-hydrated=true]");
      await axe(page, "receipt");
      const bytes = await page.pdf({ preferCSSPageSize: true, printBackground: true });
      expect(await pdfPageCount(bytes)).toBe(1);
      await readPdf(bytes, "receipt-floor4"); // kept to look at
      // As drawn: each row of a table on a line of its own.
      const text = (await pdfRawPages(bytes))[0].replace(/\s+/g, " ");
      // The store as Settings has it, at the head.
      for (const part of Object.values(store)) expect(text).toContain(part);
      // The glasses as the client chose them: the option, then the frame by name, the SKU small.
      expect(text).toContain("Everyday Frame: Ray-Ban RB-2000 Ordered $200.00");
      expect(text).toContain("Sun Frame: Ray-Ban RB-3025 Cancelled, not charged $0.00");
      // The printed lines add up to the printed total; the total less paid is the balance.
      const jobs = text.slice(text.indexOf("JOBS"), text.indexOf("PAYMENTS"));
      const [rows, foot] = jobs.split(" Total ");
      const lines = [...rows.matchAll(/\$([\d,]+\.\d{2})/g)].map((m) => cents(m[1]));
      const total = cents(/^\$([\d,.]+)/.exec(foot)![1]);
      expect(lines).toEqual([20000, 0]);
      expect(lines.reduce((a, b) => a + b, 0)).toBe(total);
      const money = /Total \$([\d,.]+) Paid \$([\d,.]+) Balance due \$([\d,.]+)/.exec(text)!;
      expect([cents(money[1]), cents(money[2]), cents(money[3])]).toEqual([total, 5000, 15000]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("lays out the list and the order page on a tablet and a phone; labs for admins", async () => {
    for (const viewport of [TABLET_PORTRAIT, PHONE]) {
      const { page, close } = await openSignedIn(browser, app.baseUrl, owner, viewport);
      page.context().setDefaultTimeout(60_000);
      try {
        await page.goto("/orders");
        const overflow = await page.evaluate(() =>
          document.documentElement.scrollWidth - document.documentElement.clientWidth
        );
        expect(overflow).toBeLessThanOrEqual(0);
        await page.locator(".orders-table a.job-number").first().click();
        await page.waitForSelector("html[data-hydrated=true]");
        const path = screenshotPath(`orders-order-${viewport.width}`);
        if (path) await page.screenshot({ path, fullPage: true });
        await axe(page, `order page ${viewport.width}`);
      } finally {
        await close();
      }
    }
    const { page, close } = await openSignedIn(browser, app.baseUrl, owner);
    page.context().setDefaultTimeout(60_000);
    try {
      await page.goto("/admin/labs");
      await page.waitForSelector("html[data-hydrated=true]");
      await page.getByRole("button", { name: "Add Lab" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Name").fill("Zeiss Lab");
      await dialog.getByLabel("Turnaround (business days)").fill("x");
      await dialog.getByRole("button", { name: "Save Lab" }).click();
      await dialog.getByText("Turnaround must be a whole number").waitFor();
      await axe(page, "lab dialog");
      await dialog.getByLabel("Turnaround (business days)").fill("6");
      await dialog.getByRole("button", { name: "Save Lab" }).click();
      await page.getByRole("cell", { name: "Zeiss Lab", exact: true }).waitFor();
      await axe(page, "labs page");
    } finally {
      await close();
    }
  });
});
