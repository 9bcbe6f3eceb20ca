import { describe, it } from "node:test";
import { expect } from "expect";
import { prefixUpperBound } from "./ranks.ts";

/** Byte order of the UTF-8 encodings, as text_pattern_ops compares. */
function compareBytes(a: string, b: string): number {
  const [x, y] = [new TextEncoder().encode(a), new TextEncoder().encode(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

describe("prefixUpperBound", () => {
  it("makes the last character that has a next one its next one", () => {
    expect(prefixUpperBound("977")).toBe("978");
    expect(prefixUpperBound("q-00")).toBe("q-01");
    expect(prefixUpperBound("zoë")).toBe("zoì");
    expect(prefixUpperBound("a\u{10FFFF}")).toBe("b");
    // No character of UTF-8 is a surrogate: after U+D7FF comes U+E000.
    expect(prefixUpperBound("a\uD7FF")).toBe("a\uE000");
    expect(prefixUpperBound("\u{10FFFF}")).toBeUndefined();
    expect(prefixUpperBound("")).toBeUndefined();
  });

  it("is above every string that starts with the prefix, and below none that does not", () => {
    const tails = ["", "0", "~", "\u00ff", "\u{1F600}", "\u{10FFFF}\u{10FFFF}", "\uFFFF"];
    for (const prefix of ["977", "ann", "zoë", "a\uD7FF", "x\u{10FFFF}", "\u{1F600}"]) {
      const above = prefixUpperBound(prefix)!;
      for (const tail of tails) {
        expect({ prefix, tail, below: compareBytes(prefix + tail, above) < 0 })
          .toEqual({ prefix, tail, below: true });
      }
      // The bound itself does not start with the prefix.
      expect(above.startsWith(prefix)).toBe(false);
    }
  });
});
