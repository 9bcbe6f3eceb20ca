import { describe, it } from "node:test";
import { expect } from "expect";
import { wordGrams } from "./match.ts";

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
