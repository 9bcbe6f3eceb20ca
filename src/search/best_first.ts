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
 *    of it: the head's rows of a rank are that rank's first rows. The ranks
 *    the head holds too few of are looked up by their tests (the indexes of
 *    migration 0025), all in one statement, the first time one is needed.
 *    The last rank never is: the head holds enough of it whenever it is
 *    reached (see below).
 *
 * Any step that finds more than it can order (the capped lookup, or a
 * needed rank's lookup, past RANK_LOOKUP_MATCHES) hands the search to the
 * ordinary statement, which ranks every match.
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
  /**
   * Up to a page of matches of each of `ranks` (all below LAST_RANK), by
   * rank; a rank whose lookup found more than RANK_LOOKUP_MATCHES is missing.
   */
  ranks(ranks: number[]): Promise<Map<number, R[]>>;
  /** Every match ranked and sorted: the reference the steps above agree with. */
  ordinary(): Promise<R[]>;
}

export async function bestFirst<R extends Ranked>(search: RankedSearch<R>): Promise<R[]> {
  const size = SEARCH_RESULTS_PER_TYPE;
  const head = await search.head();
  if (head.complete) return head.best.slice(0, size);
  if (head.matches < size) return await search.capped() ?? await search.ordinary();
  const inHead = (rank: number) => head.best.filter((r) => Number(r.rank) === rank);
  const best: R[] = [];
  let looked: Map<number, R[]> | undefined;
  for (let rank = 0; rank <= LAST_RANK && best.length < size; rank++) {
    const need = size - best.length;
    if (inHead(rank).length >= need) {
      best.push(...inHead(rank).slice(0, need));
      continue;
    }
    // The last rank is reached with `need` places left only when the ranks
    // before it hold size - need matches in all, and the head's matches of
    // them are among those, so the head holds at least `need` of the last
    // rank (it holds `size` or more matches). Hence no lookup by it.
    if (rank === LAST_RANK) return search.ordinary();
    // This rank and the later ones the head may hold too few of.
    looked ??= await search.ranks(
      Array.from({ length: LAST_RANK - rank }, (_, i) => rank + i)
        .filter((r) => inHead(r).length < size),
    );
    const found = looked.get(rank);
    if (!found) return search.ordinary();
    best.push(...found.slice(0, need));
  }
  return best;
}
