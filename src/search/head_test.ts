import { describe, it } from "node:test";
import { expect } from "expect";
import {
  HEAD_MAX_ROWS,
  HEAD_MIN_ROWS,
  HEAD_ROWS_PER_RESULT,
  headAnswer,
  headRows,
} from "./head.ts";

describe("headRows", () => {
  it("reads HEAD_ROWS_PER_RESULT rows per wanted match, within its bounds", () => {
    expect(headRows(5)).toBe(HEAD_MIN_ROWS);
    expect(headRows(200)).toBe(200 * HEAD_ROWS_PER_RESULT);
    expect(headRows(100_000)).toBe(HEAD_MAX_ROWS);
  });
});

describe("headAnswer", () => {
  it("is complete when the head read fewer rows than it may: the whole list", () => {
    expect(headAnswer({ scanned: "1999", matches: "3" }, 5))
      .toEqual({ matches: 3, complete: true, filled: false });
    expect(headAnswer({ scanned: 0, matches: 0 }, 5))
      .toEqual({ matches: 0, complete: true, filled: false });
  });

  it("is filled when the head found the page, however long the list", () => {
    expect(headAnswer({ scanned: String(HEAD_MIN_ROWS), matches: "5" }, 5))
      .toEqual({ matches: 5, complete: false, filled: true });
    expect(headAnswer({ scanned: String(HEAD_MIN_ROWS), matches: "4" }, 5))
      .toEqual({ matches: 4, complete: false, filled: false });
  });
});
