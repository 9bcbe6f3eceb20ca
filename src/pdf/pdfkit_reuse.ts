// Work pdfkit (the PDF writer under react-pdf) repeats that a renderer can
// skip, found by profiling the bench's quote PDF in a renderer:
//
// - react-pdf sets the typeface before every run of text, handing pdfkit the
//   font object itself. pdfkit then builds a new embedded font (a new glyph
//   subset with it) only to find the document already has one by that name,
//   and compares the two by serializing both fonts' name tables to JSON: some
//   two dozen times per page. When the document's font by that name is the
//   very same font object, that comparison can only agree, so it is skipped.
// - A PNG with an alpha channel (the logo, which is a PNG with transparency
//   whenever it comes from an SVG) is decompressed, split into its colour
//   and alpha planes and both compressed again, for every PDF: about a tenth
//   of a quote PDF's time. The two compressed planes depend only on the
//   PNG's bytes, so a renderer keeps them for the bytes it was given and
//   writes them into the next PDFs as they are.
//
// Both reach into pdfkit's internals (react-pdf pins its pdfkit version,
// and deno.json pins the same one). Each shortcut checks the shapes it relies on and
// otherwise leaves pdfkit to do its own work, so a pdfkit that changed
// makes PDFs as slowly as before, never wrong ones; pdfkit_reuse_test.ts
// says so if the shortcuts stop being taken.
import PDFDocument from "pdfkit";

/** The parts of a pdfkit document the shortcuts read and set. */
interface Doc {
  _font: unknown;
  _fontCount: number;
  _fontSource: unknown;
  _fontFamily: unknown;
  _fontFamilies: Record<string, { font?: unknown } | undefined>;
  fontSize(size: number): Doc;
}

/** A pdfkit PNG image on its way into a document. */
interface PngImage {
  imgData: Uint8Array | null;
  alphaChannel?: Uint8Array;
  splitAlphaChannel(): unknown;
  finalize(): unknown;
}

/** How often each shortcut was taken (for the tests). */
export const reuseCounts = { fonts: 0, images: 0 };

/** The compressed colour and alpha planes of a PNG, by the PNG's bytes. */
const splitPlanes = new WeakMap<Uint8Array, { imgData: Uint8Array; alphaChannel: Uint8Array }>();

let installed = false;

/** Installs the shortcuts on pdfkit's document (once per process). */
export function reusePdfkitWork(): void {
  if (installed) return;
  installed = true;
  const proto = (PDFDocument as unknown as { prototype: Record<string, unknown> }).prototype;
  const font = proto.font;
  const openImage = proto.openImage;
  if (typeof font !== "function" || typeof openImage !== "function") return;

  proto.font = function (this: Doc, src: unknown, family?: unknown, size?: number) {
    // pdfkit's own reading of font(src, size).
    if (typeof family === "number") {
      size = family;
      family = null;
    }
    const name = (src as { postscriptName?: unknown } | null)?.postscriptName;
    const known = typeof src === "object" && src !== null && typeof name === "string"
      ? this._fontFamilies?.[name]
      : undefined;
    if (known === undefined || known.font !== src || typeof this._fontCount !== "number") {
      return font.call(this, src, family, size);
    }
    // What pdfkit does when the new font equals the one it has, without making the new one.
    this._fontSource = src;
    this._fontFamily = family;
    if (size != null) this.fontSize(size);
    // It numbers each font it makes, kept or not: later fonts keep their ids.
    this._fontCount++;
    this._font = known;
    reuseCounts.fonts++;
    return this;
  };

  proto.openImage = function (this: Doc, src: unknown) {
    const image = openImage.call(this, src) as PngImage;
    if (
      !(src instanceof Uint8Array) || typeof image?.splitAlphaChannel !== "function" ||
      typeof image.finalize !== "function"
    ) {
      return image;
    }
    const planes = splitPlanes.get(src);
    const split = image.splitAlphaChannel;
    image.splitAlphaChannel = planes
      ? function (this: PngImage) {
        this.imgData = planes.imgData;
        this.alphaChannel = planes.alphaChannel;
        reuseCounts.images++;
        return this.finalize();
      }
      : function (this: PngImage) {
        // The split ends in finalize(), once the planes are compressed: kept there.
        const finalize = this.finalize;
        this.finalize = function (this: PngImage) {
          if (this.imgData && this.alphaChannel) {
            splitPlanes.set(src, { imgData: this.imgData, alphaChannel: this.alphaChannel });
          }
          return finalize.call(this);
        };
        return split.call(this);
      };
    return image;
  };
}
