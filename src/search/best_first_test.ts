import { describe, it } from "node:test";
import { expect } from "expect";
import { bestFirst, type RankedSearch } from "./best_first.ts";
import { LAST_RANK } from "./ranks.ts";
import { SEARCH_RESULTS_PER_TYPE } from "./views.ts";

interface Row {
  id: string;
  rank: number;
}

/**
 * A search over `all` (the whole list, in its order, each row ranked) whose
 * head is its first `headSize` rows, recording which steps ran. `overflow`
 * makes the capped lookup and the given ranks' lookups find too many.
 */
function fakeSearch(
  all: Row[],
  headSize: number,
  overflow: { capped?: boolean; ranks?: number[] } = {},
) {
  const steps: string[] = [];
  const byRank = (rows: Row[]) =>
    [...rows].sort((a, b) => a.rank - b.rank || all.indexOf(a) - all.indexOf(b));
  const perRank = (rows: Row[]) =>
    byRank(rows).filter((r, _, list) =>
      list.filter((o) => o.rank === r.rank).indexOf(r) < SEARCH_RESULTS_PER_TYPE
    );
  const search: RankedSearch<Row> = {
    head: () => {
      steps.push("head");
      const head = all.slice(0, headSize);
      return Promise.resolve({
        complete: all.length < headSize,
        matches: head.length,
        best: perRank(head),
      });
    },
    capped: () => {
      steps.push("capped");
      return Promise.resolve(
        overflow.capped ? undefined : byRank(all).slice(0, SEARCH_RESULTS_PER_TYPE),
      );
    },
    ranks: (ranks) => {
      steps.push(`ranks ${ranks.join(",")}`);
      return Promise.resolve(
        new Map(
          ranks.filter((rank) => !overflow.ranks?.includes(rank)).map((rank) => [
            rank,
            all.filter((r) => r.rank === rank).slice(0, SEARCH_RESULTS_PER_TYPE),
          ]),
        ),
      );
    },
    inOrder: (rank, need) => {
      steps.push(`in order ${rank}`);
      return Promise.resolve(all.filter((r) => r.rank === rank).slice(0, need));
    },
  };
  /** Every match ranked and sorted: the answer each path must agree with. */
  const ordinary = () => ids(byRank(all).slice(0, SEARCH_RESULTS_PER_TYPE));
  return { search, steps, ordinary };
}

const rows = (ranks: number[]) => ranks.map((rank, i) => ({ id: `r${i}`, rank }));
const ids = (found: Row[]) => found.map((r) => r.id);

describe("bestFirst", () => {
  it("answers from a head that read the whole list", async () => {
    const all = rows([3, 1, 3, 0, 2]);
    const { search, steps } = fakeSearch(all, 100);
    expect(ids(await bestFirst(search))).toEqual(["r3", "r1", "r4", "r0", "r2"]);
    expect(steps).toEqual(["head"]);
  });

  it("looks a rare word's ranks up first, then the capped statement, and past its cap reads in order", async () => {
    // Three matches in the first three rows: fewer than a page. Forty rows of
    // rank 1 after them: the ranks' lookups fill the page.
    const ranked = [
      ...rows([3, 3, 3]),
      ...rows(Array(40).fill(1)).map((r) => ({ ...r, id: `x${r.id}` })),
    ];
    const rare = fakeSearch(ranked, 3);
    expect(ids(await bestFirst(rare.search))).toEqual(rare.ordinary());
    expect(rare.steps).toEqual(["head", "ranks 0,1,2"]);
    // Its rank 1 past the lookup's cap: the capped statement answers, or,
    // past its cap too, the rank is read in order.
    const overRank = fakeSearch(ranked, 3, { ranks: [1] });
    expect(ids(await bestFirst(overRank.search))).toEqual(rare.ordinary());
    expect(overRank.steps).toEqual(["head", "ranks 0,1,2", "capped"]);
    const overBoth = fakeSearch(ranked, 3, { capped: true, ranks: [1] });
    expect(ids(await bestFirst(overBoth.search))).toEqual(rare.ordinary());
    expect(overBoth.steps).toEqual(["head", "ranks 0,1,2", "capped", "in order 1"]);
    // Found anywhere only: the lookups find nothing, the capped statement
    // answers, or past its cap the last rank is read in order.
    const contains = [
      ...rows([3, 3, 3]),
      ...rows(Array(40).fill(3)).map((r) => ({ ...r, id: `x${r.id}` })),
    ];
    const anywhere = fakeSearch(contains, 3);
    expect(ids(await bestFirst(anywhere.search))).toEqual(anywhere.ordinary());
    expect(anywhere.steps).toEqual(["head", "ranks 0,1,2", "capped"]);
    const onlyLast = fakeSearch(contains, 3, { capped: true });
    expect(ids(await bestFirst(onlyLast.search))).toEqual(onlyLast.ordinary());
    expect(onlyLast.steps).toEqual(["head", "ranks 0,1,2", "capped", "in order 3"]);
  });

  it("takes a common word's ranks from the head while it holds enough, and looks up the others", async () => {
    // Rank 0 only past the head; rank 1 twice in it; rank 3 everywhere.
    const all = rows([3, 1, 3, 3, 1, 3, 3, 3, 3, 3, 0, 3, 1]);
    const { search, steps, ordinary } = fakeSearch(all, 10);
    const found = await bestFirst(search);
    expect(ids(found)).toEqual(["r10", "r1", "r4", "r12", "r0"]);
    expect(steps).toEqual(["head", "ranks 0,1,2"]);
    expect(ids(found)).toEqual(ordinary());
  });

  it("never looks up the last rank, and reads an overflowing rank in order", async () => {
    const all = rows([3, 3, 3, 3, 3, 3, 3, 3, 2, 3, 3, 3]);
    const { search, steps, ordinary } = fakeSearch(all, 10);
    expect(ids(await bestFirst(search))).toEqual(["r8", "r0", "r1", "r2", "r3"]);
    expect(steps).toEqual(["head", "ranks 0,1,2"]);
    expect(steps.some((s) => s.includes(String(LAST_RANK)))).toBe(false);
    const over = fakeSearch(all, 10, { ranks: [1] });
    expect(ids(await bestFirst(over.search))).toEqual(ordinary());
    // Rank 1 past its lookup's cap is read in order (it holds none here).
    expect(over.steps).toEqual(["head", "ranks 0,1,2", "in order 1"]);
    // Rank 2, the one the page needs, past its lookup's cap.
    const overNeeded = fakeSearch(all, 10, { ranks: [2] });
    expect(ids(await bestFirst(overNeeded.search))).toEqual(ordinary());
    expect(overNeeded.steps).toEqual(["head", "ranks 0,1,2", "in order 2"]);
  });

  it("looks up only the ranks the head holds too few of, and minds no overflow it does not need", async () => {
    // Rank 0 past the head; rank 1 five times in it; rank 2 would overflow.
    const all = rows([1, 1, 2, 1, 1, 1, 3, 3, 3, 3, 0, 3]);
    const { search, steps } = fakeSearch(all, 10, { ranks: [2] });
    expect(ids(await bestFirst(search))).toEqual(["r10", "r0", "r1", "r3", "r4"]);
    expect(steps).toEqual(["head", "ranks 0,2"]);
  });
});
