import { describe, it } from "node:test";
import { expect } from "expect";
import {
  HEAD_MAX_ROWS,
  HEAD_MIN_ROWS,
  HEAD_ROWS_PER_RESULT,
  headAnswer,
  headRows,
  LONGER_HEAD_MIN_MATCHES,
  longerHeadRows,
  readHead,
} from "./head.ts";

describe("headRows", () => {
  it("reads HEAD_ROWS_PER_RESULT rows per wanted match, within its bounds", () => {
    expect(headRows(5)).toBe(HEAD_MIN_ROWS);
    expect(headRows(200)).toBe(200 * HEAD_ROWS_PER_RESULT);
    expect(headRows(100_000)).toBe(HEAD_MAX_ROWS);
  });

  it("reads whole HEAD_MIN_ROWS, so any offset picks one of a few statements", () => {
    expect(headRows(101)).toBe(2 * HEAD_MIN_ROWS);
    const counts = new Set(Array.from({ length: 5_000 }, (_, wanted) => headRows(wanted)));
    expect(counts.size).toBe(HEAD_MAX_ROWS / HEAD_MIN_ROWS);
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

describe("longerHeadRows", () => {
  const rows = headRows(50);
  it("reads as many rows as the head's matches say fill the page, a quarter again", () => {
    // 20 in 2,000 rows: 5,000 rows fill a page of 50; 6,250 rounded up to whole thousands.
    expect(longerHeadRows({ scanned: rows, matches: 20 }, 50, rows)).toBe(7_000);
    expect(longerHeadRows({ scanned: rows, matches: 40 }, 50, rows)).toBe(4_000);
    // 49 of 50 in 2,000: 2,551 rows, 3,000 in whole thousands.
    expect(longerHeadRows({ scanned: rows, matches: 49 }, 50, rows)).toBe(3_000);
    const counts = new Set(
      Array.from(
        { length: 200 },
        (_, m) => longerHeadRows({ scanned: rows, matches: m }, 50, rows),
      ),
    );
    expect(counts.size).toBeLessThanOrEqual(HEAD_MAX_ROWS / 1_000 + 1);
  });

  it("reads no longer head where the head says too little or a longer one would be too long", () => {
    const few = LONGER_HEAD_MIN_MATCHES - 1;
    expect(longerHeadRows({ scanned: rows, matches: few }, 50, rows)).toBeUndefined();
    // 1.25 × 50 × 2,000 / 10 = 12,500 rows: still within HEAD_MAX_ROWS …
    expect(longerHeadRows({ scanned: rows, matches: 10 }, 50, rows)).toBe(13_000);
    // … 1.25 × 200 × 4,000 / 10 = 100,000 rows is not.
    expect(longerHeadRows({ scanned: headRows(200), matches: 10 }, 200, headRows(200)))
      .toBeUndefined();
    // A complete or filled head is the answer.
    expect(longerHeadRows({ scanned: rows - 1, matches: 20 }, 50, rows)).toBeUndefined();
    expect(longerHeadRows({ scanned: rows, matches: 50 }, 50, rows)).toBeUndefined();
  });
});

describe("readHead", () => {
  it("reads a longer head when the first says one fills the page, and answers from it", async () => {
    const reads: number[] = [];
    const answer = await readHead(50, (rows) => {
      reads.push(rows);
      // One row in a hundred matches, in a list of 100,000.
      return Promise.resolve([{ scanned: rows, matches: rows / 100 }]);
    });
    expect(reads).toEqual([2_000, 7_000]);
    expect(answer).toMatchObject({ matches: 70, complete: false, filled: true });
  });

  it("reads one head when it is the answer or says too little", async () => {
    for (const matches of [3, 50]) {
      const reads: number[] = [];
      await readHead(50, (rows) => {
        reads.push(rows);
        return Promise.resolve([{ scanned: rows, matches }]);
      });
      expect(reads).toEqual([2_000]);
    }
  });
});
