import { describe, it } from "node:test";
import { expect } from "expect";
import { type DocumentTax, documentTax, type TaxLine, type TaxRate, type TaxRules } from "./tax.ts";

const STANDARD: TaxRate = { id: "std", name: "Standard 20 %", basisPoints: 2000 };
const REDUCED: TaxRate = { id: "red", name: "Reduced 5.5 %", basisPoints: 550 };
const FIVE: TaxRate = { id: "five", name: "Reduced 5 %", basisPoints: 500 };
const GERMAN: TaxRate = { id: "de", name: "Regelsatz 19 %", basisPoints: 1900 };
const TEN: TaxRate = { id: "ten", name: "Standard 10 %", basisPoints: 1000 };
const EXEMPT: TaxRate = { id: "zero", name: "Exempt 0 %", basisPoints: 0 };

const INCLUDED_DOC: TaxRules = { pricesIncludeTax: true, rounding: "document" };
const INCLUDED_LINE: TaxRules = { pricesIncludeTax: true, rounding: "line" };
const EXCLUDED_DOC: TaxRules = { pricesIncludeTax: false, rounding: "document" };
const EXCLUDED_LINE: TaxRules = { pricesIncludeTax: false, rounding: "line" };

const lines = (rateId: string, ...amounts: number[]): TaxLine[] =>
  amounts.map((amountMinor) => ({ amountMinor, rateId }));

/** What every result must hold, whatever the rule: the figures add up, to the minor unit. */
function expectAddsUp(result: DocumentTax, input: readonly TaxLine[], rules: TaxRules): void {
  for (const r of [...result.rates, ...result.lines, result.totals]) {
    expect(r.net + r.tax).toBe(r.gross);
    for (const v of [r.net, r.tax, r.gross]) expect(Number.isSafeInteger(v)).toBe(true);
  }
  const sum = (xs: { net: number; tax: number; gross: number }[]) => ({
    net: xs.reduce((s, x) => s + x.net, 0),
    tax: xs.reduce((s, x) => s + x.tax, 0),
    gross: xs.reduce((s, x) => s + x.gross, 0),
  });
  expect(result.totals).toEqual(sum(result.rates));
  expect(result.lines).toHaveLength(input.length);
  for (const rate of result.rates) {
    const { net, tax, gross } = rate;
    expect(sum(result.lines.filter((l) => l.rateId === rate.rateId))).toEqual({ net, tax, gross });
    const entered = input.filter((l) => l.rateId === rate.rateId)
      .reduce((s, l) => s + l.amountMinor, 0);
    expect(rules.pricesIncludeTax ? gross : net).toBe(entered);
  }
  result.lines.forEach((line, i) => {
    expect(rules.pricesIncludeTax ? line.gross : line.net).toBe(input[i].amountMinor);
  });
}

function run(input: TaxLine[], rates: TaxRate[], rules: TaxRules): DocumentTax {
  const result = documentTax(input, rates, rules);
  expectAddsUp(result, input, rules);
  return result;
}

describe("documentTax: the cent traps", () => {
  it("69.99 with 20 % included: net and tax add up to 69.99, the tax rounded half-up", () => {
    // The exact tax is 69.99 × 0.2 / 1.2 = 11.665, a tie: the tax rounds up to 11.67 and
    // the net is what remains (58.32). Rounding the net instead would give 58.33 / 11.66.
    for (const rules of [INCLUDED_DOC, INCLUDED_LINE]) {
      const result = run(lines("std", 6999), [STANDARD], rules);
      expect(result.rates).toEqual([{ rateId: "std", net: 5832, tax: 1167, gross: 6999 }]);
      expect(result.totals).toEqual({ net: 5832, tax: 1167, gross: 6999 });
    }
  });

  it("three lines of 1.10 with 5 % included total 3.30, per document or per line", () => {
    const input = lines("five", 110, 110, 110);
    const perDocument = run(input, [FIVE], INCLUDED_DOC);
    // 3.30 × 5 / 105 = 0.15714… → 0.16 once on the sum.
    expect(perDocument.totals).toEqual({ net: 314, tax: 16, gross: 330 });
    // The rate's 0.16 shared by largest remainder: equal remainders, the first line takes the cent.
    expect(perDocument.lines.map((l) => l.tax)).toEqual([6, 5, 5]);
    const perLine = run(input, [FIVE], INCLUDED_LINE);
    // 1.10 × 5 / 105 = 0.0523… → 0.05 on each line.
    expect(perLine.totals).toEqual({ net: 315, tax: 15, gross: 330 });
    expect(perLine.lines).toEqual(
      input.map(() => ({ rateId: "five", net: 105, tax: 5, gross: 110 })),
    );
  });

  it("1,000.00 plus 19 % is 1,190.00", () => {
    for (const rules of [EXCLUDED_DOC, EXCLUDED_LINE]) {
      const result = run(lines("de", 100000), [GERMAN], rules);
      expect(result.totals).toEqual({ net: 100000, tax: 19000, gross: 119000 });
    }
  });

  it("per-line and per-document rounding differ by a cent, and each adds up", () => {
    // Three lenses at 10.05 plus 5.5 %: each line's tax is 0.55275 → 0.55 (1.65 in all);
    // the document's is 30.15 × 0.055 = 1.65825 → 1.66.
    const input = lines("red", 1005, 1005, 1005);
    const perDocument = run(input, [REDUCED], EXCLUDED_DOC);
    const perLine = run(input, [REDUCED], EXCLUDED_LINE);
    expect(perDocument.totals).toEqual({ net: 3015, tax: 166, gross: 3181 });
    expect(perLine.totals).toEqual({ net: 3015, tax: 165, gross: 3180 });
    expect(perDocument.totals.tax - perLine.totals.tax).toBe(1);
    expect(perDocument.lines.map((l) => l.tax)).toEqual([56, 55, 55]);
    expect(perLine.lines.map((l) => l.tax)).toEqual([55, 55, 55]);
  });

  it("a 0 % rate has no tax: net is gross", () => {
    for (const rules of [INCLUDED_DOC, INCLUDED_LINE, EXCLUDED_DOC, EXCLUDED_LINE]) {
      const result = run(lines("zero", 2500, 1999), [EXEMPT], rules);
      expect(result.rates).toEqual([{ rateId: "zero", net: 4499, tax: 0, gross: 4499 }]);
    }
  });

  it("JPY (no minor digits): whole yen, where per-line and per-document rounding differ", () => {
    // Three ¥5 items plus 10 %: ¥0.5 per line rounds up to ¥1 each (¥3); ¥1.5 on the sum → ¥2.
    const input = lines("ten", 5, 5, 5);
    expect(run(input, [TEN], EXCLUDED_LINE).totals).toEqual({ net: 15, tax: 3, gross: 18 });
    expect(run(input, [TEN], EXCLUDED_DOC).totals).toEqual({ net: 15, tax: 2, gross: 17 });
    // ¥10,980 with 10 % included: 998.18… → ¥998.
    expect(run(lines("ten", 10980), [TEN], INCLUDED_DOC).totals)
      .toEqual({ net: 9982, tax: 998, gross: 10980 });
  });

  it("BHD (three minor digits): fils", () => {
    // 1.555 BHD plus 10 % VAT: 0.1555 → 0.156.
    expect(run(lines("ten", 1555), [TEN], EXCLUDED_DOC).totals)
      .toEqual({ net: 1555, tax: 156, gross: 1711 });
    // 12.345 BHD with 10 % included: 1.12227… → 1.122.
    expect(run(lines("ten", 12345), [TEN], INCLUDED_DOC).totals)
      .toEqual({ net: 11223, tax: 1122, gross: 12345 });
  });
});

describe("documentTax: documents", () => {
  it("a French quote: frames at 20 %, lenses at 5.5 %, an exempt service, prices tax included", () => {
    const input = [
      ...lines("std", 18900),
      ...lines("red", 12950, 12950),
      ...lines("zero", 2500),
    ];
    const result = run(input, [STANDARD, REDUCED, EXEMPT], INCLUDED_DOC);
    expect(result.rates).toEqual([
      { rateId: "std", net: 15750, tax: 3150, gross: 18900 },
      // 259.00 × 5.5 / 105.5 = 13.5023… → 13.50.
      { rateId: "red", net: 24550, tax: 1350, gross: 25900 },
      { rateId: "zero", net: 2500, tax: 0, gross: 2500 },
    ]);
    expect(result.totals).toEqual({ net: 42800, tax: 4500, gross: 47300 });
    expect(result.lines.map((l) => l.tax)).toEqual([3150, 675, 675, 0]);
  });

  it("lists the rates the lines use, in the order the rates are given", () => {
    const input = [...lines("red", 1000), ...lines("std", 1000)];
    const result = run(input, [EXEMPT, STANDARD, REDUCED], EXCLUDED_DOC);
    expect(result.rates.map((r) => r.rateId)).toEqual(["std", "red"]);
  });

  it("an empty document is all zeros", () => {
    expect(documentTax([], [STANDARD], INCLUDED_DOC)).toEqual({
      rates: [],
      lines: [],
      totals: { net: 0, tax: 0, gross: 0 },
    });
  });

  it("a credit note mirrors the sale (half away from zero), and a discount line nets out", () => {
    const sale = run(lines("std", 6999), [STANDARD], INCLUDED_DOC);
    const credit = run(lines("std", -6999), [STANDARD], INCLUDED_DOC);
    expect(credit.totals).toEqual({
      net: -sale.totals.net,
      tax: -sale.totals.tax,
      gross: -sale.totals.gross,
    });
    const discounted = run(lines("std", 12000, -2000, 333), [STANDARD], EXCLUDED_DOC);
    // 103.33 × 0.2 = 20.666 → 20.67, shared 24 / −4 / 0.666 → the cent to the third line.
    expect(discounted.totals).toEqual({ net: 10333, tax: 2067, gross: 12400 });
    expect(discounted.lines.map((l) => l.tax)).toEqual([2400, -400, 67]);
  });

  it("stays exact past 2^53 in the products (BigInt), where a float would lose the cent", () => {
    const amount = 4503599627370527; // 2^52 + 31: amount × 2000 is far past 2^53
    // Exactly 900 719 925 474 105.4 of tax; the float product rounds to …106.
    expect(Math.round(amount * 2000 / 10000)).toBe(900719925474106);
    const result = run(lines("std", amount), [STANDARD], EXCLUDED_DOC);
    expect(result.totals).toEqual({
      net: amount,
      tax: 900719925474105,
      gross: 5404319552844632,
    });
  });

  it("refuses what cannot be computed exactly", () => {
    expect(() => documentTax(lines("nope", 100), [STANDARD], EXCLUDED_DOC))
      .toThrow("unknown tax rate");
    expect(() => documentTax([], [STANDARD, STANDARD], EXCLUDED_DOC)).toThrow("listed twice");
    expect(() => documentTax(lines("std", 12.5), [STANDARD], EXCLUDED_DOC))
      .toThrow("whole number of minor units");
    expect(() => documentTax([], [{ ...STANDARD, basisPoints: 5.5 }], EXCLUDED_DOC))
      .toThrow("invalid rate");
    expect(() => documentTax([], [{ ...STANDARD, basisPoints: -100 }], EXCLUDED_DOC))
      .toThrow("invalid rate");
    expect(() => documentTax(lines("std", Number.MAX_SAFE_INTEGER), [STANDARD], EXCLUDED_DOC))
      .toThrow("too large");
  });
});

describe("documentTax: always adds up", () => {
  it("holds on random documents under every rule", () => {
    // A small seeded generator: the same documents every run.
    let seed = 49;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const rates = [STANDARD, REDUCED, FIVE, GERMAN, TEN, EXEMPT, {
      id: "odd",
      name: "Odd 7.7 %",
      basisPoints: 770,
    }];
    for (let doc = 0; doc < 300; doc++) {
      const input: TaxLine[] = Array.from({ length: 1 + next(8) }, () => ({
        amountMinor: next(5) === 0 ? -1 - next(5000) : next(200000),
        rateId: rates[next(rates.length)].id,
      }));
      for (const rules of [INCLUDED_DOC, INCLUDED_LINE, EXCLUDED_DOC, EXCLUDED_LINE]) {
        const result = run(input, rates, rules);
        // Every line's tax is within one minor unit of its exact tax.
        result.lines.forEach((line, i) => {
          const bp = rates.find((r) => r.id === input[i].rateId)!.basisPoints;
          const exact = input[i].amountMinor * bp /
            (rules.pricesIncludeTax ? 10000 + bp : 10000);
          expect(Math.abs(line.tax - exact)).toBeLessThan(1);
        });
      }
    }
  });
});
