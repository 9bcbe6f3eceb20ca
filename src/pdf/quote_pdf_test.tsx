import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { join } from "node:path";
import { PDFDict, PDFDocument, PDFName } from "pdf-lib";
import {
  loadLogo,
  quotePdfFilename,
  renderClientCopyPdf,
  renderQuotePdf,
  toWinAnsi,
} from "./quote_pdf.tsx";
import { pdfPageRuns, pdfPageTexts, type TextRun } from "./pdf_text.ts";
import { clientCopy } from "../print/print_model.ts";
import type { QuoteBundle, QuoteItemView, QuoteOptionView } from "../quotes/views.ts";
import type { Branding } from "../settings/settings.ts";

const branding: Branding = {
  storeName: "Northside Eyewear",
  storePhone: "(555) 010-0100",
  storeEmail: "hello@northside.test",
  storeAddress: "1 Main St, Austin, TX 78701",
  storeWebsite: "northside.test",
  logoUrl: "/static/logo.svg",
  faviconUrl: "/static/favicon.svg",
};

let itemCount = 0;
const item = (
  kind: QuoteItemView["kind"],
  name: string,
  unitPrice: string,
  qty = 1,
  sku: string | null = null,
): QuoteItemView => ({
  id: `item-${++itemCount}`,
  kind,
  name,
  sku,
  unitPrice,
  qty,
  notes: "",
  catalogId: null,
});

const option = (
  label: string,
  items: QuoteItemView[],
  extra: Partial<QuoteOptionView> = {},
): QuoteOptionView => ({
  id: crypto.randomUUID(),
  label,
  notes: "",
  isChosen: false,
  shipping: "0.00",
  adjustmentAmount: "0.00",
  adjustmentReason: "",
  subtotal: "0.00",
  items,
  frameMeasurements: { segOc: "" },
  ...extra,
});

const bundleWith = (options: QuoteOptionView[], quote: Partial<QuoteBundle["quote"]> = {}) => ({
  quote: {
    id: "00000000-0000-4000-8000-00000000abcd",
    quoteNumber: "Q-001234",
    clientId: "c",
    clientName: "Ana Ruiz",
    opticianName: "Maria Lopez",
    status: "ACTIVE",
    internalNotes: "ZEBRA-7731 owes us from last time",
    createdAt: "2026-11-02T15:00:00Z",
    updatedAt: "2026-11-02T15:00:00Z",
    expiresAt: null,
    isExpired: false,
    isClosed: false,
    closureReason: null,
    footerMessage: "Prices valid for 30 days.",
    version: 3,
    ...quote,
  },
  client: {
    id: "c",
    firstName: "Ana",
    middleName: null,
    lastName: "Ruiz",
    email: "ana@example.com",
    mobilePhone: "(555) 010-2233",
    homePhone: null,
    dob: "1980-04-09",
    address1: "9 Elm St",
    address2: null,
    city: "Austin",
    state: "TX",
    zip: "78701",
    smsConsent: true,
    emailConsent: false,
    heardHow: "Instagram",
  },
  options,
  clientMeasurements: {
    pdBinocular: "63.5",
    pdNear: "60.5",
    measurementsComplete: true,
    extras: { Vertex: "VERTEX-12" },
  },
  frameMeasurements: {},
} satisfies QuoteBundle);

const threeOptions = () => [
  option("Everyday", [
    item("FRAME", "Ray-Ban", "150.00", 1, "RB-1"),
    item("PACKAGE", "Premium progressive package", "289.00"),
    item("OTHER", "Hard case", "12.50", 2),
  ], {
    notes: "Pick up on Friday.",
    shipping: "15.00",
    adjustmentAmount: "-25.00",
    adjustmentReason: "Loyalty discount",
  }),
  option("Sport", [item("FRAME", "Oakley", "199.99", 1, "OK-2")], {
    frameMeasurements: { segOc: "SEGOC-22" },
  }),
  option("Reading", [item("FRAME", "House frame", "49.00")]),
];

/** Page texts with the runs joined, so phrases split into runs still match. */
async function pagesOf(pdf: Uint8Array) {
  return (await pdfPageTexts(pdf)).map((text) => text.replaceAll("\n", ""));
}

async function pageSizes(pdf: Uint8Array) {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((page) => page.getSize());
}

const LETTER = { width: 612, height: 792 };

const MONEY = /^[-+]?\$[\d,]+\.\d\d$/;
/** Helvetica and Helvetica-Bold advance widths (per 1000 em) of what amounts are made of. */
const AMOUNT_WIDTHS: Record<string, number> = { "$": 556, ".": 278, ",": 278, "-": 333, "+": 584 };
const rightEdge = (run: TextRun) =>
  run.x + [...run.text].reduce((w, ch) => w + (AMOUNT_WIDTHS[ch] ?? 556), 0) / 1000 * run.size;

async function imageCount(pdf: Uint8Array) {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().reduce((sum, page) => {
    const xObjects = page.node.Resources()?.lookupMaybe(PDFName.of("XObject"), PDFDict);
    return sum + (xObjects?.keys().length ?? 0);
  }, 0);
}

describe("renderQuotePdf", () => {
  it("gives each option one LETTER portrait page with header, client, details, prices and footer", async () => {
    const pdf = await renderQuotePdf(bundleWith(threeOptions()), branding);
    expect(await pageSizes(pdf)).toEqual([LETTER, LETTER, LETTER]);
    const pages = await pagesOf(pdf);
    const names = ["RB-1", "OK-2", "Reading"];
    pages.forEach((text, i) => {
      for (
        const expected of [
          "Northside Eyewear",
          "EYEWEAR QUOTE",
          names[i],
          "Q-001234",
          "November 2, 2026",
          `Page ${i + 1} of 3`,
          "Ana Ruiz",
          "ana@example.com",
          "(555) 010-2233",
          "9 Elm St",
          "Austin, TX 78701",
          "Maria Lopez",
          "Active",
          "Prices valid for 30 days.",
          "1 Main St, Austin, TX 78701",
          "(555) 010-0100",
          "hello@northside.test",
          "northside.test",
        ]
      ) expect(text).toContain(expected);
    });
    // 150 + 289 + 2 × 12.50 = 464, + 15 shipping, - 25 discount.
    for (
      const expected of [
        "Pick up on Friday.",
        "Lens package",
        "Premium progressive package",
        "Hard case × 2",
        "$25.00",
        "Subtotal$464.00",
        "Shipping$15.00",
        "Loyalty discount-$25.00",
        "Total$454.00",
      ]
    ) expect(pages[0]).toContain(expected);
    expect(pages[1]).toContain("Total$199.99");
    expect(pages[1]).not.toContain("Shipping");
    expect(pages[1]).not.toContain("OPTION NOTES");
    expect(pages[2]).toContain("Total$49.00");
    expect(pages.join()).not.toContain("× 1");
    const doc = await PDFDocument.load(pdf);
    expect(doc.getTitle()).toBe("Quote Q-001234");
  });

  it("lays prices out in one right-aligned column, rows apart, inside the margins", async () => {
    const pdf = await renderQuotePdf(bundleWith(threeOptions()), branding);
    for (const runs of await pdfPageRuns(pdf)) {
      const prices = runs.filter((r) => MONEY.test(r.text));
      expect(prices.length).toBeGreaterThanOrEqual(3); // a line, the subtotal and the total
      const rightEdges = prices.map(rightEdge);
      for (const edge of rightEdges) expect(edge).toBeCloseTo(rightEdges[0], 0);
      // Top to bottom, at least a line apart: rows squashed together would overlap.
      prices.slice(1).forEach((price, i) => {
        expect(prices[i].y - price.y).toBeGreaterThanOrEqual(prices[i].size);
      });
      // Helvetica rises about 0.72 em above the baseline and drops about 0.21 below.
      for (const run of runs) {
        expect(run.x).toBeGreaterThanOrEqual(36);
        expect(run.y - 0.25 * run.size).toBeGreaterThanOrEqual(36);
        expect(run.y + 0.75 * run.size).toBeLessThanOrEqual(792 - 36);
      }
    }
  });

  it("shows one page saying so when the quote has no options", async () => {
    const pdf = await renderQuotePdf(bundleWith([]), branding);
    expect(await pageSizes(pdf)).toEqual([LETTER]);
    const [text] = await pagesOf(pdf);
    expect(text).toContain("No options available for this quote.");
    expect(text).toContain("Page 1 of 1");
    expect(text).toContain("Ana Ruiz");
    expect(text).toContain("Prices valid for 30 days.");
  });

  it("shows no internal notes, measurements or other staff-only data", async () => {
    const pdf = await renderQuotePdf(bundleWith(threeOptions()), branding);
    const text = (await pdfPageTexts(pdf)).join("\n");
    // Hyphenation could split a word over two runs: compare without breaks too.
    const squashed = text.replace(/[\s-]/g, "");
    expect(text).toContain("Pick up on Friday."); // the extraction does see the page text
    for (
      const secret of ["ZEBRA", "7731", "63.5", "60.5", "VERTEX", "SEGOC", "Instagram", "1980"]
    ) {
      expect(squashed).not.toContain(secret);
    }
  });

  it("keeps each option on one page with 12 lines and 2,000 characters of notes", async () => {
    const lines = Array.from(
      { length: 12 },
      (_, i) =>
        item(
          i === 0 ? "FRAME" : "OTHER",
          `Line ${i + 1} with a fairly descriptive name`,
          "10.00",
          1,
          i === 0 ? "LONG-1" : null,
        ),
    );
    const notes = ("The client asked about blue-light filtering for screen work. ".repeat(40))
      .slice(0, 1990) + " ENDNOTE";
    const pdf = await renderQuotePdf(
      bundleWith([
        option("Long", lines, { notes, shipping: "9.95", adjustmentAmount: "-10.00" }),
        threeOptions()[0],
      ]),
      branding,
    );
    expect(await pageSizes(pdf)).toEqual([LETTER, LETTER]);
    const pages = await pagesOf(pdf);
    expect(pages[0]).toContain("Page 1 of 2");
    expect(pages[0]).toContain("Line 1 with a fairly descriptive name");
    expect(pages[0]).toContain("Line 12 with a fairly descriptive name");
    expect(pages[0]).toContain("ENDNOTE");
    expect(pages[0]).toContain("Total$119.95");
    expect(pages[0]).toContain("northside.test");
    expect(pages[1]).toContain("Total$454.00");
  });

  it("keeps one page per option even for far more than any real quote holds", async () => {
    // The schema's limits: 50 items of 200 characters, 2,000 characters of notes.
    const name = (i: number) =>
      `Custom line ${i + 1} ${"with a descriptive name that goes on and on ".repeat(5)}`.slice(
        0,
        200,
      );
    const lines = Array.from({ length: 50 }, (_, i) => item("OTHER", name(i), "5.00", 2));
    const pdf = await renderQuotePdf(
      bundleWith([
        option("Huge", lines, { notes: "word ".repeat(400), adjustmentAmount: "-20.00" }),
        threeOptions()[1],
      ], { footerMessage: "Thank you for your visit. ".repeat(12) }),
      branding,
    );
    expect(await pageSizes(pdf)).toEqual([LETTER, LETTER]);
    const pages = await pagesOf(pdf);
    expect(pages[0]).toContain("Page 1 of 2");
    expect(pages[0]).toContain("Total$480.00");
    expect(pages[0]).toContain("Not every item fits on this page; the total includes them all.");
    expect(pages[1]).toContain("Total$199.99");
    expect(pages[1]).not.toContain("Not every item fits");
  });

  it("prints letters Helvetica lacks without junk", async () => {
    const bundle = bundleWith([threeOptions()[1]]);
    bundle.client.firstName = "Nguyễn";
    bundle.client.lastName = "Zoë 李";
    const [text] = await pagesOf(await renderQuotePdf(bundle, branding));
    expect(text).toContain("Nguyen Zoë ?");
  });

  it("prints the store name, not an image, for the default SVG logo", async () => {
    const pdf = await renderQuotePdf(bundleWith(threeOptions()), branding);
    expect(await imageCount(pdf)).toBe(0);
    expect((await pagesOf(pdf))[0]).toMatch(/^Northside Eyewear/);
  });
});

describe("toWinAnsi", () => {
  it("keeps Windows-1252 text, strips marks it lacks, and marks the rest with ?", () => {
    expect(toWinAnsi("Ærø – “ok” € × 2")).toBe("Ærø – “ok” € × 2");
    expect(toWinAnsi("Trần Thị\tẢnh\r\nline 2\u200b")).toBe("Tran Thi Anh\nline 2");
    expect(toWinAnsi("李 😀")).toBe("? ?");
    // A decomposed é (e + combining accent) is composed, not stripped.
    expect(toWinAnsi("Jose\u0301")).toBe("José");
  });
});

// An 8×8 PNG in the store's teal.
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR42mOQ94vHihiGlgQA3eUzAUc2QwUAAAAASUVORK5CYII=",
  ),
  (c) => c.charCodeAt(0),
);

// A JPEG's start, frame header (1×1, 3 components) and end: enough for the checks.
const JPEG = Uint8Array.of(
  ...[0xff, 0xd8],
  ...[0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x01, 0x00, 0x01, 0x03],
  ...[0x01, 0x11, 0x00, 0x02, 0x11, 0x00, 0x03, 0x11, 0x00],
  ...[0xff, 0xd9],
);

describe("logos", () => {
  let root: string;
  let staticDir: string;
  before(async () => {
    root = await Deno.makeTempDir();
    staticDir = join(root, "static");
    await Deno.mkdir(join(staticDir, "img"), { recursive: true });
    await Deno.writeFile(join(staticDir, "img", "logo.png"), PNG);
    await Deno.writeFile(join(staticDir, "logo.jpg"), JPEG);
    await Deno.writeTextFile(join(staticDir, "logo.svg"), "<svg/>");
    await Deno.writeTextFile(join(staticDir, "svg-named.png"), "<svg/>");
    await Deno.writeFile(join(root, "secret.png"), PNG);
    // Right magic bytes, damaged body: react-pdf would leave a hole for it.
    await Deno.writeFile(join(staticDir, "damaged.png"), Uint8Array.of(...PNG.slice(0, 40), 1, 2));
  });
  after(() => Deno.remove(root, { recursive: true }));

  it("reads PNG and JPEG files under /static/ by their bytes, nothing else", async () => {
    expect((await loadLogo("/static/img/logo.png", staticDir))?.format).toBe("png");
    expect((await loadLogo("/static/img/logo.png?v=2", staticDir))?.format).toBe("png");
    expect((await loadLogo("/static/logo.jpg", staticDir))?.format).toBe("jpg");
    for (
      const url of [
        "/static/logo.svg",
        "/static/svg-named.png",
        "/static/damaged.png",
        "/static/missing.png",
        "/static/img",
        "/static/../secret.png",
        "/static/%2e%2e/secret.png",
        "/static/..%2fsecret.png",
        "/static/img/..%2f..%2fsecret.png",
        "/objects/uploads/3f2a",
        "https://example.com/static/logo.png",
        "//example.com/static/logo.png",
        "",
      ]
    ) expect(await loadLogo(url, staticDir)).toBeUndefined();
  });

  it("embeds a PNG logo beside the store name", async () => {
    const logo = await loadLogo("/static/img/logo.png", staticDir);
    const pdf = await renderClientCopyPdf(clientCopy(bundleWith(threeOptions()), branding), logo);
    expect(await pageSizes(pdf)).toEqual([LETTER, LETTER, LETTER]);
    expect(await imageCount(pdf)).toBe(3);
    expect((await pagesOf(pdf))[0]).toContain("Northside Eyewear");
  });
});

describe("quotePdfFilename", () => {
  it("names the file after the quote number, safe for a header", () => {
    expect(quotePdfFilename(bundleWith([]))).toBe("Quote-Q-001234.pdf");
    expect(quotePdfFilename(bundleWith([], { quoteNumber: "" }))).toBe("Quote-0000abcd.pdf");
    expect(quotePdfFilename(bundleWith([], { quoteNumber: 'Q/12 "3' }))).toBe("Quote-Q_12_3.pdf");
  });
});
