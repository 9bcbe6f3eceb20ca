import { describe, it } from "node:test";
import { expect } from "expect";
import { pageOf, totalFromPage } from "./paging.ts";

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

describe("pageOf", () => {
  it("gives the default size, held between 1 and the maximum, from offset 0 on", () => {
    expect(pageOf({}, 50, 200)).toEqual({ limit: 50, offset: 0 });
    expect(pageOf({ limit: 10, offset: 20 }, 50, 200)).toEqual({ limit: 10, offset: 20 });
    expect(pageOf({ limit: 0, offset: -5 }, 50, 200)).toEqual({ limit: 1, offset: 0 });
    expect(pageOf({ limit: 1000 }, 100, 500)).toEqual({ limit: 500, offset: 0 });
    expect(pageOf({ limit: 2.7, offset: 3.2 }, 50, 200)).toEqual({ limit: 2, offset: 3 });
  });
});
