// The dashboard's statements: its counts and lists in one round trip, kept
// between views while nothing they read is written. In a chain of more than
// one store they are one store's (`storeId`: its quotes, the clients who
// registered there) or, undefined, every store's, as in a chain of one.
import { sql } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import type { DB } from "../db/database.ts";
import { readThrough } from "../db/read_through.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import { QUOTE_STATUSES } from "./rules.ts";
import type { QuoteSummary, Stats } from "./views.ts";

/**
 * A quote's total for lists: the chosen options' totals added up when the
 * client chose any, else the first option's total.
 */
const quoteTotal = sql<string>`coalesce(
  (select sum(o.subtotal + o.shipping + o.adjustment_amount) from quote_options o
    where o.quote_id = quotes.id and o.is_chosen),
  (select o.subtotal + o.shipping + o.adjustment_amount from quote_options o
    where o.quote_id = quotes.id order by o.position limit 1),
  0)::numeric(12,2)::text`;

function summaries(db: DB) {
  return db.selectFrom("quotes").innerJoin("clients", "clients.id", "quotes.clientId").select([
    "quotes.id",
    "quotes.clientId",
    sql<string>`clients.first_name || ' ' || clients.last_name`.as("clientName"),
    "quotes.quoteNumber",
    "quotes.status",
    quoteTotal.as("total"),
    "quotes.opticianName",
    "quotes.createdAt",
    "quotes.expiresAt",
  ]);
}

type SummaryRow = Omit<QuoteSummary, "createdAt" | "expiresAt"> & {
  createdAt: Date;
  expiresAt: Date | null;
};
const toSummary = (r: SummaryRow): QuoteSummary => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  expiresAt: r.expiresAt?.toISOString() ?? null,
});

export const DASHBOARD_LIST_SIZE = 5;
/** Statuses counted as active work on the dashboard (when not expired). */
export const ACTIVE_STATUSES: QuoteStatus[] = [
  "ACTIVE",
  "PENDING_MEASUREMENTS",
  "EMAILED",
  "ACCEPTED",
];

/** Only `storeId`'s rows of `column` when a store is given; every row otherwise. */
// deno-lint-ignore no-explicit-any
const inStore = <Q extends { where: (...args: any[]) => Q }>(
  q: Q,
  column: string,
  storeId: string | undefined,
): Q => (storeId === undefined ? q : q.where(column, "=", storeId));

const recentQuotes = (db: DB, limit: number, storeId?: string) =>
  inStore(summaries(db), "quotes.storeId", storeId).orderBy("quotes.updatedAt", "desc")
    .orderBy("quotes.id", "desc").limit(limit);

const expiredQuotes = (db: DB, limit: number, now: Date, storeId?: string) =>
  inStore(summaries(db), "quotes.storeId", storeId).where("quotes.status", "!=", "CLOSED")
    .where("quotes.expiresAt", "<", now).orderBy("quotes.expiresAt", "desc")
    .orderBy("quotes.id", "desc").limit(limit);

/** Every status but CLOSED. */
const OPEN_STATUSES = QUOTE_STATUSES.filter((s) => s !== "CLOSED");

/** The UTC day of `now` and its first instant: the buckets of quote_expiry_counts. */
function utcDay(now: Date): { day: string; start: Date } {
  const start = new Date(now);
  start.setUTCHours(0, 0, 0, 0);
  return { day: start.toISOString().slice(0, 10), start };
}

/**
 * Open quotes past their expiry: the per-day counts of the days before today
 * (migration 0016 keeps them) plus today's expired quotes, read off the expiry
 * index. Constant work however many quotes expired over the years.
 */
const expiredCount = (db: DB, now: Date, storeId?: string) => {
  const { day, start } = utcDay(now);
  // The statuses by name, not `<> 'CLOSED'`, so the counts' primary key can
  // serve the sum where that is cheaper than reading the small table whole
  // (for the days before today, most of its rows, the planner reads it whole).
  const before = inStore(
    db.selectFrom("quoteExpiryCounts").select(sql<string>`coalesce(sum(n), 0)`.as("n")),
    "storeId",
    storeId,
  ).where("status", "in", OPEN_STATUSES).where("expiresOn", "<", sql<string>`${day}::date`);
  const today = inStore(
    db.selectFrom("quotes").select((eb) => eb.fn.countAll<string>().as("n")),
    "storeId",
    storeId,
  ).where("status", "!=", "CLOSED").where("expiresAt", ">=", start).where("expiresAt", "<", now);
  return db.selectNoFrom(sql<string>`((${before}) + (${today}))::bigint`.as("n"));
};

export async function listRecentQuotes(db: DB, limit = DASHBOARD_LIST_SIZE) {
  const rows = await recentQuotes(db, limit).execute();
  return rows.map(toSummary);
}

export async function listExpiredQuotes(db: DB, limit = DASHBOARD_LIST_SIZE, now = new Date()) {
  const rows = await expiredQuotes(db, limit, now).execute();
  return rows.map(toSummary);
}

export async function countExpiredQuotes(db: DB, now = new Date()): Promise<number> {
  const row = await expiredCount(db, now).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Today starts at local midnight of the server's time zone (TZ). */
export function startOfToday(now = new Date()): Date {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d;
}

/**
 * Open work that has not expired: the per-day counts from today on (no expiry
 * is the day 'infinity') less today's quotes that already expired, read off
 * the active expiry index.
 */
const activeCount = (db: DB, now: Date, storeId?: string) => {
  const { day, start } = utcDay(now);
  const fromToday = inStore(
    db.selectFrom("quoteExpiryCounts").select(sql<string>`coalesce(sum(n), 0)`.as("n")),
    "storeId",
    storeId,
  ).where("status", "in", ACTIVE_STATUSES).where("expiresOn", ">=", sql<string>`${day}::date`);
  const expiredToday = inStore(
    db.selectFrom("quotes").select((eb) => eb.fn.countAll<string>().as("n")),
    "storeId",
    storeId,
  ).where("status", "in", ACTIVE_STATUSES)
    .where("expiresAt", ">=", start).where("expiresAt", "<", now);
  return db.selectNoFrom(sql<string>`((${fromToday}) - (${expiredToday}))::bigint`.as("n"));
};

// Bounded on both sides (no client is created tomorrow): a closed range is
// what the planner, without statistics yet, reads through the index.
// A store's new clients are those who registered there (their home store).
const newClientsCount = (db: DB, now: Date, storeId?: string) => {
  const today = startOfToday(now);
  const tomorrow = new Date(today);
  tomorrow.setDate(tomorrow.getDate() + 1);
  return inStore(
    db.selectFrom("clients").select((eb) => eb.fn.countAll<string>().as("n")),
    "homeStoreId",
    storeId,
  ).where("createdAt", ">=", today).where("createdAt", "<", tomorrow);
};

export async function findStats(db: DB, now = new Date()): Promise<Stats> {
  const [active, clients] = await Promise.all([
    activeCount(db, now).executeTakeFirstOrThrow(),
    newClientsCount(db, now).executeTakeFirstOrThrow(),
  ]);
  return { activeQuotes: Number(active.n), newClients: Number(clients.n) };
}

/** Everything the dashboard shows. */
export interface Dashboard {
  stats: Stats;
  recent: QuoteSummary[];
  expired: QuoteSummary[];
  expiredCount: number;
  /** "Accepted online": the newest quotes clients accepted from the e-mail's link. */
  acceptedOnline: AcceptedOnline[];
}

/** JSON hands timestamps back as text; the summaries carry them as ISO strings. */
type JsonSummary = Omit<QuoteSummary, "createdAt" | "expiresAt"> & {
  createdAt: string;
  expiresAt: string | null;
};
const fromJson = (r: JsonSummary): QuoteSummary => ({
  ...r,
  createdAt: new Date(r.createdAt).toISOString(),
  expiresAt: r.expiresAt ? new Date(r.expiresAt).toISOString() : null,
});

/**
 * The dashboard in one round trip: the same counts and lists as findStats,
 * listRecentQuotes, listExpiredQuotes and countExpiredQuotes, as subqueries of
 * one statement. The lists are served by indexes of migration 0015, the two
 * counts by the per-day counts of migration 0016 and today's part of those
 * indexes (tests/api/hot_plan_test.ts checks the plans).
 */
export function dashboardParts(db: DB, now = new Date(), storeId?: string) {
  return {
    activeQuotes: activeCount(db, now, storeId),
    newClients: newClientsCount(db, now, storeId),
    expiredCount: expiredCount(db, now, storeId),
    recent: recentQuotes(db, DASHBOARD_LIST_SIZE, storeId),
    expired: expiredQuotes(db, DASHBOARD_LIST_SIZE, now, storeId),
    acceptedOnline: acceptedOnlineQuotes(db, DASHBOARD_LIST_SIZE, storeId),
  };
}

/** One quote a client accepted online, newest first on the dashboard. */
export interface AcceptedOnline {
  id: string;
  clientName: string;
  quoteNumber: string;
  signerName: string;
  acceptedAt: string;
}

/** The newest online acceptances (migration 0023's index on accepted_at). */
function acceptedOnlineQuotes(db: DB, limit: number, storeId?: string) {
  const q = db.selectFrom("quoteAcceptances")
    .innerJoin("quotes", "quotes.id", "quoteAcceptances.quoteId");
  return inStore(q, "quotes.storeId", storeId)
    .select([
      "quotes.id",
      "quotes.clientName",
      "quotes.quoteNumber",
      "quoteAcceptances.signerName",
      "quoteAcceptances.acceptedAt",
    ])
    .orderBy("quoteAcceptances.acceptedAt", "desc").limit(limit);
}

export async function listAcceptedOnline(
  db: DB,
  limit = DASHBOARD_LIST_SIZE,
): Promise<AcceptedOnline[]> {
  const rows = await acceptedOnlineQuotes(db, limit).execute();
  return rows.map((r) => ({ ...r, acceptedAt: new Date(r.acceptedAt).toISOString() }));
}

export function dashboardQuery(db: DB, now = new Date(), storeId?: string) {
  const parts = dashboardParts(db, now, storeId);
  return db.selectNoFrom([
    parts.activeQuotes.as("activeQuotes"),
    parts.newClients.as("newClients"),
    parts.expiredCount.as("expiredCount"),
    jsonArrayFrom(parts.recent).as("recent"),
    jsonArrayFrom(parts.expired).as("expired"),
    jsonArrayFrom(parts.acceptedOnline).as("acceptedOnline"),
  ]);
}

export async function loadDashboard(
  db: DB,
  now = new Date(),
  storeId?: string,
): Promise<Dashboard> {
  const row = await dashboardQuery(db, now, storeId).executeTakeFirstOrThrow();
  return {
    stats: { activeQuotes: Number(row.activeQuotes), newClients: Number(row.newClients) },
    recent: (row.recent as JsonSummary[]).map(fromJson),
    expired: (row.expired as JsonSummary[]).map(fromJson),
    expiredCount: Number(row.expiredCount),
    acceptedOnline: (row.acceptedOnline as AcceptedOnline[]).map((r) => ({
      ...r,
      acceptedAt: new Date(r.acceptedAt).toISOString(),
    })),
  };
}

/** What the dashboard reads (quote_expiry_counts is kept by triggers on quotes). */
const DASHBOARD_TABLES = ["quotes", "quote_options", "clients", "quote_acceptances"];

/**
 * The dashboard as every staff member sees it, kept between views while no
 * quote, option or client is written (src/db/read_through.ts) and for at most
 * a second: quotes expire with time alone, and the counts show that at most a
 * second late.
 */
export function readDashboard(db: DB, storeId?: string): Promise<Dashboard> {
  return readThrough(db, {
    key: storeId === undefined ? "dashboard" : `dashboard:${storeId}`,
    tables: DASHBOARD_TABLES,
    maxAgeMs: 1_000,
    load: () => loadDashboard(db, new Date(), storeId),
  });
}
