// The dashboard's orders panel: late jobs, ready jobs waiting more than the
// store's N days (for a call), and today's pickups, counted and listed (the
// first few of each) in one statement, kept between requests like the rest
// of the dashboard. "Today" and "late" are the store's, in its time zone. In a
// chain of more than one store, one store's (`storeId`): the jobs whose
// glasses go there, in its time zone; undefined is every store's.
import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import { readThrough } from "../db/read_through.ts";

export const ORDERS_DASHBOARD_LIST_SIZE = 5;

export interface DashboardJob {
  jobId: string;
  orderId: string;
  jobNumber: string;
  clientName: string;
  /** YYYY-MM-DD: promised (late), ready since (waiting) or picked up (today). */
  day: string;
}

export interface OrdersDashboard {
  late: { count: number; jobs: DashboardJob[] };
  waiting: { count: number; jobs: DashboardJob[]; days: number };
  pickups: { count: number; jobs: DashboardJob[] };
}

const OPEN = sql.raw(`('ORDERED', 'SENT_TO_LAB', 'RECEIVED', 'CHECKED', 'REMAKE')`);

export async function loadOrdersDashboard(
  db: DB,
  now: Date,
  storeId?: string,
): Promise<OrdersDashboard> {
  const inStore = storeId === undefined ? sql`true` : sql`j.pickup_store_id = ${storeId}::uuid`;
  // The store's own time zone where it sets one, else the chain's.
  const tz = storeId === undefined
    ? sql`time_zone`
    : sql`coalesce((select st.time_zone from stores st where st.id = ${storeId}::uuid), time_zone)`;
  const list = (where: ReturnType<typeof sql>, day: ReturnType<typeof sql>, order: string) =>
    sql`(select coalesce(jsonb_agg(x), '[]'::jsonb) from (
      select j.id as "jobId", j.order_id as "orderId", j.job_number as "jobNumber",
        c.first_name || ' ' || c.last_name as "clientName", to_char(${day}, 'YYYY-MM-DD') as day
      from jobs j join orders o on o.id = j.order_id join clients c on c.id = o.client_id, s
      where ${where} and ${inStore} order by ${
      sql.raw(order)
    } limit ${ORDERS_DASHBOARD_LIST_SIZE}) x)`;
  const late = sql`j.status in ${OPEN} and j.promised_date < s.today`;
  const waiting = sql`j.status = 'READY' and j.ready_at <= s.waiting_since`;
  const pickups =
    sql`j.status = 'PICKED_UP' and (j.picked_up_at at time zone s.tz)::date = s.today`;
  const count = (where: ReturnType<typeof sql>) =>
    sql`(select count(*)::int from jobs j, s where ${where} and ${inStore})`;
  const { rows } = await sql<{
    lateCount: number;
    lateJobs: DashboardJob[];
    waitingCount: number;
    waitingJobs: DashboardJob[];
    waitingDays: number;
    pickupsCount: number;
    pickupsJobs: DashboardJob[];
  }>`with s as (
      select ${tz} as tz, ready_waiting_days as days,
        (${now}::timestamptz at time zone ${tz})::date as today,
        ${now}::timestamptz - make_interval(days => ready_waiting_days) as waiting_since
      from settings where id = 1)
    select ${count(late)} as "lateCount",
      ${list(late, sql`j.promised_date`, "j.promised_date, j.job_number")} as "lateJobs",
      ${count(waiting)} as "waitingCount",
      ${list(waiting, sql`j.ready_at at time zone s.tz`, "j.ready_at, j.job_number")}
        as "waitingJobs",
      (select days from s) as "waitingDays",
      ${count(pickups)} as "pickupsCount",
      ${list(pickups, sql`j.picked_up_at at time zone s.tz`, "j.picked_up_at desc")}
        as "pickupsJobs"`.execute(db);
  const r = rows[0];
  return {
    late: { count: r.lateCount, jobs: r.lateJobs },
    waiting: { count: r.waitingCount, jobs: r.waitingJobs, days: r.waitingDays },
    pickups: { count: r.pickupsCount, jobs: r.pickupsJobs },
  };
}

export function readOrdersDashboard(
  db: DB,
  now: Date,
  storeId?: string,
): Promise<OrdersDashboard> {
  return readThrough(db, {
    key: storeId === undefined ? "orders-dashboard" : `orders-dashboard:${storeId}`,
    tables: ["jobs", "orders", "clients", "settings", "stores"],
    // Lateness changes with time alone: kept a second at most.
    maxAgeMs: 1_000,
    load: () => loadOrdersDashboard(db, now, storeId),
  });
}
