import { describe, it } from "node:test";
import { expect } from "expect";
import { Font } from "@react-pdf/renderer";
import { FONT_FAMILY, MISSING_GLYPH, textSanitizer, widthLowerBound, wordParts } from "./fonts.ts";

describe("textSanitizer", () => {
  it("keeps what DejaVu Sans draws: Latin-extended, Greek, Cyrillic, Vietnamese, symbols", async () => {
    const clean = await textSanitizer();
    for (
      const text of [
        "Łukasiewicz Żółć Ærø",
        "Παπαδόπουλος",
        "Иванова Ёлкина",
        "Nguyễn Trần Thị Ảnh",
        "€ × – “ok” …",
      ]
    ) expect(clean(text)).toBe(text);
  });

  it("marks characters the font lacks instead of dropping them", async () => {
    const clean = await textSanitizer();
    expect(clean("李小龍")).toBe(MISSING_GLYPH.repeat(3));
    expect(clean("Ana 김")).toBe(`Ana ${MISSING_GLYPH}`);
  });

  it("composes, keeps line breaks, plains other white space and drops invisible controls", async () => {
    const clean = await textSanitizer();
    expect(clean("Jose\u0301")).toBe("José");
    expect(clean("a\tb\r\nc\u00a0d")).toBe("a b\nc d");
    expect(clean("zero\u200bwidth\u0000")).toBe("zerowidth");
  });
});

describe("wordParts", () => {
  const syllables = (word: string) => word.length > 6 ? [word.slice(0, 3), word.slice(3)] : [word];

  it("leaves ordinary words to the syllable rules", () => {
    expect(wordParts("progressive", syllables)).toEqual(["pro", "gressive"]);
  });

  it("lets a long address break after its punctuation and every few letters", () => {
    const parts = wordParts("christopher.montgomery@northside-eyewear.example", syllables);
    expect(parts.join("")).toBe("christopher.montgomery@northside-eyewear.example");
    expect(parts).toEqual(["christopher.", "montgomery@", "northside-ey", "ewear.", "example"]);
    const run = wordParts("x".repeat(40), syllables);
    expect(run.join("")).toBe("x".repeat(40));
    expect(Math.max(...run.map((p) => p.length))).toBeLessThanOrEqual(16);
  });

  it("never ends a piece with a hyphen, which a break would double", () => {
    const sku = "SKU-2-".repeat(10);
    const parts = wordParts(sku, syllables);
    expect(parts.join("")).toBe(sku);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts.slice(0, -1)) expect(part.endsWith("-")).toBe(false);
  });
});

describe("widthLowerBound", () => {
  it("stays under the real advance of the text and grows with its size", async () => {
    const width = await widthLowerBound();
    // DejaVu Sans: "0" is 1303/2048 em wide.
    const real = 10 * 12 * 1303 / 2048;
    expect(width("0".repeat(10), 12)).toBeLessThan(real);
    expect(width("0".repeat(10), 12)).toBeGreaterThan(real * 0.8);
    expect(width("0".repeat(10), 24)).toBeCloseTo(2 * width("0".repeat(10), 12));
    // Spaces are where lines break, so they count for nothing.
    expect(width("0 0", 12)).toBe(width("00", 12));
  });
});

describe("shaping", () => {
  it("is remembered per face: the same run gives the same result, frozen", async () => {
    await textSanitizer();
    const font = Font.getFont({ fontFamily: FONT_FAMILY, fontWeight: 400, fontStyle: "normal" })
      .data!;
    const first = font.layout("Ray-Ban RB5154 Łukasiewicz", [], undefined, undefined, "ltr");
    const again = font.layout("Ray-Ban RB5154 Łukasiewicz", [], undefined, undefined, "ltr");
    expect(again).toBe(first);
    expect(first.glyphs.length).toBeGreaterThan(0);
    // Code that scaled the positions in place would spoil every later PDF: it throws instead.
    expect(() => (first.positions[0].xAdvance *= 2)).toThrow();
    // Other options are other runs.
    expect(font.layout("Ray-Ban RB5154 Łukasiewicz", ["liga"], undefined, undefined, "ltr"))
      .not.toBe(first);
  });
});

describe("glyph outlines", () => {
  it("are decoded once per glyph, and are the font file's", async () => {
    await textSanitizer();
    const font = Font.getFont({ fontFamily: FONT_FAMILY, fontWeight: 700, fontStyle: "normal" })
      .data!;
    // "é" is a composite glyph in DejaVu Sans (e and an accent), "a" a simple one.
    for (const ch of ["a", "é"]) {
      const glyph = font.glyphForCodePoint(ch.codePointAt(0)!) as unknown as {
        _decode(): { numberOfContours: number };
        path: { toSVG(): string };
      };
      const outline = glyph._decode();
      expect(glyph._decode()).toBe(outline);
      expect(outline.numberOfContours).not.toBe(0);
      // The path drawn from the kept outline is the glyph's.
      expect(glyph.path.toSVG().length).toBeGreaterThan(10);
    }
  });
});
