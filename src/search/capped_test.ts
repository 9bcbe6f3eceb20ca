import { describe, it } from "node:test";
import { expect } from "expect";
import { CAPPED_MATCHES, cappedTotal } from "./capped.ts";

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
