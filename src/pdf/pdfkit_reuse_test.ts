import { describe, it } from "node:test";
import { expect } from "expect";
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from "pdf-lib";
import type { ClientCopy } from "../print/print_model.ts";
import { pdfImageFor } from "./logo_image.ts";
import { renderClientCopyPdf } from "./quote_pdf.tsx";
import { reuseCounts } from "./pdfkit_reuse.ts";
import { pdfPageTexts } from "./pdf_text.ts";

const copy: ClientCopy = {
  header: {
    storeName: "Northside Eyewear",
    logoUrl: "/static/logo.svg",
    quoteNumber: "Q-000123",
    date: "March 3, 2026",
    clientName: "Ana Łukasiewicz",
    opticianName: "Dr. Weiss",
    status: "Active",
  },
  client: {
    name: "Ana Łukasiewicz",
    email: "ana@example.com",
    phone: "(555) 010-0199",
    address: ["12 Elm Street", "Springfield"],
  },
  validity: "Valid until April 2, 2026",
  pages: [1, 2].map((pageNumber) => ({
    optionId: `option-${pageNumber}`,
    optionName: `Option ${pageNumber}`,
    pageNumber,
    pageCount: 2,
    notes: pageNumber === 1 ? "Progressives for reading and driving." : "",
    prices: {
      lines: [
        { kind: "FRAME", kindLabel: "Frame", name: "Ray-Ban RB5154", qty: 1, cents: 18900 },
        { kind: "LENS", kindLabel: "Lens", name: "Single Vision", qty: 2, cents: 12000 },
      ],
      subtotalCents: 42900,
      shippingCents: 0,
      adjustment: pageNumber === 1 ? { label: "Loyalty discount", cents: -1000 } : null,
      totalCents: pageNumber === 1 ? 41900 : 42900,
    },
  })),
  footer: {
    storeAddress: "100 Main Street",
    storePhone: "(555) 010-0100",
    storeEmail: "hello@example.com",
    storeWebsite: "",
    message: "",
  },
  emptyText: "No options.",
};

/** An SVG logo with see-through parts: rasterized, a PNG with an alpha channel. */
const svgLogo = (fill: string) =>
  new TextEncoder().encode(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 50">` +
      `<circle cx="25" cy="25" r="20" fill="${fill}"/><rect x="60" y="10" width="120" ` +
      `height="30" fill="${fill}" opacity="0.5"/></svg>`,
  );

/** Each image drawn: its stream's bytes and its alpha plane's (SMask), as written. */
async function imageStreams(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf);
  const out: string[] = [];
  for (const page of doc.getPages()) {
    const xObjects = page.node.Resources()?.lookupMaybe(PDFName.of("XObject"), PDFDict);
    for (const key of xObjects?.keys() ?? []) {
      const image = xObjects!.lookup(key) as PDFRawStream;
      const mask = image.dict.lookup(PDFName.of("SMask")) as PDFRawStream | undefined;
      out.push(`${image.contents.join(",")}|${mask?.contents.join(",")}`);
    }
  }
  return out;
}

describe("pdfkit shortcuts", () => {
  it("print the same PDF as pdfkit's own work: text, logo and its alpha plane", async () => {
    const logo = (await pdfImageFor({ format: "svg", bytes: svgLogo("#1f4e5f") }))!;
    const fontsBefore = reuseCounts.fonts;
    const imagesBefore = reuseCounts.images;
    // The first PDF with these bytes splits the PNG itself; the next ones reuse its planes.
    const first = await renderClientCopyPdf(copy, logo);
    const second = await renderClientCopyPdf(copy, logo);
    expect(reuseCounts.images - imagesBefore).toBe(1);
    // The typeface is set before every run of text: most of those find the font it has.
    expect(reuseCounts.fonts - fontsBefore).toBeGreaterThan(40);

    expect(await pdfPageTexts(second)).toEqual(await pdfPageTexts(first));
    const streams = await imageStreams(first);
    expect(streams.length).toBe(2);
    // An alpha plane was written, and the second PDF's are the same bytes.
    expect(streams[0].split("|")[1]).not.toBe("undefined");
    expect(await imageStreams(second)).toEqual(streams);
  });

  it("never print a logo's planes for other bytes", async () => {
    const teal = (await pdfImageFor({ format: "svg", bytes: svgLogo("#1f4e5f") }))!;
    const red = (await pdfImageFor({ format: "svg", bytes: svgLogo("#b3261e") }))!;
    const tealStreams = await imageStreams(await renderClientCopyPdf(copy, teal));
    const redFirst = await imageStreams(await renderClientCopyPdf(copy, red));
    expect(redFirst).not.toEqual(tealStreams);
    // Once kept, each logo's planes are its own.
    expect(await imageStreams(await renderClientCopyPdf(copy, red))).toEqual(redFirst);
    expect(await imageStreams(await renderClientCopyPdf(copy, teal))).toEqual(tealStreams);
  });
});
