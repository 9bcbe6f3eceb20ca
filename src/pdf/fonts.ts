// The typeface of the quote PDF: DejaVu Sans, embedded from the pinned
// dejavu-fonts-ttf package (never fetched at run time). It covers Latin with
// its extensions, Greek and Cyrillic, so "Łukasiewicz", "Παπαδόπουλος" and
// "Иванова" print as typed; react-pdf embeds only the glyphs a document uses
// (a subset), so the file stays small. What DejaVu Sans lacks (CJK, emoji)
// is replaced by a visible mark before layout: left to react-pdf, such text
// would fall back to the built-in Helvetica and print as junk.
import { fileURLToPath } from "node:url";
import { Font } from "@react-pdf/renderer";
// The font files are read by path (fontPath), which no module graph sees: this
// import puts the package in the renderer's graph, so an install of the app's
// own entry points (cli/start.ts, with npm-lazy-caching) installs it too.
import "dejavu-fonts-ttf/package.json" with { type: "json" };

export const FONT_FAMILY = "DejaVu Sans";

/** What stands for a character the typeface cannot draw: U+FFFD, drawn as a "?" in a diamond. */
export const MISSING_GLYPH = "\uFFFD";

export const FACES = [
  { file: "DejaVuSans.ttf", fontWeight: 400, fontStyle: "normal" },
  { file: "DejaVuSans-Bold.ttf", fontWeight: 700, fontStyle: "normal" },
  { file: "DejaVuSans-Oblique.ttf", fontWeight: 400, fontStyle: "italic" },
] as const;

/** The font file's path inside the installed npm package. */
export function fontPath(file: string): string {
  return fileURLToPath(import.meta.resolve(`dejavu-fonts-ttf/ttf/${file}`));
}

Font.register({
  family: FONT_FAMILY,
  fonts: FACES.map(({ file, fontWeight, fontStyle }) => ({
    src: fontPath(file),
    fontWeight,
    fontStyle,
  })),
});

/** Words longer than this (an e-mail address, a URL) may break anywhere, not only between syllables. */
const LONG_WORD = 24;
const CHUNK = 12;

/**
 * Break points inside a word. react-pdf breaks lines only at spaces and at
 * these points, drawing a hyphen there: English syllables for ordinary
 * words, and for a long unbroken token (an e-mail address, a web address, a
 * long SKU) after its punctuation and every few letters, so it wraps inside
 * its column instead of running over the next one. No piece ends with a
 * hyphen of its own, which would print doubled at a break.
 */
export function wordParts(word: string, syllables: (word: string) => string[]): string[] {
  if (word.length <= LONG_WORD) return syllables(word);
  return word.split(/(?<=[@./_])/).flatMap((part) => {
    const pieces: string[] = [];
    let rest = part;
    while (rest.length > CHUNK + 4) {
      let cut = CHUNK;
      while (cut < rest.length - 1 && rest[cut - 1] === "-") cut++;
      pieces.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    pieces.push(rest);
    return pieces;
  });
}

// react-pdf passes its built-in English hyphenation as the second argument.
Font.registerHyphenationCallback((word: string, syllables?: (word: string) => string[]) =>
  wordParts(word, syllables ?? ((w) => [w]))
);

type GlyphCheck = (codePoint: number) => boolean;
let faces: Promise<GlyphCheck[]> | undefined;

/**
 * Loads the three faces once (react-pdf keeps them), remembers their shaping
 * (rememberShaping) and answers from their character maps.
 */
function loadFaces(): Promise<GlyphCheck[]> {
  faces ??= Promise.all(FACES.map(async ({ fontWeight, fontStyle }) => {
    const descriptor = { fontFamily: FONT_FAMILY, fontWeight, fontStyle };
    await Font.load(descriptor);
    const font = Font.getFont(descriptor).data;
    if (!font) throw new Error(`${FONT_FAMILY} ${fontWeight} ${fontStyle} did not load`);
    rememberShaping(font as unknown as Shaper);
    rememberOutlines(font as unknown as GlyphSource);
    return (codePoint: number) => font.hasGlyphForCodePoint(codePoint);
  }));
  return faces;
}

/** The part of a fontkit font that react-pdf's text layout calls for every run of text. */
interface Shaper {
  layout(
    text: string,
    features?: unknown,
    script?: string,
    language?: string,
    direction?: string,
  ): GlyphRun;
}
/** What shaping gives: the glyphs and their positions, one for one. */
interface GlyphRun {
  glyphs: unknown[];
  positions: object[];
}

/** Runs of text whose shaping a face keeps; past this it starts again (a renderer lives long). */
export const SHAPED_RUNS = 4000;

/**
 * Makes a face remember how it shaped each run of text. Shaping (fontkit's
 * layout: glyph substitution and kerning through the OpenType tables) was
 * about a seventh of a quote PDF's time, and most runs recur on every PDF
 * a renderer makes: the headings, labels, the store's name and footer, and
 * a quote's own text when it is printed again. The result depends only on
 * the face, the text and the options, and react-pdf only reads it (it copies
 * the positions before scaling or justifying them, and slices the glyph
 * list into new ones), so one result serves every PDF. Its lists and
 * positions are frozen: code that changed them in place (pdfkit's own text
 * calls scale the positions they get; react-pdf never makes those with our
 * faces) would throw rather than spoil the next PDF. Calls with a script or
 * language (react-pdf passes neither) are shaped as before.
 */
function rememberShaping(font: Shaper) {
  const shape = font.layout.bind(font);
  const shaped = new Map<string, GlyphRun>();
  font.layout = (text, features, script, language, direction) => {
    if (script !== undefined || language !== undefined) {
      return shape(text, features, script, language, direction);
    }
    const key = `${direction}\u0000${JSON.stringify(features) ?? ""}\u0000${text}`;
    let run = shaped.get(key);
    if (run === undefined) {
      if (shaped.size >= SHAPED_RUNS) shaped.clear();
      run = shape(text, features, script, language, direction);
      run.positions.forEach((position) => Object.freeze(position));
      Object.freeze(run.positions);
      Object.freeze(run.glyphs);
      shaped.set(key, run);
    }
    return run;
  };
}

/** The part of a fontkit font that hands out its glyphs (kept by the font, one object per glyph). */
interface GlyphSource {
  getGlyph(id: number, codePoints?: number[]): { _decode?: () => unknown } | null;
  /** Set only for a variable font (DejaVu Sans is not one): then outlines depend on the variation. */
  _variationProcessor?: unknown;
}

/**
 * Makes a face's glyphs remember their decoded outline. Each PDF embeds the
 * glyphs it uses (a subset of the face), and fontkit, to find out whether a
 * glyph is made of others, decodes its whole outline from the font file,
 * every point of it, for every PDF: a twentieth of a quote PDF's time. The
 * outline of a glyph of a fixed face never changes, and fontkit only reads
 * it (the subset copies the glyph's bytes before renumbering the parts of a
 * composite one), so each glyph decodes once per renderer. A variable font's
 * outlines depend on its variation and are left alone.
 */
function rememberOutlines(font: GlyphSource) {
  const getGlyph = font.getGlyph.bind(font);
  font.getGlyph = (id, codePoints) => {
    const glyph = getGlyph(id, codePoints);
    const decode = glyph?._decode;
    if (glyph && decode && !Object.hasOwn(glyph, "_decode") && !font._variationProcessor) {
      let outline: { value: unknown } | undefined;
      glyph._decode = function (this: unknown) {
        outline ??= { value: decode.call(this) };
        return outline.value;
      };
    }
    return glyph;
  };
}

/** A PDF's model (quote, work order) with every string made printable in the PDF's typeface; numbers (cents) untouched. */
export function printable<T>(value: T, clean: (text: string) => string): T {
  if (typeof value === "string") return clean(value) as T;
  if (Array.isArray(value)) return value.map((v) => printable(v, clean)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, printable(v, clean)]),
    ) as T;
  }
  return value;
}

/**
 * A function that makes any text printable in the PDF's typeface: composed
 * (NFC), line breaks kept, other white space made plain spaces, invisible
 * control and format characters (zero-width space, direction marks) dropped, and each character no face can draw replaced by
 * its letter without marks when the faces have that, else by MISSING_GLYPH.
 * A character must be in every face, since any text may be set in bold.
 */
export async function textSanitizer(): Promise<(text: string) => string> {
  const checks = await loadFaces();
  const known = new Map<string, boolean>();
  const drawable = (ch: string) => {
    let ok = known.get(ch);
    if (ok === undefined) {
      const code = ch.codePointAt(0)!;
      ok = checks.every((has) => has(code));
      known.set(ch, ok);
    }
    return ok;
  };
  return (text: string) => {
    let out = "";
    for (const ch of text.normalize("NFC").replace(/\r\n?/g, "\n")) {
      if (ch === "\n") out += ch;
      else if (/\s/u.test(ch)) out += " ";
      else if (/[\p{Cc}\p{Cf}]/u.test(ch)) continue;
      else if (drawable(ch)) out += ch;
      else {
        const bare = ch.normalize("NFD").replace(/\p{M}/gu, "");
        out += bare !== "" && [...bare].every(drawable) ? bare : MISSING_GLYPH;
      }
    }
    return out;
  };
}

/** Kerning and the like never narrow a run of DejaVu Sans by this much. */
const KERNING_ALLOWANCE = 0.85;

/**
 * A function giving a lower bound of the width, in points, that text takes
 * in the regular face at `size`: the glyphs' advances without the spaces
 * (a line may end at any of them), less an allowance for kerning. The
 * layout uses it to skip densities that cannot fit before trying them.
 */
export async function widthLowerBound(): Promise<(text: string, size: number) => number> {
  await loadFaces();
  const descriptor = { fontFamily: FONT_FAMILY, fontWeight: 400, fontStyle: "normal" } as const;
  const font = Font.getFont(descriptor).data!;
  const ems = new Map<number, number>();
  const em = (code: number) => {
    let width = ems.get(code);
    if (width === undefined) {
      width = font.glyphForCodePoint(code).advanceWidth / font.unitsPerEm;
      ems.set(code, width);
    }
    return width;
  };
  return (text: string, size: number) => {
    let total = 0;
    for (const ch of text) if (ch !== " " && ch !== "\n") total += em(ch.codePointAt(0)!);
    return total * size * KERNING_ALLOWANCE;
  };
}
