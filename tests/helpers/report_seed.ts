// A store with known quotes for the conversion report tests (HTTP and
// browser): each quote is written directly with its dates and outcome, and
// the expected numbers are computed here from that same list, not by the app.
import type { DB } from "../../src/db/database.ts";
import type { QuoteStatus } from "../../db/schema.ts";

export interface SeedQuote {
  createdAt: Date;
  optician: string;
  status: QuoteStatus;
  acceptedAt: Date | null;
  finalizedAt: Date | null;
  expiresAt: Date | null;
  /** Each option: subtotal, shipping, adjustment (decimal strings) and chosen. */
  options: { subtotal: string; shipping: string; adjustment: string; chosen: boolean }[];
}

const day = (y: number, m: number, d: number, h = 10, min = 0) => new Date(y, m - 1, d, h, min);

/** Four weeks from Monday 2025-01-06 to Sunday 2025-02-02, plus quotes just outside. */
export const REPORT_RANGE = { from: "2025-01-06", to: "2025-02-02" };
export const REPORT_WEEKS = ["2025-01-06", "2025-01-13", "2025-01-20", "2025-01-27"];

/** Deterministic pseudo-random numbers, so the store is the same every run. */
function lcg(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

export function reportQuotes(): SeedQuote[] {
  const rnd = lcg(42);
  const opticians = ["Maria Lopez", "maria lopez ", "Sam Chen", ""];
  const quotes: SeedQuote[] = [];
  // Just outside the range on both sides: never counted.
  const outside = [day(2025, 1, 5, 23, 59), day(2025, 2, 3, 0, 0)];
  // Exactly on the edges of the range and of a week: counted.
  const edges = [day(2025, 1, 6, 0, 0), day(2025, 1, 12, 23, 59), day(2025, 2, 2, 23, 59)];
  const dates = [...outside, ...edges];
  for (let i = 0; i < 45; i++) {
    dates.push(day(2025, 1, 6 + Math.floor(rnd() * 28), 8 + Math.floor(rnd() * 10)));
  }
  for (const [i, createdAt] of dates.entries()) {
    const r = rnd();
    const later = (days: number) => new Date(createdAt.getTime() + days * 86_400_000);
    let status: QuoteStatus = "ACTIVE";
    let acceptedAt: Date | null = null;
    let finalizedAt: Date | null = null;
    if (r < 0.2) {
      status = "ACCEPTED";
      acceptedAt = later(2);
    } else if (r < 0.35) {
      status = "FINALIZED";
      acceptedAt = later(1);
      finalizedAt = later(3);
    } else if (r < 0.45) {
      status = "FINALIZED"; // finalized without a tablet confirmation
      finalizedAt = later(2);
    } else if (r < 0.55) {
      status = "CLOSED"; // accepted, then closed: still won
      acceptedAt = later(1);
    } else if (r < 0.7) {
      status = "CLOSED";
    } else if (r < 0.8) {
      status = "DRAFT";
    } else if (r < 0.9) {
      status = "EMAILED";
    }
    // Some have expired by now, some expire years from now, some never do.
    const expiresAt = i % 7 === 0 ? null : later(rnd() < 0.5 ? 10 : 3650);
    const optionCount = 1 + Math.floor(rnd() * 3);
    const options = Array.from({ length: optionCount }, (_, j) => ({
      subtotal: `${100 + Math.floor(rnd() * 900)}.${
        String(Math.floor(rnd() * 100)).padStart(2, "0")
      }`,
      shipping: j === 0 ? "9.99" : "0.00",
      adjustment: rnd() < 0.3 ? "-10.01" : "0.00",
      chosen: rnd() < 0.4,
    }));
    quotes.push({
      createdAt,
      optician: status === "DRAFT" ? "" : opticians[i % opticians.length],
      status,
      acceptedAt,
      finalizedAt,
      expiresAt,
      options,
    });
  }
  return quotes;
}

/**
 * Writes the quotes (and their client) in `storeId`: in a chain of more than
 * one store a row must say its store; in a chain of one it may leave it out.
 */
export async function insertReportQuotes(
  db: DB,
  quotes: SeedQuote[],
  { storeId }: { storeId?: string } = {},
): Promise<void> {
  const client = await db.insertInto("clients")
    .values({ firstName: "Report", lastName: "Client", homeStoreId: storeId })
    .returning("id").executeTakeFirstOrThrow();
  for (const q of quotes) {
    const row = await db.insertInto("quotes").values({
      clientId: client.id,
      storeId,
      opticianName: q.optician,
      status: q.status,
      closureReason: q.status === "CLOSED" ? "Seeded" : null,
      acceptedAt: q.acceptedAt,
      finalizedAt: q.finalizedAt,
      expiresAt: q.expiresAt,
      createdAt: q.createdAt,
      updatedAt: q.createdAt,
    }).returning("id").executeTakeFirstOrThrow();
    await db.insertInto("quoteOptions").values(q.options.map((o, position) => ({
      quoteId: row.id,
      position,
      subtotal: o.subtotal,
      shipping: o.shipping,
      adjustmentAmount: o.adjustment,
      isChosen: o.chosen,
    }))).execute();
  }
}

const cents = (s: string) => {
  const [whole, frac = "0"] = s.replace("-", "").split(".");
  const v = Number(whole) * 100 + Number(frac.padEnd(2, "0"));
  return s.startsWith("-") ? -v : v;
};

/** The quote's value as lists show it, in cents: chosen options, else the first. */
export function valueCents(q: SeedQuote): number {
  const total = (o: SeedQuote["options"][number]) =>
    cents(o.subtotal) + cents(o.shipping) + cents(o.adjustment);
  const chosen = q.options.filter((o) => o.chosen);
  return (chosen.length ? chosen : q.options.slice(0, 1)).reduce((s, o) => s + total(o), 0);
}

export interface Expected {
  created: number;
  accepted: number;
  finalized: number;
  closed: number;
  expired: number;
  won: number;
  wonCents: number;
}

/** The numbers the report must show for these quotes, counted the reports page's way. */
export function expectedFor(quotes: SeedQuote[], now: Date): Expected {
  const e = { created: 0, accepted: 0, finalized: 0, closed: 0, expired: 0, won: 0, wonCents: 0 };
  for (const q of quotes) {
    e.created++;
    if (q.acceptedAt) e.accepted++;
    if (q.finalizedAt) e.finalized++;
    if (q.status === "CLOSED") e.closed++;
    if (
      q.status !== "CLOSED" && q.status !== "FINALIZED" && q.expiresAt &&
      q.expiresAt < now
    ) e.expired++;
    if (q.acceptedAt || q.finalizedAt) {
      e.won++;
      e.wonCents += valueCents(q);
    }
  }
  return e;
}

/** Monday (YYYY-MM-DD) of a local date's week. */
export function weekOf(date: Date): string {
  const back = (date.getDay() + 6) % 7;
  const m = new Date(date.getFullYear(), date.getMonth(), date.getDate() - back);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${m.getFullYear()}-${p(m.getMonth() + 1)}-${p(m.getDate())}`;
}
