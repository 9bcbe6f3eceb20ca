import { LAST_RANK } from "./ranks.ts";
import { SEARCH_RESULTS_PER_TYPE } from "./views.ts";

/*
 * The staff bar's answer for one type: the first SEARCH_RESULTS_PER_TYPE
 * matches by rank (src/search/ranks.ts), in the list's order within a rank,
 * read so that no step costs more with a bigger store:
 *
 * 1. The head (src/search/head.ts): the first rows of the list, each one's
 *    rank computed. A head that read the whole list is the answer.
 * 2. Each rank is taken from the head while the head holds enough of it:
 *    the head's rows of a rank are that rank's first rows. The ranks the
 *    head holds too few of are looked up by their tests (the indexes of
 *    migrations 0025 and 0027), all in one statement, the first time one is
 *    needed. The last rank never is: a word that needs it is found anywhere.
 * 3. A word found fewer times than the answer holds in the head is rare: when
 *    the ranks before the last do not fill the page, the capped lookup
 *    through the gram indexes finds its matches and ranks them
 *    (src/search/capped.ts). It ran before the ranks' lookups until the
 *    seventh session, and found too many for "977" at 1,000,000 clients
 *    (12,000 quote numbers hold it) after reading 5,001 rows, 8-10 ms, when
 *    the lookups, reading their indexes alone, had the page in 2 ms: 3,000
 *    quote numbers end with it.
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
  const inHead = (rank: number) => head.best.filter((r) => Number(r.rank) === rank);
  // The capped lookup answers a word the head holds fewer than a page of,
  // when it finds few enough; it runs once, and only when a rank is missing.
  let cappedTried = head.matches >= size;
  const best: R[] = [];
  let looked: Map<number, R[]> | undefined;
  for (let rank = 0; rank <= LAST_RANK && best.length < size; rank++) {
    const need = size - best.length;
    if (inHead(rank).length >= need) {
      best.push(...inHead(rank).slice(0, need));
      continue;
    }
    if (rank < LAST_RANK) {
      // This rank and the later ones (but the last) the head may hold too few of.
      looked ??= await search.ranks(
        Array.from({ length: LAST_RANK - rank }, (_, i) => rank + i)
          .filter((r) => inHead(r).length < size),
      );
      const found = looked.get(rank);
      if (found) {
        best.push(...found.slice(0, need));
        continue;
      }
    }
    // A rank neither the head nor a lookup gives. With a head of `size`
    // matches or more, the last rank is reached with `need` places left only
    // when the ranks before it hold size - need matches in all, and the
    // head's matches of them are among those, so the head holds at least
    // `need` of the last rank: this is the last rank of a rarer word, or a
    // rank past its lookup's cap.
    if (!cappedTried) {
      cappedTried = true;
      const capped = await search.capped();
      if (capped) return capped;
    }
    best.push(...await search.inOrder(rank, need));
  }
  return best;
}
