// The order reports (ADMIN/OWNER, /reports and CSV): turnaround per lab
// (ordered → ready, median and 90th percentile by month), remake rate per lab,
// payments by week and method, and the balances still owed. Months, weeks and
// days are the store's, in its time zone; money in cents.
import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import { centsToDecimal, parseCents } from "../quotes/money.ts";

export interface OrderReports {
  from: string;
  to: string;
  turnaround: Array<{
    lab: string;
    month: string;
    jobs: number;
    medianDays: number;
    p90Days: number;
  }>;
  remakes: Array<{ lab: string; jobs: number; remadeJobs: number; remakes: number; rate: number }>;
  payments: Array<{ week: string; method: string; count: number; amount: string }>;
  balances: Array<{
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
): Promise<OrderReports> {
  // Jobs ordered on a day of the range (the store's day).
  const ordered = sql`(j.ordered_at at time zone ${tz})::date between ${range.from}::date
    and ${range.to}::date`;
  const turnaround = await sql<
    { lab: string; month: string; jobs: number; median: string; p90: string }
  >`select l.name as lab, to_char(j.ordered_at at time zone ${tz}, 'YYYY-MM') as month,
      count(*)::int as jobs,
      percentile_cont(0.5) within group (order by extract(epoch from j.ready_at - j.ordered_at))
        / 86400 as median,
      percentile_cont(0.9) within group (order by extract(epoch from j.ready_at - j.ordered_at))
        / 86400 as p90
    from jobs j join labs l on l.id = j.lab_id
    where j.ready_at is not null and ${ordered}
    group by l.name, month order by l.name, month`.execute(db);
  const remakes = await sql<
    { lab: string; jobs: number; remadeJobs: number; remakes: number }
  >`select l.name as lab, count(*)::int as jobs,
      (count(*) filter (where j.remake_count > 0))::int as "remadeJobs",
      coalesce(sum(j.remake_count), 0)::int as remakes
    from jobs j join labs l on l.id = j.lab_id
    where ${ordered} group by l.name order by l.name`.execute(db);
  const payments = await sql<{ week: string; method: string; count: number; amount: string }>`
    select to_char(date_trunc('week', p.paid_on), 'YYYY-MM-DD') as week, p.method,
      count(*)::int as count, sum(p.amount)::text as amount
    from payments p where p.paid_on between ${range.from}::date and ${range.to}::date
    group by week, p.method order by week, p.method`.execute(db);
  const balances = await sql<
    { orderId: string; client: string; quoteNumber: string; total: string; paid: string }
  >`with t as (
      select o.id, c.first_name || ' ' || c.last_name as client, o.quote_number,
        (select coalesce(sum(j.total), 0) from jobs j
          where j.order_id = o.id and j.status <> 'CANCELLED') as total,
        (select coalesce(sum(p.amount), 0) from payments p where p.order_id = o.id) as paid
      from orders o join clients c on c.id = o.client_id)
    select id as "orderId", client, quote_number as "quoteNumber", total::text as total,
      paid::text as paid
    from t where total > paid order by total - paid desc, id limit 1000`.execute(db);
  return {
    ...range,
    turnaround: turnaround.rows.map((r) => ({
      lab: r.lab,
      month: r.month,
      jobs: r.jobs,
      medianDays: round1(r.median),
      p90Days: round1(r.p90),
    })),
    remakes: remakes.rows.map((r) => ({
      ...r,
      rate: r.jobs ? Math.round(r.remadeJobs / r.jobs * 1000) / 10 : 0,
    })),
    payments: payments.rows.map((r) => ({
      ...r,
      amount: centsToDecimal(parseCents(r.amount) ?? 0),
    })),
    balances: balances.rows.map((r) => {
      const total = parseCents(r.total) ?? 0;
      const paid = parseCents(r.paid) ?? 0;
      return {
        ...r,
        total: centsToDecimal(total),
        paid: centsToDecimal(paid),
        balance: centsToDecimal(total - paid),
      };
    }),
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
