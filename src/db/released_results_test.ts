import { describe, it } from "node:test";
import { expect } from "expect";
import { handOver } from "./released_results.ts";

/** An array with the figures postgres.js sets on a statement's Result. */
function resultOf(rows: object[], command = "SELECT") {
  return Object.assign([...rows], {
    count: rows.length,
    command,
    columns: [{ name: "n" }],
    statement: { string: "select n" },
    state: { pid: 1 },
  });
}

describe("handOver", () => {
  it("moves the rows into a new array with the same figures and empties the Result", () => {
    const rows = [{ n: 1 }, { n: 2 }];
    const result = resultOf(rows);
    const answer = handOver(result);
    expect(answer).not.toBe(result);
    expect([...answer]).toEqual(rows);
    expect(answer[0]).toBe(rows[0]);
    expect(answer).toMatchObject({ count: 2, command: "SELECT", columns: [{ name: "n" }] });
    expect(answer.statement).toBe(result.statement);
    expect(answer.state).toBe(result.state);
    expect(result).toHaveLength(0);
  });

  it("hands over an empty Result as an empty array", () => {
    const result = resultOf([], "UPDATE");
    const answer = handOver(result);
    expect([...answer]).toEqual([]);
    expect(answer.command).toBe("UPDATE");
  });

  it("answers several statements' Results, and anything that is not a Result, as they are", () => {
    const several = [resultOf([{ n: 1 }]), resultOf([{ n: 2 }])];
    expect(handOver(several)).toBe(several);
    expect(several[0]).toHaveLength(1);
    const plain = [{ n: 1 }];
    expect(handOver(plain)).toBe(plain);
    expect(handOver(null)).toBe(null);
  });
});
