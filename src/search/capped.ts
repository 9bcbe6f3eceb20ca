import { sql } from "kysely";

/*
 * Capped searches: every search (the client list's, the quote list's and
 * both parts of the staff bar's) whose words the head of its list holds too
 * few of (src/search/head.ts) runs a statement that takes at most
 * CAPPED_MATCHES + 1 matching rows, found through the gram indexes in no
 * order, and orders and pages only those, each row carrying how many were
 * found. Its plan is the same whatever the words: the index lookup, then a
 * sort of at most CAPPED_MATCHES + 1 rows. So it runs on genericPlans(db)
 * (src/db/server.ts), which plans each statement once, and a large store
 * searches a client's name without planning it again for every request.
 *
 * Only when more rows match (a word rarer than the head can fill a page
 * with, yet in more than CAPPED_MATCHES rows) is the answer in doubt: the
 * search then runs its ordinary statement, planned for its words (every
 * statement but these is), the lists' reading in their order (readInListOrder).
 */

/**
 * The most matches a capped search orders itself; with more it runs its
 * ordinary statement. A word found fewer times than a dense head
 * (src/search/head.ts) shows, yet in more rows than this, pays for the
 * lookup and then for the ordered read, which reads page × rows ÷ matches
 * rows: at 1,000 "123" (about 1,200 quote numbers, hardly any among the
 * newest) read 30,000 quotes in order, 60-85 ms at 100,000 clients; at
 * 5,000 its lookup orders them, 6 ms. Fetching and sorting 5,000 rows costs
 * a few ms, and a word in more rows than that is in one row in 20 of a
 * 100,000-client store, found in the head.
 */
export const CAPPED_MATCHES = 5000;

/**
 * The quote list's cap: its page is 100 quotes and a store holds three
 * quotes a client, so a word past a 5,000 cap but in fewer than one quote
 * in 20 of the newest ("977" in quote numbers: about 12,000 of 3,000,000,
 * one in 550 among the newest) read 56,000 quotes in order for its page
 * (87-150 ms at 1,000,000 clients); fetching and sorting its 12,000
 * matches through the gram index takes 17-58 ms. Reading in order costs
 * page ÷ share rows, the lookup share × quotes: at 3,000,000 quotes the two
 * meet near 20,000 matches.
 */
export const QUOTE_LIST_CAPPED_MATCHES = 20_000;

/** How many rows the capped set holds, as each page row carries it. */
export const matchCount = sql<string>`count(*) over ()`;

/**
 * The number of matches a capped page tells, or undefined when it cannot
 * tell (more than CAPPED_MATCHES, or an empty page past the first, which
 * says nothing of how many come before it).
 */
export function cappedTotal(
  rows: { matches: string | number }[],
  offset = 0,
  cap = CAPPED_MATCHES,
): number | undefined {
  if (rows.length === 0) return offset === 0 ? 0 : undefined;
  const matches = Number(rows[0].matches);
  return matches <= cap ? matches : undefined;
}

/**
 * A capped page with the total it tells, or undefined when only the ordinary
 * statement can answer. `run(false)` reads the page asked for, at `offset`;
 * when that page is empty past the first, `run(true)` reads the first row
 * alone, whose count tells whether the list ended before the offset.
 */
export async function cappedPage<R extends { matches: string | number }>(
  run: (firstRowOnly: boolean) => Promise<R[]>,
  offset = 0,
  cap = CAPPED_MATCHES,
): Promise<{ rows: R[]; total: number } | undefined> {
  const rows = await run(false);
  const total = cappedTotal(rows, offset, cap) ??
    (rows.length === 0 && offset > 0 ? cappedTotal(await run(true), 0, cap) : undefined);
  return total === undefined ? undefined : { rows, total };
}
