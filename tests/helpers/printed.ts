// One fixture for reading paper back: a page printed to PDF the way the
// browser's print would, and any PDF's page sizes and text (poppler's
// pdftotext, as any PDF reader would read it).
import type { Page } from "playwright-core";
import { PDFDocument } from "pdf-lib";
import { screenshotPath } from "./browser.ts";

export interface Printed {
  /** Each page's size in points, "612x792" for Letter portrait. */
  sizes: string[];
  /** Each page's text, white space folded to single spaces. */
  pages: string[];
}

/** A PDF's page sizes and text; kept beside the screenshots as `name`.pdf when asked. */
export async function readPdf(bytes: Uint8Array, name?: string): Promise<Printed> {
  const pdf = await PDFDocument.load(bytes);
  const sizes = pdf.getPages().map((p) => {
    const { width, height } = p.getSize();
    return `${Math.round(width)}x${Math.round(height)}`;
  });
  const file = await Deno.makeTempFile({ suffix: ".pdf" });
  try {
    await Deno.writeFile(file, bytes);
    const shot = name && screenshotPath(name);
    if (shot) await Deno.copyFile(file, shot.replace(/\.png$/, ".pdf"));
    const out = await new Deno.Command("pdftotext", { args: [file, "-"] }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    // pdftotext ends every page with a form feed.
    const pages = new TextDecoder().decode(out.stdout).split("\f").slice(0, sizes.length)
      .map((p) => p.replace(/\s+/g, " "));
    return { sizes, pages };
  } finally {
    await Deno.remove(file);
  }
}

/** Prints the page as the browser's print would (its CSS page size, backgrounds). */
export async function printed(page: Page, name: string): Promise<Printed> {
  return await readPdf(await page.pdf({ preferCSSPageSize: true, printBackground: true }), name);
}

/** An image drawn in a PDF: its pixels, and the pixels per inch it is drawn at each way. */
export interface PdfImageUse {
  page: number;
  width: number;
  height: number;
  xPpi: number;
  yPpi: number;
}

/**
 * Every image a PDF draws, as poppler's `pdfimages -list` reads it. The size
 * it is drawn at is its pixels over its ppi: equal x and y ppi mean the image
 * keeps its aspect ratio.
 */
export async function pdfImages(bytes: Uint8Array): Promise<PdfImageUse[]> {
  const file = await Deno.makeTempFile({ suffix: ".pdf" });
  try {
    await Deno.writeFile(file, bytes);
    const out = await new Deno.Command("pdfimages", { args: ["-list", file] }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    // Two header lines, then: page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
    return new TextDecoder().decode(out.stdout).split("\n").slice(2).filter((l) => l.trim())
      .map((line) => line.trim().split(/\s+/))
      // A soft mask (an alpha channel) is listed as its own "smask" row: not an image of its own.
      .filter((cols) => cols[2] === "image")
      .map((cols) => ({
        page: Number(cols[0]),
        width: Number(cols[3]),
        height: Number(cols[4]),
        xPpi: Number(cols[12]),
        yPpi: Number(cols[13]),
      }));
  } finally {
    await Deno.remove(file);
  }
}

async function withPdfFile<T>(bytes: Uint8Array, use: (file: string) => Promise<T>): Promise<T> {
  const file = await Deno.makeTempFile({ suffix: ".pdf" });
  try {
    await Deno.writeFile(file, bytes);
    return await use(file);
  } finally {
    await Deno.remove(file);
  }
}

async function run(command: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(command, { args }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

/** The number of pages poppler's `pdfinfo` counts. */
export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  const info = await withPdfFile(bytes, (file) => run("pdfinfo", [file]));
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
}

/**
 * Each page's text as `pdftotext -raw` reads it: in the order it was drawn,
 * so a label column beside a long value does not interleave with it.
 */
export async function pdfRawPages(bytes: Uint8Array): Promise<string[]> {
  const text = await withPdfFile(bytes, (file) => run("pdftotext", ["-raw", file, "-"]));
  return text.split("\f").slice(0, -1);
}

/**
 * Text as compared with what was printed: without white space and hyphens,
 * which line breaks add (a hyphen where a word was broken) or take away.
 */
export const squeezed = (text: string) => text.replace(/[\s\u00ad-]+/g, "");
