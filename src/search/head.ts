import { sql } from "kysely";
import { customPlans, type DB } from "../db/database.ts";

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

/** How many rows a head reads to find the first `wanted` matches. */
export function headRows(wanted: number): number {
  return Math.min(Math.max(wanted * HEAD_ROWS_PER_RESULT, HEAD_MIN_ROWS), HEAD_MAX_ROWS);
}

/** What a head statement tells besides its page: rows read, and how many matched. */
export interface HeadCounts {
  scanned: number | string;
  matches: number | string;
}

/**
 * A head's answer: `complete` when the head read the whole list (so
 * `matches` is every match), `filled` when it found `wanted` matches (the
 * page is exact, and `matches` is a floor of the total).
 */
export function headAnswer(counts: HeadCounts, wanted: number) {
  const matches = Number(counts.matches);
  return {
    matches,
    complete: Number(counts.scanned) < headRows(wanted),
    filled: matches >= wanted,
  };
}

/**
 * Runs a list search's ordinary statement (its words found in more rows than
 * the capped lookup orders) reading the list in its order through its index,
 * planned for its words. It runs only then, so it stops after at most page ×
 * rows ÷ CAPPED_MATCHES rows (5,000 for a page of 50 at 100,000 clients),
 * while the planner, guessing a few hundred matches from the statistics,
 * chose to read and test the whole table and sort: 140 ms for "977" at
 * 100,000 clients, against 10 in order (and, with sequential scans off, read
 * every match by primary key and sorted them: 240 ms). Sequential scans and
 * full sorts are off for it alone; the quotes' order still ends in an
 * incremental sort of each created_at's ties.
 */
export async function readInListOrder<T>(db: DB, run: (db: DB) => Promise<T>): Promise<T> {
  return await customPlans(db).transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local enable_sort = off`.execute(trx);
    return await run(trx);
  });
}
