import { LAST_RANK } from "./ranks.ts";
import { SEARCH_RESULTS_PER_TYPE } from "./views.ts";

/*
 * The staff bar's answer for one type: the first SEARCH_RESULTS_PER_TYPE
 * matches by rank (src/search/ranks.ts), in the list's order within a rank,
 * read so that no step costs more with a bigger store (issue 35):
 *
 * 1. The head (src/search/head.ts): the first rows of the list, each one's
 *    rank computed. A head that read the whole list is the answer.
 * 2. A word found fewer times than the answer holds there is rare: the
 *    capped lookup through the gram indexes finds its matches and ranks them
 *    (src/search/capped.ts).
 * 3. A common word takes each rank from the head while the head holds enough
 *    of it: the head's rows of a rank are that rank's first rows. A rank the
 *    head holds too few of is looked up by its tests (the indexes of
 *    migration 0025). The last rank never is: the head holds enough of it
 *    whenever it is reached (see below).
 *
 * Any step that finds more than it can order (a lookup past CAPPED_MATCHES)
 * hands the search to the ordinary statement, which ranks every match.
 */

/** A match with its rank. */
export interface Ranked {
  rank: number | string;
}

export interface RankedSearch<R extends Ranked> {
  /** The head: whether it read the whole list, its matches, and up to a page of each rank. */
  head(): Promise<{ complete: boolean; matches: number; best: R[] }>;
  /** The capped lookup's best matches, or undefined past the cap. */
  capped(): Promise<R[] | undefined>;
  /** The first `need` matches of a rank below LAST_RANK, or undefined past the cap. */
  rank(rank: number, need: number): Promise<R[] | undefined>;
  /** Every match ranked and sorted: the reference the steps above agree with. */
  ordinary(): Promise<R[]>;
}

export async function bestFirst<R extends Ranked>(search: RankedSearch<R>): Promise<R[]> {
  const size = SEARCH_RESULTS_PER_TYPE;
  const head = await search.head();
  if (head.complete) return head.best.slice(0, size);
  if (head.matches < size) return await search.capped() ?? await search.ordinary();
  const best: R[] = [];
  for (let rank = 0; rank <= LAST_RANK && best.length < size; rank++) {
    const need = size - best.length;
    const inHead = head.best.filter((r) => Number(r.rank) === rank);
    if (inHead.length >= need) {
      best.push(...inHead.slice(0, need));
      continue;
    }
    // The last rank is reached with `need` places left only when the ranks
    // before it hold size - need matches in all, and the head's matches of
    // them are among those, so the head holds at least `need` of the last
    // rank (it holds `size` or more matches). Hence no lookup by it.
    const found = rank < LAST_RANK ? await search.rank(rank, need) : undefined;
    if (!found) return search.ordinary();
    best.push(...found.slice(0, need));
  }
  return best;
}
