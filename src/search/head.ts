import { sql } from "kysely";
import type { DB } from "../db/database.ts";

/*
 * The head of a list: every search (the client list's, the quote list's and
 * both parts of the staff bar's) first reads the first rows of its list in
 * the list's own order, through the index that order has, and tests each
 * one's text with the LIKEs (src/search/match.ts). What it costs depends on
 * how many rows it reads, never on the size of the store.
 *
 * A word found in at least one row in HEAD_ROWS_PER_RESULT fills its page
 * from the head, and the page is exact: the first matches in the list's
 * order are the first matches of the first rows. Those are the words that
 * made searches grow with the store: "example" (every e-mail), "555", an
 * optician's name, a common last name. Their matches are too many to be
 * looked up and sorted (src/search/capped.ts) at any cost independent of the
 * store's size, and reading the list in order until the page is full cost
 * the same but only once the lookup had failed.
 *
 * A rarer word finds fewer than a page in the head, so its matches are few
 * in all (about HEAD_ROWS_PER_RESULT times fewer than the store's rows, for
 * words spread evenly): the capped lookup through the gram indexes finds and
 * orders them. A head that read the whole list (fewer rows than it may read)
 * is the whole answer, with its exact count, whatever the word.
 */

/** A word found in one row in this many fills its page from the head. */
export const HEAD_ROWS_PER_RESULT = 20;

/** The fewest rows a head reads: a store this small is answered by its head alone. */
export const HEAD_MIN_ROWS = 2_000;

/** The most: deep pages of a common word past it are read by the ordinary statement. */
export const HEAD_MAX_ROWS = 20_000;

/**
 * How many rows a head reads to find the first `wanted` matches, in whole
 * HEAD_MIN_ROWS: the count is a literal of the head's statement (the planner
 * of a generic plan must see it), and each literal is a statement prepared
 * and kept on every connection, so a page's offset, which anyone may set,
 * picks one of ten, not one of 18,000.
 */
export function headRows(wanted: number): number {
  return inWholeHeads(wanted * HEAD_ROWS_PER_RESULT);
}

/** `rows` rounded up to whole HEAD_MIN_ROWS, within HEAD_MIN_ROWS … HEAD_MAX_ROWS. */
function inWholeHeads(rows: number): number {
  const whole = Math.ceil(rows / HEAD_MIN_ROWS) * HEAD_MIN_ROWS;
  return Math.min(Math.max(whole, HEAD_MIN_ROWS), HEAD_MAX_ROWS);
}

/** What a head statement tells besides its page: rows read, and how many matched. */
export interface HeadCounts {
  scanned: number | string;
  matches: number | string;
}

/**
 * A head's answer: `complete` when the head read the whole list (fewer rows
 * than the `rows` it was let read, so `matches` is every match), `filled`
 * when it found `wanted` matches (the page is exact, and `matches` is a floor
 * of the total).
 */
export function headAnswer(counts: HeadCounts, wanted: number, rows = headRows(wanted)) {
  const matches = Number(counts.matches);
  return { matches, complete: Number(counts.scanned) < rows, filled: matches >= wanted };
}

/*
 * A head that found some matches but not its page tells how often the words
 * occur: a word in one row in a hundred ("977", the digits of many phones)
 * fills a page of 50 within 5,000 rows, and is in 1,000 rows of a
 * 100,000-client store and 10,000 of a 1,000,000-client one: more than the
 * capped lookup should fetch and sort, or more than it orders at all, and
 * then the ordered read ran after the lookup had cost as much again (31 ms
 * for "977" at 100,000 clients). Such a head is read again, longer: as many
 * rows as its matches say fill the page, a quarter as many again for
 * chance, in whole thousands, at most HEAD_MAX_ROWS. Only the head's
 * matches are trusted, not the guess: a longer head that still misses its
 * page (a word crowded into the first rows) goes on to the capped lookup as
 * a short one does. What it reads
 * depends on the word's frequency and the page, never on the store's size.
 */

/** The fewest matches in a head to judge a word's frequency by. */
export const LONGER_HEAD_MIN_MATCHES = 10;

/**
 * How many more rows than its matches say a longer head reads, for chance:
 * with 20 matches in the head (a word in one row in a hundred), 6,250 rows
 * for a page of 50 that 5,000 fill on average, which they miss about once in
 * a hundred searches. 1.5 read 8,000 (5.3 ms at 100,000 clients, against 1.4
 * for the first 2,000) and left the client list's "977" at 13-15 ms p95 of
 * its 15 in runs 23-24.
 */
export const LONGER_HEAD_MARGIN = 1.25;

/** A longer head reads whole multiples of this many rows. */
export const LONGER_HEAD_STEP = 1_000;

/** The rows a longer head reads for a head that missed its page, or undefined for none. */
export function longerHeadRows(counts: HeadCounts, wanted: number, rows: number) {
  const { matches, complete, filled } = headAnswer(counts, wanted, rows);
  if (complete || filled || matches < LONGER_HEAD_MIN_MATCHES) return undefined;
  const expected = LONGER_HEAD_MARGIN * wanted * Number(counts.scanned) / matches;
  if (expected > HEAD_MAX_ROWS || expected <= rows) return undefined;
  // In whole LONGER_HEAD_STEP rows: each count is a statement prepared on
  // every connection (headRows), so there are at most twenty.
  return Math.min(Math.ceil(expected / LONGER_HEAD_STEP) * LONGER_HEAD_STEP, HEAD_MAX_ROWS);
}

/**
 * A list search's head (`read(rows)` runs its head statement for that many
 * rows), read again longer when its matches say a longer one fills the page.
 */
export async function readHead<R extends HeadCounts>(
  wanted: number,
  read: (rows: number) => Promise<R[]>,
) {
  const rows = headRows(wanted);
  const head = await read(rows);
  const longer = longerHeadRows(head[0], wanted, rows);
  if (longer === undefined) return { head, ...headAnswer(head[0], wanted, rows) };
  const again = await read(longer);
  return { head: again, ...headAnswer(again[0], wanted, longer) };
}

/**
 * Runs a list search's ordinary statement (its words found in more rows than
 * the capped lookup orders) reading the list in its order through its index,
 * planned for its words. It runs only then, so it stops after at most page ×
 * rows ÷ CAPPED_MATCHES rows (10,000 for a page of 50 at 1,000,000 clients)
 * for words spread evenly,
 * while the planner, guessing a few hundred matches from the statistics,
 * chose to read and test the whole table and sort: 140 ms for "977" at
 * 100,000 clients, against 10 in order (and, with sequential scans off, read
 * every match by primary key and sorted them: 240 ms). Sequential scans and
 * full sorts are off for it alone; the quotes' order still ends in an
 * incremental sort of each created_at's ties.
 */
/**
 * One store's head: read through the store's index (quotes: store_id,
 * created_at, id; migration 0036). PostgreSQL otherwise prefers the whole
 * chain's newest-first index, dropping the other stores' rows as it goes (its
 * estimate counts those rows' heap reads as nearly free, the index being in
 * the table's order): 2,000 rows of one store of 20 took 20 ms that way and
 * 5 ms through the store's index at 100,000 clients. Turning off the
 * incremental sort, the only way that index gives the order, leaves it the
 * store's.
 */
export async function readInStoreOrder<T>(db: DB, run: (db: DB) => Promise<T>): Promise<T> {
  return await db.transaction().execute(async (trx) => {
    await sql`set local enable_incremental_sort = off`.execute(trx);
    return await run(trx);
  });
}

export async function readInListOrder<T>(db: DB, run: (db: DB) => Promise<T>): Promise<T> {
  return await db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local enable_sort = off`.execute(trx);
    return await run(trx);
  });
}
