import { describe, it } from "node:test";
import { expect } from "expect";
import { phoneDigits, wordGrams } from "./match.ts";

describe("wordGrams", () => {
  it("gives none for a word under 3 characters or with a space", () => {
    expect(wordGrams("")).toEqual([]);
    expect(wordGrams("ab")).toEqual([]);
    expect(wordGrams("r. ortiz")).toEqual([]);
  });

  it("gives a word of 3 to 5 characters itself", () => {
    expect(wordGrams("ros")).toEqual(["ros"]);
    expect(wordGrams("ross")).toEqual(["ross"]);
    expect(wordGrams("rossi")).toEqual(["rossi"]);
  });

  it("gives a longer word's 5-character substrings", () => {
    expect(wordGrams("rossiberg")).toEqual(["rossi", "ossib", "ssibe", "siber", "iberg"]);
  });

  it("counts code points, as PostgreSQL counts characters", () => {
    expect(wordGrams("💎ab")).toEqual(["💎ab"]);
    expect(wordGrams("💎gems💎")).toEqual(["💎gems", "gems💎"]);
  });

  it("keeps 8 of a long word's grams, its first and last among them", () => {
    const word = "abcdefghijklmnopqrstuvwxyz";
    const grams = wordGrams(word);
    expect(grams.length).toBe(8);
    expect(grams[0]).toBe("abcde");
    expect(grams.at(-1)).toBe("vwxyz");
    for (const gram of grams) expect(word.includes(gram)).toBe(true);
  });

  it("gives a repeated substring once", () => {
    expect(wordGrams("aaaaaaa")).toEqual(["aaaaa"]);
  });
});

describe("phoneDigits: only a word that looks like a phone number searches phones", () => {
  const cases: Array<[string, string | null]> = [
    ["1985", "1985"],
    ["555-0102", "5550102"],
    ["(555)", "555"],
    ["+1.555.010", "1555010"],
    ["55", null], // under 3 digits: every number would match
    ["maria1985", null], // letters and digits: a name or an e-mail, not a phone
    ["a555", null],
    ["555x", null],
    ["q-000123", null], // a quote number
    ["dana@1985.test", null],
    ["---", null],
  ];
  for (const [word, digits] of cases) {
    it(`${JSON.stringify(word)} → ${JSON.stringify(digits)}`, () => {
      expect(phoneDigits(word)).toBe(digits);
    });
  }
});
