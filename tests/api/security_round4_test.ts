// Security round 4 over HTTP on a real database: money written once however
// often it is sent, a key that names its route, dates that exist.
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { KEY_REUSED_MESSAGE } from "../../src/http/idempotency.ts";
import { addDays } from "../../src/orders/rules.ts";
import type { LabView, OrderBundle } from "../../src/orders/views.ts";
import type { OrderReports } from "../../src/orders/order_reports.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp;
let owner: string;
let lab: LabView;
// The app's clock: Friday 2026-11-27 10:00 in Chicago.
const now = new Date("2026-11-27T16:00:00Z");
const TODAY = "2026-11-27";

useTestApp(async (started) => {
  ({ app } = started);
  owner = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "OWNER" })).id);
  await app.db.updateTable("settings").set({ timeZone: "America/Chicago" }).execute();
  const res = await call<LabView>(app, "POST", "/api/admin/labs", {
    cookie: owner,
    body: { name: "Essilor Dallas", email: "orders@lab.test", turnaroundDays: 3 },
  });
  expect(res.status).toBe(201);
  lab = res.body;
}, { clock: () => now });

async function newOrder(): Promise<OrderBundle> {
  const quote = await insertSavedQuote(app.db, { status: "FINALIZED" });
  const res = await call<OrderBundle>(app, "POST", `/api/quotes/${quote.quoteId}/order`, {
    cookie: owner,
    body: { labId: lab.id, optionIds: [quote.optionIds[0]] },
  });
  expect(res.status).toBe(201);
  return res.body;
}

const paymentsOf = async (orderId: string) =>
  await app.db.selectFrom("payments").select(["amount", "note"]).where("orderId", "=", orderId)
    .execute();

describe("a payment sent twice", () => {
  it("is taken once with one Idempotency-Key, the second answered from the first", async () => {
    const order = await newOrder();
    const key = crypto.randomUUID();
    const body = { amount: "50.00", method: "CARD", note: "deposit" };
    const headers = { "Idempotency-Key": key };
    const path = `/api/orders/${order.order.id}/payments`;
    const [first, second] = await Promise.all([
      call<OrderBundle>(app, "POST", path, { cookie: owner, body, headers }),
      call<OrderBundle>(app, "POST", path, { cookie: owner, body, headers }),
    ]);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(await paymentsOf(order.order.id)).toEqual([{ amount: "50.00", note: "deposit" }]);
    expect([first, second].filter((r) => r.headers.get("idempotent-replayed") === "true"))
      .toHaveLength(1);
    // A third send, later: still the first answer.
    const third = await call<OrderBundle>(app, "POST", path, { cookie: owner, body, headers });
    expect(third.status).toBe(201);
    expect(third.body.money).toEqual(first.body.money);
    expect(await paymentsOf(order.order.id)).toHaveLength(1);
  });

  it("a refund too", async () => {
    const order = await newOrder();
    const path = `/api/orders/${order.order.id}/payments`;
    expect(
      (await call(app, "POST", path, {
        cookie: owner,
        body: { amount: "80.00", method: "CASH" },
      })).status,
    ).toBe(201);
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const body = { amount: "-30.00", method: "CASH", reason: "Frame changed" };
    for (let i = 0; i < 3; i++) {
      expect((await call(app, "POST", path, { cookie: owner, body, headers })).status).toBe(201);
    }
    expect((await paymentsOf(order.order.id)).map((p) => p.amount).sort()).toEqual([
      "-30.00",
      "80.00",
    ]);
  });

  it("without a key, twice is twice (the key is what says it is the same payment)", async () => {
    const order = await newOrder();
    const path = `/api/orders/${order.order.id}/payments`;
    const body = { amount: "10.00", method: "CASH" };
    for (let i = 0; i < 2; i++) {
      expect((await call(app, "POST", path, { cookie: owner, body })).status).toBe(201);
    }
    expect(await paymentsOf(order.order.id)).toHaveLength(2);
  });
});

describe("an Idempotency-Key reused on another route", () => {
  it("is refused (422), never answered with the first route's answer", async () => {
    const a = await newOrder();
    const b = await newOrder();
    const key = crypto.randomUUID();
    const body = { amount: "5.00", method: "CASH" };
    const headers = { "Idempotency-Key": key };
    const first = await call(app, "POST", `/api/orders/${a.order.id}/payments`, {
      cookie: owner,
      body,
      headers,
    });
    expect(first.status).toBe(201);
    // Same body, same caller, another order: a new payment, not a replay.
    const other = await call(app, "POST", `/api/orders/${b.order.id}/payments`, {
      cookie: owner,
      body,
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.body.message).toBe(KEY_REUSED_MESSAGE);
    expect(await paymentsOf(b.order.id)).toEqual([]);
  });
});

describe("dates that do not exist, or make no sense for an order", () => {
  it("a payment dated 2026-02-30 or 0000-01-01 is a 400 naming the date, never a 500", async () => {
    const order = await newOrder();
    const path = `/api/orders/${order.order.id}/payments`;
    for (const paidOn of ["2026-02-30", "0000-01-01", "2026-13-01", "99999-01-01", "2026-2-3"]) {
      const res = await call(app, "POST", path, {
        cookie: owner,
        body: { amount: "5.00", method: "CASH", paidOn },
      });
      expect({ paidOn, status: res.status }).toEqual({ paidOn, status: 400 });
      expect(Object.keys(res.body.errors as object)).toEqual(["paidOn"]);
    }
    expect(await paymentsOf(order.order.id)).toEqual([]);
  });

  it("a payment's date lies between 90 days before its order and today", async () => {
    const order = await newOrder();
    const path = `/api/orders/${order.order.id}/payments`;
    const pay = (paidOn: string) =>
      call(app, "POST", path, { cookie: owner, body: { amount: "1.00", method: "CASH", paidOn } });
    const tomorrow = await pay(addDays(TODAY, 1));
    expect(tomorrow.status).toBe(400);
    expect(tomorrow.body.message).toBe(`A payment cannot be dated after today (${TODAY})`);
    const early = await pay(addDays(TODAY, -91));
    expect(early.status).toBe(400);
    expect(early.body.message).toMatch(/on or after 2026-08-29 \(90 days before the order\)/);
    expect((await pay(addDays(TODAY, -90))).status).toBe(201);
    expect((await pay(TODAY)).status).toBe(201);
    // Every payment there is falls in the report of the days around its order.
    const report = await call<OrderReports>(
      app,
      "GET",
      `/api/reports/orders?from=${addDays(TODAY, -120)}&to=${TODAY}`,
      { cookie: owner },
    );
    expect(report.status).toBe(200);
    const all = await app.db.selectFrom("payments").select("id").execute();
    expect(report.body.payments.reduce((n, row) => n + row.count, 0)).toBe(all.length);
  });

  it("a promised date of 0000-01-01, before the order or past a year is a 400", async () => {
    const order = await newOrder();
    const job = order.jobs[0];
    const path = `/api/jobs/${job.id}/promised-date`;
    for (
      const [promisedDate, message] of [
        ["0000-01-01", "Promised date is not a real date"],
        ["2026-02-30", "Promised date is not a real date"],
        [addDays(TODAY, -1), `The promised date cannot be before the order (${TODAY})`],
        [addDays(TODAY, 366), `The promised date must be on or before ${addDays(TODAY, 365)}`],
      ]
    ) {
      const res = await call(app, "PUT", path, {
        cookie: owner,
        body: { promisedDate, reason: "Lab is late", version: job.version },
      });
      expect({ promisedDate, status: res.status }).toEqual({ promisedDate, status: 400 });
      expect(String(res.body.message)).toContain(message);
    }
    const ok = await call(app, "PUT", path, {
      cookie: owner,
      body: { promisedDate: addDays(TODAY, 365), reason: "Lab is late", version: job.version },
    });
    expect(ok.status).toBe(200);
  });
});
