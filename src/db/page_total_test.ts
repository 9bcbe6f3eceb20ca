import { describe, it } from "node:test";
import { expect } from "expect";
import { totalFromPage } from "./page_total.ts";

describe("totalFromPage", () => {
  it("a short page ends the list: the total is its offset plus its rows", () => {
    expect(totalFromPage(0, 100, 39)).toBe(39);
    expect(totalFromPage(0, 100, 0)).toBe(0);
    expect(totalFromPage(200, 100, 7)).toBe(207);
  });

  it("a full page may have more after it: only a count tells", () => {
    expect(totalFromPage(0, 100, 100)).toBeUndefined();
    expect(totalFromPage(100, 1, 1)).toBeUndefined();
  });

  it("an empty page past the start may follow a list of any shorter length", () => {
    expect(totalFromPage(300, 100, 0)).toBeUndefined();
  });
});
