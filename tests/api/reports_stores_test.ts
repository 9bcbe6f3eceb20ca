// The reports in a chain of two stores (issue 48): each store's figures, the
// current store by default, and "All stores" store by store with a chain total
// that is the sum of the stores' rows, as the test's own arithmetic says.
// Both engines (the statements group and filter by store on either).
import { describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import { call, signedInUser } from "../helpers/test_app.ts";
import { findFirstStore } from "../../src/stores/stores.ts";
import { ALL_STORES_FORBIDDEN, UNKNOWN_STORE } from "../../src/stores/current_store.ts";
import type { ConversionReport, Metrics } from "../../src/reports/conversion.ts";
import type { OrderReports } from "../../src/orders/order_reports.ts";
import type { OrderBundle } from "../../src/orders/views.ts";
import {
  expectedFor,
  insertReportQuotes,
  REPORT_RANGE,
  REPORT_WEEKS,
  reportQuotes,
  type SeedQuote,
  weekOf,
} from "../helpers/report_seed.ts";
import { app, finalizedQuote, lab, owner, useOrdersApp } from "./orders_fixture.ts";

useOrdersApp();

const inRange = (qs: SeedQuote[]) =>
  qs.filter((q) =>
    weekOf(q.createdAt) >= REPORT_RANGE.from && weekOf(q.createdAt) <= REPORT_WEEKS[3]
  );
// Store A has the whole seed, store B every third of its quotes: different figures.
const quotesA = reportQuotes();
const quotesB = reportQuotes().filter((_, i) => i % 3 === 0);
const RANGE = `from=${REPORT_RANGE.from}&to=${REPORT_RANGE.to}`;
const ORDER_RANGE = "from=2026-11-01&to=2026-11-30";

let storeA: string;
let storeB: string;
/** A chain admin working in both stores, and staff of store A. */
let admin: string;
let staff: string;
const inStore = (cookie: string, storeId: string) => `${cookie}; lensdesk_store=${storeId}`;

const cents = (s: string) => Math.round(Number(s) * 100);
const COUNTS = ["created", "accepted", "finalized", "closed", "expired", "won"] as const;

/** The metrics the test expects for some quotes, in the report's own words. */
function expected(qs: SeedQuote[]): Record<string, number> {
  const e = expectedFor(inRange(qs), new Date());
  return { ...Object.fromEntries(COUNTS.map((k) => [k, e[k]])), wonCents: e.wonCents };
}

/** The sum of some rows' metrics: what a chain total must be. */
function sumOf(rows: Metrics[]): Record<string, number> {
  return {
    ...Object.fromEntries(COUNTS.map((k) => [k, rows.reduce((s, r) => s + r[k], 0)])),
    wonCents: rows.reduce((s, r) => s + cents(r.wonValue), 0),
  };
}
const metricsOf = (m: Metrics) => ({
  ...Object.fromEntries(COUNTS.map((k) => [k, m[k]])),
  wonCents: cents(m.wonValue),
});

async function conversion(query: string, cookie = admin) {
  const res = await call<ConversionReport>(app, "GET", `/api/reports/conversion?${query}`, {
    cookie,
  });
  expect(res.status).toBe(200);
  return res.body;
}

async function orders(query: string, cookie = admin) {
  const res = await call<OrderReports>(app, "GET", `/api/reports/orders?${query}`, { cookie });
  expect(res.status).toBe(200);
  return res.body;
}

describe("reports in a chain of two stores", () => {
  it("sets up two stores with quotes, orders, jobs and payments in each", async () => {
    storeA = (await findFirstStore(app.db)).id;
    const made = await call<{ id: string }>(app, "POST", "/api/admin/stores", {
      cookie: owner,
      body: { code: "DT", name: "Downtown" },
    });
    expect(made.status).toBe(201);
    storeB = made.body.id;
    admin = (await signedInUser(app.db, { role: "ADMIN", storeIds: [storeA, storeB] })).cookie;
    staff = (await signedInUser(app.db, { storeIds: [storeA] })).cookie;
    await insertReportQuotes(app.db, quotesA, { storeId: storeA });
    await insertReportQuotes(app.db, quotesB, { storeId: storeB });

    // An order of A (its jobs A's), paid 10.00 at A and 20.00 at B; an order of B paid 5.00 at B.
    const ordered: OrderBundle[] = [];
    for (const storeId of [storeA, storeB]) {
      const q = await finalizedQuote({ storeId });
      const res = await call<OrderBundle>(app, "POST", `/api/quotes/${q.quoteId}/order`, {
        cookie: inStore(admin, storeId),
        body: { labId: lab.id },
      });
      expect(res.status).toBe(201);
      ordered.push(res.body);
    }
    for (
      const [orderId, storeId, amount] of [
        [ordered[0].order.id, storeA, "10.00"],
        [ordered[0].order.id, storeB, "20.00"],
        [ordered[1].order.id, storeB, "5.00"],
      ]
    ) {
      const paid = await call(app, "POST", `/api/orders/${orderId}/payments`, {
        cookie: inStore(admin, storeId),
        body: { amount, method: "CASH" },
      });
      expect(paid.status).toBe(201);
    }
    // Every job ready three days after it was ordered; B's remade once.
    await app.db.updateTable("jobs")
      .set((eb) => ({ readyAt: eb(eb.ref("orderedAt"), "+", sqlDays(3)) }))
      .execute();
    await app.db.updateTable("jobs").set({ remakeCount: 1 })
      .where("orderId", "=", ordered[1].order.id).execute();
  });

  it("each store's conversion figures are its own quotes'", async () => {
    for (const [storeId, qs] of [[storeA, quotesA], [storeB, quotesB]] as const) {
      const body = await conversion(`${RANGE}&store=${storeId}`);
      expect(body.store).toBe(storeId);
      // One store listed: today's tables, no store rows.
      expect(body.stores).toBeNull();
      expect(body.cells.every((c) => c.store === undefined)).toBe(true);
      expect(metricsOf(body.totals)).toEqual(expected(qs));
    }
  });

  it("without a store, the current store's (the device's)", async () => {
    const body = await conversion(RANGE, inStore(admin, storeB));
    expect(body.store).toBe(storeB);
    expect(metricsOf(body.totals)).toEqual(expected(quotesB));
  });

  it('"all": a row per store and per store and week, the chain total their sum', async () => {
    const body = await conversion(`${RANGE}&store=all`, owner);
    expect(body.store).toBeNull();
    expect(body.stores!.map((s) => s.storeCode)).toEqual(["DT", "MAIN"]);
    const row = (id: string) => body.stores!.find((s) => s.storeId === id)!;
    expect(metricsOf(row(storeA))).toEqual(expected(quotesA));
    expect(metricsOf(row(storeB))).toEqual(expected(quotesB));
    expect(metricsOf(body.totals)).toEqual(expected([...quotesA, ...quotesB]));
    expect(sumOf(body.stores!)).toEqual(metricsOf(body.totals));
    expect(sumOf(body.storeWeeks!)).toEqual(metricsOf(body.totals));
    for (const w of body.weeks) {
      expect(sumOf(body.storeWeeks!.filter((r) => r.week === w.week))).toEqual(metricsOf(w));
    }
    for (const [storeId, qs] of [[storeA, quotesA], [storeB, quotesB]] as const) {
      for (const week of REPORT_WEEKS) {
        const cell = body.storeWeeks!.find((r) => r.storeId === storeId && r.week === week);
        const own = qs.filter((q) => weekOf(q.createdAt) === week);
        expect(cell ? metricsOf(cell) : undefined).toEqual(own.length ? expected(own) : undefined);
      }
    }
  });

  it('the CSV of "all" has a store column whose stores add up to the chain', async () => {
    const res = await fetch(`${app.baseUrl}/api/reports/conversion.csv?${RANGE}&store=all`, {
      headers: { cookie: admin },
    });
    expect(res.status).toBe(200);
    const [head, ...lines] = (await res.text()).trimEnd().split("\r\n");
    expect(head.startsWith("store,week_start,from,to,optician,created,")).toBe(true);
    const rows = lines.map((l) => l.split(","));
    const created = (code: string) =>
      rows.filter((r) => r[0] === code).reduce((s, r) => s + Number(r[5]), 0);
    expect(created("MAIN")).toBe(expected(quotesA).created);
    expect(created("DT")).toBe(expected(quotesB).created);
    // One store's CSV is today's: no store column.
    const one = await fetch(`${app.baseUrl}/api/reports/conversion.csv?${RANGE}&store=${storeB}`, {
      headers: { cookie: admin },
    });
    expect((await one.text()).startsWith("week_start,")).toBe(true);
  });

  it("each store's order reports: its jobs, the money it took, its orders' balances", async () => {
    const a = await orders(`${ORDER_RANGE}&store=${storeA}`);
    const b = await orders(`${ORDER_RANGE}&store=${storeB}`);
    for (const r of [a, b]) {
      expect(r.byStore).toBe(false);
      expect(r.totals).toBeNull();
      expect(r.payments.every((p) => p.store === undefined)).toBe(true);
    }
    const amount = (r: OrderReports) => r.payments.reduce((s, p) => s + cents(p.amount), 0);
    expect(amount(a)).toBe(1000);
    expect(amount(b)).toBe(2500);
    expect(a.remakes.reduce((s, r) => s + r.remakes, 0)).toBe(0);
    expect(b.remakes.reduce((s, r) => s + r.remakes, 0)).toBeGreaterThan(0);
    const jobs = async (storeId: string) =>
      (await app.db.selectFrom("jobs").select("id").where("pickupStoreId", "=", storeId).execute())
        .length;
    expect(a.turnaround.reduce((s, t) => s + t.jobs, 0)).toBe(await jobs(storeA));
    expect(b.turnaround.reduce((s, t) => s + t.jobs, 0)).toBe(await jobs(storeB));
    expect(a.balances.length).toBe(1);
    expect(b.balances.length).toBe(1);
    expect(a.balances[0].paid).toBe("30.00"); // A's order, paid in both stores
  });

  it('the order reports of "all": a store per row, the chain totals their sums', async () => {
    const r = await orders(`${ORDER_RANGE}&store=all`);
    expect(r.byStore).toBe(true);
    const t = r.totals!;
    const sum = <T>(rows: T[], f: (row: T) => number) => rows.reduce((s, x) => s + f(x), 0);
    expect(r.payments.map((p) => [p.store, p.count, p.amount]).sort()).toEqual([
      ["DT", 2, "25.00"],
      ["MAIN", 1, "10.00"],
    ]);
    expect(t.payments).toEqual({ count: 3, amount: "35.00" });
    expect(sum(r.payments, (p) => p.count)).toBe(t.payments.count);
    expect(sum(r.payments, (p) => cents(p.amount))).toBe(cents(t.payments.amount));
    expect(sum(r.turnaround, (x) => x.jobs)).toBe(t.turnaroundJobs);
    expect(new Set(r.turnaround.map((x) => x.store))).toEqual(new Set(["MAIN", "DT"]));
    expect(sum(r.remakes, (x) => x.jobs)).toBe(t.remakes.jobs);
    expect(sum(r.remakes, (x) => x.remadeJobs)).toBe(t.remakes.remadeJobs);
    expect(sum(r.remakes, (x) => x.remakes)).toBe(t.remakes.remakes);
    expect(r.balances.map((x) => x.store).sort()).toEqual(["DT", "MAIN"]);
    expect(sum(r.balances, (x) => cents(x.balance))).toBe(cents(t.balances.balance));
    expect(sum(r.balances, (x) => cents(x.paid))).toBe(cents(t.balances.paid));
    expect(t.balances.orders).toBe(r.balances.length);

    const res = await fetch(
      `${app.baseUrl}/api/reports/orders/payments.csv?${ORDER_RANGE}&store=all`,
      {
        headers: { cookie: admin },
      },
    );
    const [head, ...lines] = (await res.text()).trimEnd().split("\r\n");
    expect(head).toBe("store,week_of,method,payments,amount");
    expect(lines.map((l) => l.split(",")[0]).sort()).toEqual(["DT", "MAIN"]);
  });

  it('refuses "all" to staff and a store admin (403), and an unknown store (400)', async () => {
    for (const path of ["/api/reports/conversion", "/api/reports/orders"]) {
      expect((await call(app, "GET", `${path}?store=all`, { cookie: staff })).status).toBe(403);
      for (const store of [crypto.randomUUID(), "nope"]) {
        const res = await call(app, "GET", `${path}?store=${store}`, { cookie: admin });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe(UNKNOWN_STORE);
      }
    }
    const storeAdmin = (await signedInUser(app.db, {
      role: "ADMIN",
      storeIds: [storeA],
      chainAdmin: false,
    })).cookie;
    const res = await call(app, "GET", "/api/reports/conversion?store=all", { cookie: storeAdmin });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(ALL_STORES_FORBIDDEN);
  });

  it("the dashboard counts the store shown: the current one, another, or all", async () => {
    const active = async (query: string, cookie: string) => {
      const res = await fetch(`${app.baseUrl}/dashboard${query}`, { headers: { cookie } });
      expect(res.status).toBe(200);
      const html = await res.text();
      return Number(/data-testid="active-quotes">(\d+)</.exec(html)![1]);
    };
    // Counted here from the quotes themselves, as migration 0016 defined the count.
    const counted = async (storeId?: string) => {
      const { rows: [r] } = await sql<{ n: string }>`select count(*) as n from quotes
        where status in ('ACTIVE', 'PENDING_MEASUREMENTS', 'EMAILED', 'ACCEPTED')
          and (expires_at is null or expires_at >= now())
          and (${storeId ?? null}::uuid is null or store_id = ${storeId ?? null}::uuid)`
        .execute(app.db);
      return Number(r.n);
    };
    expect(await counted(storeA)).not.toBe(await counted(storeB));
    expect(await active("", inStore(admin, storeA))).toBe(await counted(storeA));
    expect(await active("", inStore(admin, storeB))).toBe(await counted(storeB));
    expect(await active(`?store=${storeB}`, inStore(admin, storeA))).toBe(await counted(storeB));
    expect(await active("?store=all", owner)).toBe(await counted());
    // Staff asking for every store see their current store's instead.
    expect(await active("?store=all", inStore(staff, storeA))).toBe(await counted(storeA));
  });

  it("the page has the store select, and a Store column with a chain total for all", async () => {
    const page = async (query: string) => {
      const res = await fetch(`${app.baseUrl}/reports?${query}`, { headers: { cookie: admin } });
      expect(res.status).toBe(200);
      return await res.text();
    };
    const all = await page(`${RANGE}&store=all`);
    expect(all).toContain('id="report-store"');
    expect(all).toContain('<option value="all" selected="">All stores</option>');
    expect(all).toContain("By Store");
    expect(all).toContain("Chain total");
    expect(all).toContain(`conversion.csv?${RANGE.replace("&", "&amp;")}&amp;store=all`);
    const one = await page(`${RANGE}&store=${storeB}`);
    expect(one).not.toContain("By Store");
    expect(one).not.toContain("Chain total");
    // A store in the address that cannot be listed shows the current store instead.
    const bookmark = await page(`${RANGE}&store=${crypto.randomUUID()}`);
    expect(bookmark).not.toContain("Chain total");
  });
});

/** `n` days as an interval, for moving a job's times. */
function sqlDays(n: number) {
  return sql<Date>`make_interval(days => ${n})`;
}
