import { describe, it } from "node:test";
import { expect } from "expect";
import {
  amountMessage,
  centsOrZero,
  centsToDecimal,
  formatDecimal,
  formatMoney,
  parseCents,
  readAmount,
} from "./amounts.ts";

/** Every form a person may type, and what it reads as (cents). */
const ACCEPTED: [string | number, number][] = [
  ["0", 0],
  ["7", 700],
  ["0.1", 10],
  ["0.29", 29],
  ["9.95", 995],
  ["9,95", 995],
  ["12.5", 1250],
  ["12,5", 1250],
  ["259,00", 25900],
  ["19.99", 1999],
  ["007.50", 750],
  ["  9,95  ", 995],
  ["$9.95", 995],
  ["$ 9,95", 995],
  ["-25", -2500],
  ["-25,50", -2550],
  ["-$25.50", -2550],
  ["$-25.50", -2550],
  ["-0", 0],
  ["1,234.50", 123450],
  ["1.234,50", 123450],
  ["1,234.5", 123450],
  ["1.234,5", 123450],
  ["$1,234.56", 123456],
  ["1,234,567.89", 123456789],
  ["1.234.567,89", 123456789],
  ["1,234,567", 123456700],
  ["1.234.567", 123456700],
  ["999,999.99", 99999999],
  ["9999999999.99", 999999999999],
  [12.3, 1230],
  [0.1 + 0.2, 30],
  [-4, -400],
];

/** Every form refused: [text, why]. */
const REFUSED: [string | number, "invalid" | "ambiguous"][] = [
  ["", "invalid"],
  ["   ", "invalid"],
  ["abc", "invalid"],
  ["12 EUR", "invalid"],
  ["1e3", "invalid"],
  ["--1", "invalid"],
  ["-$-1", "invalid"],
  ["+5", "invalid"],
  ["12.", "invalid"],
  ["12,", "invalid"],
  [".5", "invalid"],
  [",5", "invalid"],
  ["9.9555", "invalid"],
  ["9.955", "ambiguous"],
  ["9,9,5", "invalid"],
  ["1,23,456.00", "invalid"],
  ["12,34.56", "invalid"],
  ["1.234.56", "invalid"],
  ["1,234.567", "invalid"],
  ["1.234,567", "invalid"],
  ["1.234,56.7", "invalid"],
  ["1,2.34", "invalid"],
  ["1 234,50", "invalid"],
  ["(5.00)", "invalid"],
  ["12345678901", "invalid"],
  ["1,234", "ambiguous"],
  ["1.234", "ambiguous"],
  ["$12.345", "ambiguous"],
  ["-1,000", "ambiguous"],
  [12.345, "invalid"],
  [Infinity, "invalid"],
  [NaN, "invalid"],
];

describe("money", () => {
  it("reads every accepted form to whole cents", () => {
    for (const [text, cents] of ACCEPTED) {
      expect([text, readAmount(text)]).toEqual([text, { ok: true, cents }]);
      expect([text, parseCents(text)]).toEqual([text, cents]);
    }
  });

  it("refuses every other form, saying whether it is ambiguous", () => {
    for (const [text, problem] of REFUSED) {
      expect([text, readAmount(text)]).toEqual([text, { ok: false, problem }]);
      expect([text, parseCents(text)]).toEqual([text, undefined]);
    }
    expect(parseCents(null)).toBeUndefined();
    expect(parseCents(undefined)).toBeUndefined();
  });

  it("names the field in its message, and says how to write an ambiguous amount", () => {
    expect(amountMessage("Price", "abc")).toBe("Price must be a number like 12.50");
    expect(amountMessage("Price", "abc", "129.00")).toBe("Price must be a number like 129.00");
    expect(amountMessage("Shipping", "1,234")).toBe(
      'Shipping "1,234" is ambiguous (thousands or decimals?): write 1234.00 for 1234 ' +
        "dollars, or use at most 2 decimals",
    );
    expect(amountMessage("Price", "$1.500")).toBe(
      'Price "$1.500" is ambiguous (thousands or decimals?): write 1500.00 for 1500 dollars, ' +
        "or use at most 2 decimals",
    );
  });

  it("parses decimal text into whole cents without floats", () => {
    expect(parseCents("0.1")).toBe(10);
    expect(parseCents("0.29")).toBe(29);
    expect(parseCents("19.99")).toBe(1999);
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
