import { describe, it } from "node:test";
import { expect } from "expect";
import { flatString } from "./flat_string.ts";

describe("flatString", () => {
  it("gives back exactly the same text, whatever it holds", () => {
    let built = "";
    for (const piece of ["<li>", "Zoë ", "Ø", "·×", "👓", "\ud800", "\u2028", "</li>"]) {
      built += piece;
    }
    expect(flatString(built)).toBe(built);
    expect(flatString("")).toBe("");
  });
});
