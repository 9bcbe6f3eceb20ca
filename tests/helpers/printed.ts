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
