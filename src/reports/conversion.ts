// The conversion report: what became of the quotes created in each week.
//
// Every metric is counted by the week the quote was CREATED (a cohort), so a
// week's conversion rate compares like with like: of the quotes made that
// week, how many were won. Weeks start on Monday in the store's time zone (TZ).
import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import { centsToDecimal, parseCents } from "../money/amounts.ts";
import { dayOf, endOfDay, startOfDay } from "../schemas/date_range.ts";

export interface Metrics {
  /** Quotes created in the period. */
  created: number;
  /** Of those, confirmed by the client on the tablet at some point. */
  accepted: number;
  /** Of those, finalized at some point. */
  finalized: number;
  /** Of those, closed now. */
  closed: number;
  /** Of those, past their expiry now and neither closed nor finalized. */
  expired: number;
  /** Won: accepted or finalized (or both). */
  won: number;
  /** The won quotes' totals added up, as a decimal string. */
  wonValue: string;
  /** won ÷ created as a percentage with one decimal ("41.7"), null when nothing was created. */
  conversionRate: string | null;
  /** wonValue ÷ won, rounded half up to the cent, null when nothing was won. */
  averageAcceptedValue: string | null;
}

export interface WeekRow extends Metrics {
  /** Monday of the week (YYYY-MM-DD). */
  week: string;
  /** The days of that week inside the chosen range. */
  from: string;
  to: string;
}

export interface OpticianRow extends Metrics {
  optician: string;
}

export interface CellRow extends Metrics {
  week: string;
  from: string;
  to: string;
  optician: string;
  /** The store's code, with "All stores" in a chain of more than one (else absent). */
  store?: string;
}

/** A store of the chain as the reports name it. */
export interface ReportStore {
  id: string;
  code: string;
  name: string | null;
  /** An inactive store has a row only when it has figures. */
  active: boolean;
}

/** One store's figures for the whole range ("All stores" in a chain of more than one). */
export interface StoreRow extends Metrics {
  storeId: string;
  storeCode: string;
  storeName: string | null;
}

/** One store's figures for one week. */
export interface StoreWeekRow extends StoreRow {
  week: string;
  from: string;
  to: string;
}

export interface ConversionReport {
  from: string;
  to: string;
  /** The optician filter as chosen, or null for everyone. */
  optician: string | null;
  /** The one store reported on, or null: every store (a one-store chain's only one). */
  store: string | null;
  /**
   * "All stores" in a chain of more than one: each store's row for the range
   * (every active store, and any other with quotes in it), by code; their
   * sum is `totals`, the chain's. Null otherwise.
   */
  stores: StoreRow[] | null;
  /** The same per week: a row per store and week with quotes, by week then code. */
  storeWeeks: StoreWeekRow[] | null;
  weeks: WeekRow[];
  opticians: OpticianRow[];
  /** One row per week and optician with quotes: the CSV export. */
  cells: CellRow[];
  totals: Metrics;
}

/** Quotes never saved have no optician name yet; they are reported under this. */
export const NO_OPTICIAN = "No optician yet";
export const MAX_REPORT_DAYS = 731;

const DAY_MS = 86_400_000;

/** Monday 00:00 (local) of the week holding `day`. */
export function mondayOf(day: string): string {
  const d = startOfDay(day);
  const back = (d.getDay() + 6) % 7;
  return dayOf(new Date(d.getFullYear(), d.getMonth(), d.getDate() - back));
}

/** The weeks touching [from, to], each cut to the range. */
export function weeksOf(from: string, to: string): { week: string; from: string; to: string }[] {
  const weeks = [];
  for (let monday = mondayOf(from); monday <= to;) {
    const m = startOfDay(monday);
    const sunday = dayOf(new Date(m.getFullYear(), m.getMonth(), m.getDate() + 6));
    weeks.push({
      week: monday,
      from: monday < from ? from : monday,
      to: sunday > to ? to : sunday,
    });
    monday = dayOf(new Date(m.getFullYear(), m.getMonth(), m.getDate() + 7));
  }
  return weeks;
}

/** The default range: the last 12 weeks, this one included, up to today. */
export function defaultRange(now = new Date()): { from: string; to: string } {
  const today = dayOf(now);
  const monday = startOfDay(mondayOf(today));
  return {
    from: dayOf(new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() - 77)),
    to: today,
  };
}

export function rangeDays(from: string, to: string): number {
  return Math.round((startOfDay(to).getTime() - startOfDay(from).getTime()) / DAY_MS) + 1;
}

interface Counts {
  created: number;
  accepted: number;
  finalized: number;
  closed: number;
  expired: number;
  won: number;
  wonCents: number;
}

const zero = (): Counts => ({
  created: 0,
  accepted: 0,
  finalized: 0,
  closed: 0,
  expired: 0,
  won: 0,
  wonCents: 0,
});

function add(into: Counts, c: Counts) {
  into.created += c.created;
  into.accepted += c.accepted;
  into.finalized += c.finalized;
  into.closed += c.closed;
  into.expired += c.expired;
  into.won += c.won;
  into.wonCents += c.wonCents;
}

/** Integer division rounded half up, in BigInt so no float touches money. */
export function averageCents(totalCents: number, count: number): number {
  const t = BigInt(totalCents);
  const n = BigInt(count);
  return Number((2n * t + n) / (2n * n));
}

/** won ÷ created as "41.7" (per mille rounded half up, then one decimal). */
export function ratePercent(won: number, created: number): string | null {
  if (created === 0) return null;
  const perMille = Number((2000n * BigInt(won) + BigInt(created)) / (2n * BigInt(created)));
  return `${Math.trunc(perMille / 10)}.${perMille % 10}`;
}

function metrics(c: Counts): Metrics {
  return {
    created: c.created,
    accepted: c.accepted,
    finalized: c.finalized,
    closed: c.closed,
    expired: c.expired,
    won: c.won,
    wonValue: centsToDecimal(c.wonCents),
    conversionRate: ratePercent(c.won, c.created),
    averageAcceptedValue: c.won ? centsToDecimal(averageCents(c.wonCents, c.won)) : null,
  };
}

/** The optician filter's choices: every name on a quote, one per spelling-insensitive name. */
export async function listReportOpticians(db: DB): Promise<string[]> {
  const rows = await db.selectFrom("quotes")
    .select(sql<string>`min(btrim(optician_name))`.as("name"))
    .where(sql`btrim(optician_name)`, "<>", "")
    .groupBy(sql`lower(btrim(optician_name))`)
    .orderBy(sql`lower(btrim(optician_name))`)
    .execute();
  return rows.map((r) => r.name);
}

/**
 * Which stores a report covers: one (`storeId`), or every store, either as
 * one (a one-store chain: no filter, no store column) or, given `byStore`
 * (the chain's stores, "All stores" in a chain of more than one), store by
 * store with the chain's total.
 */
export interface ReportStores {
  storeId?: string;
  byStore?: ReportStore[];
}

/**
 * The report for [from, to] (whole days, inclusive), optionally for one
 * optician (matched case-insensitively; NO_OPTICIAN for quotes without one).
 * Counting happens in SQL per week and optician (and store, store by store);
 * money is summed as NUMERIC there and as integer cents here.
 */
export async function conversionReport(
  db: DB,
  range: { from: string; to: string; optician?: string | null },
  now = new Date(),
  scope: ReportStores = {},
): Promise<ConversionReport> {
  const weeks = weeksOf(range.from, range.to);
  const buckets = weeks.map((w, i) =>
    sql`(${i}::int, ${startOfDay(w.from).toISOString()}::text::timestamptz, ${
      endOfDay(w.to).toISOString()
    }::text::timestamptz)`
  );
  const optician = range.optician?.trim() || null;
  const opticianFilter = optician === null
    ? sql``
    : optician === NO_OPTICIAN
    ? sql`WHERE btrim(q.optician_name) = ''`
    : sql`WHERE lower(btrim(q.optician_name)) = lower(${optician})`;
  // A quote belongs to the store it was made in (quotes.store_id).
  const storeFilter = scope.storeId === undefined
    ? sql``
    : sql`${optician === null ? sql`WHERE` : sql`AND`} q.store_id = ${scope.storeId}::uuid`;
  const byStore = scope.byStore !== undefined;
  const storeKey = byStore ? sql`q.store_id::text` : sql`NULL::text`;
  // A quote's value as lists show it: its chosen options' totals, else its first option's.
  const result = await sql<{
    n: number;
    sid: string | null;
    optician: string;
    created: string;
    accepted: string;
    finalized: string;
    closed: string;
    expired: string;
    won: string;
    wonValue: string;
  }>`
    WITH w (n, lo, hi) AS (VALUES ${sql.join(buckets)}),
    q AS (
      SELECT w.n, ${storeKey} AS sid, lower(btrim(q.optician_name)) AS okey, btrim(q.optician_name) AS oname,
        q.accepted_at IS NOT NULL AS accepted,
        q.finalized_at IS NOT NULL AS finalized,
        q.status = 'CLOSED' AS closed,
        q.status NOT IN ('CLOSED', 'FINALIZED') AND q.expires_at < ${now.toISOString()}::text::timestamptz
          AS expired,
        CASE WHEN q.accepted_at IS NOT NULL OR q.finalized_at IS NOT NULL THEN coalesce(
          (SELECT sum(o.subtotal + o.shipping + o.adjustment_amount) FROM quote_options o
            WHERE o.quote_id = q.id AND o.is_chosen),
          (SELECT o.subtotal + o.shipping + o.adjustment_amount FROM quote_options o
            WHERE o.quote_id = q.id ORDER BY o.position LIMIT 1),
          0) END AS total
      FROM w JOIN quotes q ON q.created_at >= w.lo AND q.created_at < w.hi
      ${opticianFilter} ${storeFilter}
    )
    SELECT n, sid, min(oname) AS optician,
      count(*)::text AS created,
      count(*) FILTER (WHERE accepted)::text AS accepted,
      count(*) FILTER (WHERE finalized)::text AS finalized,
      count(*) FILTER (WHERE closed)::text AS closed,
      count(*) FILTER (WHERE expired)::text AS expired,
      count(*) FILTER (WHERE accepted OR finalized)::text AS won,
      coalesce(sum(total), 0)::numeric(14,2)::text AS won_value
    FROM q GROUP BY n, sid, okey ORDER BY n, okey, sid`.execute(db);

  const byWeek = weeks.map(zero);
  const byOptician = new Map<string, { name: string; counts: Counts }>();
  const totals = zero();
  const cells: CellRow[] = [];
  const known = new Map((scope.byStore ?? []).map((s) => [s.id, s]));
  const storeOf = (id: string) => known.get(id) ?? { id, code: "?", name: null };
  const byStoreTotal = new Map(
    (scope.byStore ?? []).filter((s) => s.active).map((s) => [s.id, zero()]),
  );
  const byStoreWeek = new Map<string, Counts>();
  for (const row of result.rows) {
    const counts: Counts = {
      created: Number(row.created),
      accepted: Number(row.accepted),
      finalized: Number(row.finalized),
      closed: Number(row.closed),
      expired: Number(row.expired),
      won: Number(row.won),
      wonCents: parseCents(row.wonValue) ?? 0,
    };
    const name = row.optician || NO_OPTICIAN;
    const key = name.toLowerCase();
    add(byWeek[row.n], counts);
    add(totals, counts);
    const entry = byOptician.get(key) ?? { name, counts: zero() };
    add(entry.counts, counts);
    byOptician.set(key, entry);
    if (row.sid === null) {
      cells.push({ ...weeks[row.n], optician: name, ...metrics(counts) });
      continue;
    }
    cells.push({
      ...weeks[row.n],
      optician: name,
      store: storeOf(row.sid).code,
      ...metrics(counts),
    });
    const total = byStoreTotal.get(row.sid) ?? zero();
    add(total, counts);
    byStoreTotal.set(row.sid, total);
    const cell = `${row.n}~${row.sid}`;
    const week = byStoreWeek.get(cell) ?? zero();
    add(week, counts);
    byStoreWeek.set(cell, week);
  }
  const storeRow = (id: string, counts: Counts): StoreRow => {
    const store = storeOf(id);
    return { storeId: id, storeCode: store.code, storeName: store.name, ...metrics(counts) };
  };
  const byCode = (a: StoreRow, b: StoreRow) => a.storeCode.localeCompare(b.storeCode);
  return {
    from: range.from,
    to: range.to,
    optician,
    store: scope.storeId ?? null,
    stores: byStore
      ? [...byStoreTotal].map(([id, counts]) => storeRow(id, counts)).sort(byCode)
      : null,
    storeWeeks: byStore
      ? [...byStoreWeek].map(([key, counts]) => {
        const [n, id] = key.split("~");
        return { ...weeks[Number(n)], ...storeRow(id, counts) };
      }).sort((a, b) => a.week.localeCompare(b.week) || byCode(a, b))
      : null,
    weeks: weeks.map((w, i) => ({ ...w, ...metrics(byWeek[i]) })),
    opticians: [...byOptician.values()]
      .sort((a, b) => b.counts.created - a.counts.created || a.name.localeCompare(b.name))
      .map((o) => ({ optician: o.name, ...metrics(o.counts) })),
    cells,
    totals: metrics(totals),
  };
}

export const REPORT_CSV_HEADER = [
  "week_start",
  "from",
  "to",
  "optician",
  "created",
  "accepted",
  "finalized",
  "closed",
  "expired",
  "won",
  "conversion_rate_percent",
  "won_value",
  "average_accepted_value",
] as const;

/** The CSV's columns: a store column first with "All stores" in a chain of more than one. */
export function reportCsvHeader(report: ConversionReport): readonly string[] {
  return report.stores ? ["store", ...REPORT_CSV_HEADER] : REPORT_CSV_HEADER;
}

export function reportCsvRows(report: ConversionReport) {
  return report.cells.map((c) => [
    ...(report.stores ? [c.store ?? ""] : []),
    c.week,
    c.from,
    c.to,
    c.optician,
    c.created,
    c.accepted,
    c.finalized,
    c.closed,
    c.expired,
    c.won,
    c.conversionRate ?? "",
    c.wonValue,
    c.averageAcceptedValue ?? "",
  ]);
}
