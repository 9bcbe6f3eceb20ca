// Reads back the text of a PDF, page by page and word by word with its box,
// for the tests of the quote PDF and of anything that sends it. It runs
// poppler's pdftotext (Debian's poppler-utils), the reference reader: the
// PDF embeds subsetted Unicode fonts whose text is glyph ids mapped back
// through ToUnicode tables, which is exactly what a reader has to get right.
import { join } from "node:path";
import { PDFDict, PDFDocument, PDFName } from "pdf-lib";

/** One word and its box in PDF points, measured from the page's top left corner. */
export interface PdfWord {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

async function pdftotext(pdf: Uint8Array, args: string[]): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "pdf_text_" });
  try {
    const file = join(dir, "in.pdf");
    await Deno.writeFile(file, pdf);
    const { code, stdout, stderr } = await new Deno.Command("pdftotext", {
      args: ["-enc", "UTF-8", ...args, file, "-"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (code !== 0) {
      throw new Error(`pdftotext failed (${code}): ${new TextDecoder().decode(stderr)}`);
    }
    return new TextDecoder().decode(stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Each page's text in drawing order (pdftotext -raw): a label and the amount
 * beside it come out together, where the reading-order analysis could put a
 * right-aligned column of amounts after the rest of the page.
 */
export async function pdfPageTexts(pdf: Uint8Array): Promise<string[]> {
  const pages = (await pdftotext(pdf, ["-raw"])).split("\f");
  pages.pop(); // pdftotext ends every page, the last one included, with a form feed
  return pages;
}

const unescape = (text: string) =>
  text.replace(
    /&(lt|gt|amp|quot|apos);/g,
    (_, e: string) => ({ lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" })[e]!,
  );

/** Each page's words with their boxes, in page order. */
export async function pdfPageWords(pdf: Uint8Array): Promise<PdfWord[][]> {
  const html = await pdftotext(pdf, ["-bbox"]);
  return html.split(/<page\b/).slice(1).map((page) =>
    [...page.matchAll(
      /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
    )].map(([, xMin, yMin, xMax, yMax, text]) => ({
      text: unescape(text),
      xMin: Number(xMin),
      yMin: Number(yMin),
      xMax: Number(xMax),
      yMax: Number(yMax),
    }))
  );
}

/** Text without any white space, so phrases that wrap or sit in table cells still match. */
export const squash = (text: string) => text.replace(/\s+/g, "");

/** How many images (XObjects) the pages draw, all pages together. */
export async function pdfImageCount(pdf: Uint8Array): Promise<number> {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().reduce((sum, page) => {
    const xObjects = page.node.Resources()?.lookupMaybe(PDFName.of("XObject"), PDFDict);
    return sum + (xObjects?.keys().length ?? 0);
  }, 0);
}
