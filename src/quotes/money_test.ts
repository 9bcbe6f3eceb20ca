import { describe, it } from "node:test";
import { expect } from "expect";
import { centsOrZero, centsToDecimal, formatDecimal, formatMoney, parseCents } from "./money.ts";

describe("money", () => {
  it("parses decimal text into whole cents without floats", () => {
    expect(parseCents("0.1")).toBe(10);
    expect(parseCents("0.29")).toBe(29);
    expect(parseCents("19.99")).toBe(1999);
    expect(parseCents("$1,234.5")).toBe(123450);
    expect(parseCents("-25")).toBe(-2500);
    expect(parseCents("-0")).toBe(0);
    expect(parseCents(12.3)).toBe(1230);
    for (const bad of ["", "abc", "1.234", "1e3", "--1", "12.", ".5", Infinity]) {
      expect([bad, parseCents(bad)]).toEqual([bad, undefined]);
    }
    expect(centsOrZero("")).toBe(0);
    expect(centsOrZero(null)).toBe(0);
  });

  it("adds up where floats would not: 0.1 + 0.2", () => {
    expect(centsToDecimal(parseCents("0.1")! + parseCents("0.2")!)).toBe("0.30");
    const items = Array.from({ length: 10 }, () => "0.10");
    expect(centsToDecimal(items.reduce((s, p) => s + parseCents(p)!, 0))).toBe("1.00");
  });

  it("writes cents back as a decimal string and as dollars", () => {
    expect(centsToDecimal(0)).toBe("0.00");
    expect(centsToDecimal(5)).toBe("0.05");
    expect(centsToDecimal(-2550)).toBe("-25.50");
    expect(formatMoney(123456789)).toBe("$1,234,567.89");
    expect(formatMoney(-2500)).toBe("-$25.00");
    expect(formatMoney(0)).toBe("$0.00");
    expect(formatDecimal("189")).toBe("$189.00");
    expect(() => centsToDecimal(1.5)).toThrow();
  });
});
