// Over HTTP on a real database: money written once however often it is sent,
// a key that names its route, dates that exist, the signed-out limits, the
// tables anonymous traffic fills and a typed-name signature that shows.
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { KEY_REUSED_MESSAGE } from "../../src/http/idempotency.ts";
import { MAX_KEPT_ANSWER_BYTES } from "../../src/idempotency/key_store.ts";
import { addDays } from "../../src/orders/rules.ts";
import type { LabView, OrderBundle } from "../../src/orders/views.ts";
import type { OrderReports } from "../../src/orders/order_reports.ts";
import { useTestApp } from "../helpers/suite.ts";
import { maximalClient, maximalOptions } from "../helpers/quote_fixture.ts";
import { createQuoteLink, newLinkToken } from "../../src/quotes/online_links.ts";
import { INTAKE_RULE, ONLINE_GUESS_RULE, ONLINE_LINK_RULE } from "../../src/auth/throttle.ts";
import { deleteOldRateEvents, LONGEST_WINDOW_MS } from "../../src/auth/rate_counts.ts";
import { addressKey } from "../../src/http/client_address.ts";

/** The loopback address this file's app trusts as its reverse proxy. */
const PROXY = "127.0.0.50";
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
}, { clock: () => now, env: { TRUSTED_PROXIES: `${PROXY}, 10.9.0.0/16` } });

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

// Each test calls from its own loopback addresses, so one test's counts do not reach the next.
let lastAddress = 0;
const nextAddress = () => `127.0.${1 + Math.floor(++lastAddress / 250)}.${lastAddress % 250 + 1}`;

function intake(lastName: string) {
  return { firstName: "Ida", lastName, mobilePhone: "555-300-4000", email: "ida@example.com" };
}

const eventsOf = async (rule: string, key?: string) => {
  let q = app.db.selectFrom("rateLimitEvents").select("key").where("rule", "=", rule);
  if (key) q = q.where("key", "=", key);
  return (await q.execute()).length;
};

/** A quote e-mailed with a live online link; the link's `/q/{token}` path. */
async function liveLink(): Promise<string> {
  return (await liveQuote()).path;
}

async function liveQuote(): Promise<{ path: string; optionIds: string[] }> {
  const { quoteId, optionIds } = await insertSavedQuote(app.db, { status: "EMAILED" });
  const token = await createQuoteLink(app.db, {
    quoteId,
    quoteVersion: 1,
    sentTo: "jane.private@example.com",
    createdBy: null,
  }, now);
  return { path: `/q/${token}`, optionIds };
}

describe("the signed-out limits behind a reverse proxy", () => {
  it("count each client a trusted proxy names, not the proxy", async () => {
    const client = "203.0.113.7";
    const statuses: number[] = [];
    for (let i = 0; i <= INTAKE_RULE.maxEvents; i++) {
      const res = await call(app, "POST", "/api/clients", {
        from: PROXY,
        headers: { "x-forwarded-for": `${client}, ${PROXY}` },
        body: intake(`Proxied${i}`),
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another client behind the same proxy is not shut out by the first.
    const other = await call(app, "POST", "/api/clients", {
      from: PROXY,
      headers: { "x-forwarded-for": "203.0.113.8" },
      body: intake("ProxiedOther"),
    });
    expect(other.status).toBe(201);
    expect(await eventsOf("intake", client)).toBe(INTAKE_RULE.maxEvents);
    expect(await eventsOf("intake", "203.0.113.8")).toBe(1);
  });

  it("ignore X-Forwarded-For from a peer that is not a trusted proxy", async () => {
    const from = nextAddress();
    const res = await call(app, "POST", "/api/clients", {
      from,
      headers: { "x-forwarded-for": "198.51.100.1" },
      body: intake("Untrusted"),
    });
    expect(res.status).toBe(201);
    expect(await eventsOf("intake", from)).toBe(1);
    expect(await eventsOf("intake", "198.51.100.1")).toBe(0);
  });
});

describe("made-up online links", () => {
  it("count against nothing a real client needs: a real link from the same address still works", async () => {
    const from = nextAddress();
    let last = 0;
    for (let i = 0; i <= ONLINE_GUESS_RULE.maxEvents; i++) {
      last = (await call(app, "POST", `/q/${newLinkToken()}/decline`, { body: {}, from })).status;
    }
    expect(last).toBe(429);
    const real = await liveLink();
    const page = await call(app, "GET", real, { from, headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    const decline = await call(app, "POST", `${real}/decline`, {
      body: { message: "Too dear" },
      from,
    });
    expect(decline.status).toBe(200);
    expect(await eventsOf("online_address", addressKey(from))).toBe(1);
  });
});

describe("the shared limits under a burst", () => {
  it("let exactly the rule's number through when forty tries of one link arrive at once", async () => {
    const path = await liveLink();
    const answers = await Promise.all(
      Array.from(
        { length: 40 },
        () => call(app, "POST", `${path}/decline`, { body: { message: "" }, from: nextAddress() }),
      ),
    );
    const through = answers.filter((a) => a.status !== 429);
    expect(through).toHaveLength(ONLINE_LINK_RULE.maxEvents);
    expect(await eventsOf("online_link")).toBeGreaterThanOrEqual(ONLINE_LINK_RULE.maxEvents);
  });

  it("let exactly twenty intakes through from one address sent at once", async () => {
    const from = nextAddress();
    const answers = await Promise.all(
      Array.from(
        { length: 40 },
        (_, i) => call(app, "POST", "/api/clients", { from, body: intake(`Burst${i}`) }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(INTAKE_RULE.maxEvents);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(40 - INTAKE_RULE.maxEvents);
  });
});

describe("tables anonymous traffic fills", () => {
  it("keep at most a rule's events per key, and none past the longest window", async () => {
    // One address trying 100 made-up links: the key keeps its rule's number of events.
    const from = nextAddress();
    for (let i = 0; i < 100; i++) {
      await call(app, "POST", `/q/${newLinkToken()}/decline`, { body: {}, from });
    }
    expect(await eventsOf("online_guess", addressKey(from))).toBe(ONLINE_GUESS_RULE.maxEvents);
    // 150 addresses, one try each: one event each, then the sweep takes them all.
    for (let i = 0; i < 150; i++) {
      await call(app, "POST", `/q/${newLinkToken()}/decline`, { body: {}, from: nextAddress() });
    }
    const total = (await app.db.selectFrom("rateLimitEvents").select("key").execute()).length;
    expect(total).toBeGreaterThanOrEqual(150);
    await deleteOldRateEvents(app.db, Date.now() + LONGEST_WINDOW_MS + 1);
    expect((await app.db.selectFrom("rateLimitEvents").select("key").execute()).length).toBe(0);
  });

  it("keep an Idempotency-Key's answer gzipped: the largest quote's in a fifth of its size", async () => {
    const created = await call<{ quote: { id: string } }>(app, "POST", "/api/clients", {
      cookie: owner,
      body: maximalClient(),
    });
    expect(created.status).toBe(201);
    const quoteId = created.body.quote.id;
    const loaded = await call<{ quote: { version: number } }>(
      app,
      "GET",
      `/api/quotes/${quoteId}`,
      {
        cookie: owner,
      },
    );
    const key = crypto.randomUUID();
    const body = {
      version: loaded.body.quote.version,
      opticianName: "Maria",
      options: maximalOptions(),
    };
    const save = () =>
      call(app, "PUT", `/api/quotes/${quoteId}`, {
        cookie: owner,
        body,
        headers: { "Idempotency-Key": key },
      });
    const first = await save();
    expect([first.status, first.text.slice(0, 300)]).toEqual([200, first.text.slice(0, 300)]);
    expect(first.text.length).toBeGreaterThan(100_000);
    const row = await app.db.selectFrom("idempotencyKeys").select(["answer", "answerGzip"])
      .where("key", "=", key).executeTakeFirstOrThrow();
    expect(row.answer).toBe("");
    console.log(
      `kept answer: ${first.text.length} bytes of JSON, ${row.answerGzip!.byteLength} gzipped`,
    );
    expect(row.answerGzip!.byteLength).toBeLessThan(MAX_KEPT_ANSWER_BYTES);
    expect(row.answerGzip!.byteLength * 5).toBeLessThan(first.text.length);
    const replay = await save();
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(first.text);
  });
});

describe("the typed-name signature", () => {
  it("needs letters that show: spaces, zero-width and filler characters are refused", async () => {
    const { path, optionIds } = await liveQuote();
    for (
      const signerName of ["\u200b\u200b\u200b", "\u3164\u3164\u3164", " \u00a0 . ", "J\u200b"]
    ) {
      const res = await call(app, "POST", `${path}/accept`, {
        from: nextAddress(),
        body: {
          chosenOptionIds: [optionIds[0]],
          signerName,
          typedSignature: true,
          termsAccepted: true,
        },
      });
      expect({ signerName, status: res.status }).toEqual({ signerName, status: 400 });
      expect(res.body.errors).toEqual({ signerName: "Please type your full name." });
    }
    const accepted = await call(app, "POST", `${path}/accept`, {
      from: nextAddress(),
      body: {
        chosenOptionIds: [optionIds[0]],
        signerName: "李 明",
        typedSignature: true,
        termsAccepted: true,
      },
    });
    expect(accepted.status).toBe(200);
  });
});
