// The order reports (ADMIN/OWNER, /reports and CSV): turnaround per lab
// (ordered → ready, median and 90th percentile by month), remake rate per lab,
// payments by week and method, and the balances still owed. Months, weeks and
// days are the store's, in its time zone; money in cents.
// In a chain (issue 48) a job is its pickup store's, a payment the store that
// took it, a balance its order's store's: one store's reports, or with
// "All stores" a store column and the chain's totals (OrderReportTotals).
import { type RawBuilder, sql } from "kysely";
import type { DB } from "../db/database.ts";
import { centsToDecimal, parseCents } from "../money/amounts.ts";
import type { ReportStores } from "../reports/conversion.ts";

/** The chain's totals of the rows, store by store: counted again without the store split. */
export interface OrderReportTotals {
  turnaroundJobs: number;
  remakes: { jobs: number; remadeJobs: number; remakes: number };
  payments: { count: number; amount: string };
  balances: { orders: number; total: string; paid: string; balance: string };
}

export interface OrderReports {
  from: string;
  to: string;
  /** The one store reported on, or null: every store. */
  store: string | null;
  /** "All stores" in a chain of more than one: every row carries its `store` (code). */
  byStore: boolean;
  /** With byStore, the chain's totals, which the stores' rows add up to. */
  totals: OrderReportTotals | null;
  turnaround: Array<{
    store?: string;
    lab: string;
    month: string;
    jobs: number;
    medianDays: number;
    p90Days: number;
  }>;
  remakes: Array<
    { store?: string; lab: string; jobs: number; remadeJobs: number; remakes: number; rate: number }
  >;
  payments: Array<{ store?: string; week: string; method: string; count: number; amount: string }>;
  balances: Array<{
    store?: string;
    orderId: string;
    client: string;
    quoteNumber: string;
    total: string;
    paid: string;
    balance: string;
  }>;
}

const tz = sql`(select time_zone from settings where id = 1)`;
const round1 = (n: unknown) => Math.round(Number(n) * 10) / 10;

export async function orderReports(
  db: DB,
  range: { from: string; to: string },
  scope: ReportStores = {},
): Promise<OrderReports> {
  const byStore = scope.byStore !== undefined;
  const codes = new Map((scope.byStore ?? []).map((s) => [s.id, s.code]));
  // Each report's store column: its rows grouped and ordered by store when
  // store by store, else a constant that changes nothing.
  const storeOf = (column: RawBuilder<unknown>) => byStore ? sql`${column}::text` : sql`''`;
  const inStore = (column: RawBuilder<unknown>) =>
    scope.storeId === undefined ? sql`true` : sql`${column} = ${scope.storeId}::uuid`;
  const jobStore = sql`j.pickup_store_id`;
  const payStore = sql`p.store_id`;
  const orderStore = sql`o.store_id`;
  const code = (id: string) => (byStore ? { store: codes.get(id) ?? "?" } : {});
  // Jobs ordered on a day of the range (the store's day).
  const ordered = sql`(j.ordered_at at time zone ${tz})::date between ${range.from}::date
    and ${range.to}::date and ${inStore(jobStore)}`;
  const paid = sql`p.paid_on between ${range.from}::date and ${range.to}::date
    and ${inStore(payStore)}`;
  // What every order still owes, with its store.
  const owed = sql`select o.id, ${storeOf(orderStore)} as sid,
        c.first_name || ' ' || c.last_name as client, o.quote_number,
        (select coalesce(sum(j.total), 0) from jobs j
          where j.order_id = o.id and j.status <> 'CANCELLED') as total,
        (select coalesce(sum(p.amount), 0) from payments p where p.order_id = o.id) as paid
      from orders o join clients c on c.id = o.client_id where ${inStore(orderStore)}`;
  const turnaround = await sql<
    { sid: string; lab: string; month: string; jobs: number; median: string; p90: string }
  >`select ${storeOf(jobStore)} as sid, l.name as lab,
      to_char(j.ordered_at at time zone ${tz}, 'YYYY-MM') as month,
      count(*)::int as jobs,
      percentile_cont(0.5) within group (order by extract(epoch from j.ready_at - j.ordered_at))
        / 86400 as median,
      percentile_cont(0.9) within group (order by extract(epoch from j.ready_at - j.ordered_at))
        / 86400 as p90
    from jobs j join labs l on l.id = j.lab_id
    where j.ready_at is not null and ${ordered}
    group by sid, l.name, month order by l.name, month, sid`.execute(db);
  const remakes = await sql<
    { sid: string; lab: string; jobs: number; remadeJobs: number; remakes: number }
  >`select ${storeOf(jobStore)} as sid, l.name as lab, count(*)::int as jobs,
      (count(*) filter (where j.remake_count > 0))::int as "remadeJobs",
      coalesce(sum(j.remake_count), 0)::int as remakes
    from jobs j join labs l on l.id = j.lab_id
    where ${ordered} group by sid, l.name order by l.name, sid`.execute(db);
  const payments = await sql<
    { sid: string; week: string; method: string; count: number; amount: string }
  >`select ${storeOf(payStore)} as sid,
      to_char(date_trunc('week', p.paid_on), 'YYYY-MM-DD') as week, p.method,
      count(*)::int as count, sum(p.amount)::text as amount
    from payments p where ${paid}
    group by sid, week, p.method order by week, p.method, sid`.execute(db);
  const balances = await sql<
    {
      sid: string;
      orderId: string;
      client: string;
      quoteNumber: string;
      total: string;
      paid: string;
    }
  >`with t as (${owed})
    select sid, id as "orderId", client, quote_number as "quoteNumber", total::text as total,
      paid::text as paid
    from t where total > paid order by total - paid desc, id limit 1000`.execute(db);
  const totals = byStore ? await chainTotals(db, ordered, paid, owed) : null;
  return {
    ...range,
    store: scope.storeId ?? null,
    byStore,
    totals,
    turnaround: turnaround.rows.map((r) => ({
      ...code(r.sid),
      lab: r.lab,
      month: r.month,
      jobs: r.jobs,
      medianDays: round1(r.median),
      p90Days: round1(r.p90),
    })),
    remakes: remakes.rows.map(({ sid, ...r }) => ({
      ...code(sid),
      ...r,
      rate: remakeRate(r),
    })),
    payments: payments.rows.map(({ sid, ...r }) => ({
      ...code(sid),
      ...r,
      amount: centsToDecimal(parseCents(r.amount) ?? 0),
    })),
    balances: balances.rows.map(({ sid, ...r }) => {
      const total = parseCents(r.total) ?? 0;
      const paid = parseCents(r.paid) ?? 0;
      return {
        ...code(sid),
        ...r,
        total: centsToDecimal(total),
        paid: centsToDecimal(paid),
        balance: centsToDecimal(total - paid),
      };
    }),
  };
}

const remakeRate = (r: { jobs: number; remadeJobs: number }) =>
  r.jobs ? Math.round(r.remadeJobs / r.jobs * 1000) / 10 : 0;

/**
 * The chain's totals, counted in SQL over the same rows without the store
 * split (and the balances without the table's 1000-row cap).
 */
async function chainTotals(
  db: DB,
  ordered: RawBuilder<unknown>,
  paid: RawBuilder<unknown>,
  owed: RawBuilder<unknown>,
): Promise<OrderReportTotals> {
  const { rows: [t] } = await sql<{
    turnaroundJobs: number;
    jobs: number;
    remadeJobs: number;
    remakes: number;
    payments: number;
    amount: string;
    orders: number;
    total: string;
    paid: string;
  }>`select
      (select count(*)::int from jobs j where j.ready_at is not null and ${ordered})
        as "turnaroundJobs",
      (select count(*)::int from jobs j where ${ordered}) as jobs,
      (select (count(*) filter (where j.remake_count > 0))::int from jobs j where ${ordered})
        as "remadeJobs",
      (select coalesce(sum(j.remake_count), 0)::int from jobs j where ${ordered}) as remakes,
      (select count(*)::int from payments p where ${paid}) as payments,
      (select coalesce(sum(p.amount), 0)::text from payments p where ${paid}) as amount,
      b.orders, b.total, b.paid
    from (select count(*)::int as orders, coalesce(sum(total), 0)::text as total,
        coalesce(sum(paid), 0)::text as paid
      from (${owed}) t where total > paid) b`.execute(db);
  const total = parseCents(t.total) ?? 0;
  const paidCents = parseCents(t.paid) ?? 0;
  return {
    turnaroundJobs: t.turnaroundJobs,
    remakes: { jobs: t.jobs, remadeJobs: t.remadeJobs, remakes: t.remakes },
    payments: { count: t.payments, amount: centsToDecimal(parseCents(t.amount) ?? 0) },
    balances: {
      orders: t.orders,
      total: centsToDecimal(total),
      paid: centsToDecimal(paidCents),
      balance: centsToDecimal(total - paidCents),
    },
  };
}

/** Each report as CSV: its header and rows (lab and client names are guarded cells). */
export const ORDER_REPORT_CSV = {
  turnaround: {
    header: ["lab", "month", "jobs", "median_days", "p90_days"],
    guarded: ["lab"],
    rows: (r: OrderReports) =>
      r.turnaround.map((t) => [t.lab, t.month, t.jobs, t.medianDays, t.p90Days]),
  },
  remakes: {
    header: ["lab", "jobs", "remade_jobs", "remakes", "remake_rate_percent"],
    guarded: ["lab"],
    rows: (r: OrderReports) =>
      r.remakes.map((t) => [t.lab, t.jobs, t.remadeJobs, t.remakes, t.rate]),
  },
  payments: {
    header: ["week_of", "method", "payments", "amount"],
    guarded: [],
    rows: (r: OrderReports) => r.payments.map((t) => [t.week, t.method, t.count, t.amount]),
  },
  balances: {
    header: ["order_id", "client", "quote", "total", "paid", "balance"],
    guarded: ["client"],
    rows: (r: OrderReports) =>
      r.balances.map((t) => [t.orderId, t.client, t.quoteNumber, t.total, t.paid, t.balance]),
  },
} as const;
export type OrderReportName = keyof typeof ORDER_REPORT_CSV;

/** A report's CSV, with a store column first with "All stores" in a chain of more than one. */
export function orderReportCsv(name: OrderReportName, report: OrderReports) {
  const csv = ORDER_REPORT_CSV[name];
  const rows = csv.rows(report) as (string | number)[][];
  if (!report.byStore) {
    return { header: csv.header as readonly string[], rows, guarded: csv.guarded };
  }
  const stores = (report[name] as { store?: string }[]).map((r) => r.store ?? "");
  return {
    header: ["store", ...csv.header] as readonly string[],
    rows: rows.map((row, i) => [stores[i], ...row]),
    guarded: csv.guarded,
  };
}
