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
 * A rank no step above can give (the capped lookup found more than it
 * orders and the head too few of the rank, or the rank's lookup found more
 * than CAPPED_MATCHES, or the last rank where the head holds too few of
 * it) is read in the list's order, its first `need` rows (`inOrder`). That
 * read stops once it found them, so it reads about `need` ÷ the rank's share
 * of the list's rows, and reaching it means the rank is common: past a
 * lookup's cap, or the last rank of a word in more rows than the capped
 * lookup orders while the ranks before it hold fewer than a page. Ranking
 * every match instead (the ordinary statement, as until the sixth session)
 * took 800 ms for "977" at 1,000,000 clients.
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
   * rank; a rank whose lookup found more than CAPPED_MATCHES is missing.
   */
  ranks(ranks: number[]): Promise<Map<number, R[]>>;
  /** The first `need` matches of `rank` in the list's order, read in that order. */
  inOrder(rank: number, need: number): Promise<R[]>;
}

export async function bestFirst<R extends Ranked>(search: RankedSearch<R>): Promise<R[]> {
  const size = SEARCH_RESULTS_PER_TYPE;
  const head = await search.head();
  if (head.complete) return head.best.slice(0, size);
  if (head.matches < size) {
    const capped = await search.capped();
    if (capped) return capped;
  }
  const inHead = (rank: number) => head.best.filter((r) => Number(r.rank) === rank);
  const best: R[] = [];
  let looked: Map<number, R[]> | undefined;
  for (let rank = 0; rank <= LAST_RANK && best.length < size; rank++) {
    const need = size - best.length;
    if (inHead(rank).length >= need) {
      best.push(...inHead(rank).slice(0, need));
      continue;
    }
    // With a head of `size` matches or more, the last rank is reached with
    // `need` places left only when the ranks before it hold size - need
    // matches in all, and the head's matches of them are among those, so
    // the head holds at least `need` of the last rank. It is read in order
    // only after a capped lookup that found too many.
    if (rank === LAST_RANK) {
      best.push(...await search.inOrder(rank, need));
      continue;
    }
    // This rank and the later ones (but the last) the head may hold too few of.
    looked ??= await search.ranks(
      Array.from({ length: LAST_RANK - rank }, (_, i) => rank + i)
        .filter((r) => inHead(r).length < size),
    );
    best.push(...(looked.get(rank) ?? await search.inOrder(rank, need)).slice(0, need));
  }
  return best;
}
