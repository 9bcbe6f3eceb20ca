import { describe, it } from "node:test";
import { expect } from "expect";
import { CAPPED_MATCHES, cappedPage, cappedTotal } from "./capped.ts";

describe("cappedTotal", () => {
  it("is the number every row of the page carries, up to the cap", () => {
    expect(cappedTotal([{ matches: "39" }, { matches: "39" }])).toBe(39);
    expect(cappedTotal([{ matches: 7 }], 5)).toBe(7);
    expect(cappedTotal([{ matches: String(CAPPED_MATCHES) }])).toBe(CAPPED_MATCHES);
  });

  it("cannot tell when more matched than the cap", () => {
    expect(cappedTotal([{ matches: String(CAPPED_MATCHES + 1) }])).toBeUndefined();
  });

  it("is 0 for an empty first page, and cannot tell for an empty page past it", () => {
    expect(cappedTotal([])).toBe(0);
    expect(cappedTotal([], 0)).toBe(0);
    expect(cappedTotal([], 100)).toBeUndefined();
  });
});

describe("cappedPage", () => {
  const runner = (page: { matches: string }[], first: { matches: string }[]) => {
    const calls: boolean[] = [];
    const run = (firstRowOnly: boolean) => {
      calls.push(firstRowOnly);
      return Promise.resolve(firstRowOnly ? first : page);
    };
    return { run, calls };
  };

  it("answers from the page when it tells the total, reading nothing more", async () => {
    const { run, calls } = runner([{ matches: "3" }], []);
    expect(await cappedPage(run, 2)).toEqual({ rows: [{ matches: "3" }], total: 3 });
    expect(calls).toEqual([false]);
  });

  it("asks the first row when the page is empty past the first", async () => {
    const { run, calls } = runner([], [{ matches: "4" }]);
    expect(await cappedPage(run, 10)).toEqual({ rows: [], total: 4 });
    expect(calls).toEqual([false, true]);
  });

  it("cannot answer with more matches than the cap", async () => {
    const over = String(CAPPED_MATCHES + 1);
    expect(await cappedPage(runner([{ matches: over }], []).run)).toBeUndefined();
    expect(await cappedPage(runner([], [{ matches: over }]).run, 10)).toBeUndefined();
  });
});
