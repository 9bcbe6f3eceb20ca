import { describe, it } from "node:test";
import { expect } from "expect";
import { PDFDocument } from "pdf-lib";
import { renderClientCopyPdf } from "./quote_pdf.tsx";
import { quotePdfFilename } from "./render_quote_pdf.ts";
import { pdfImageCount, pdfPageTexts, pdfPageWords, squash } from "./pdf_text.ts";
import { pdfImageFor } from "./logo_image.ts";
import { logoBytesFor } from "./logo_source.ts";
import { MISSING_GLYPH } from "./fonts.ts";
import { clientCopy } from "../print/print_model.ts";
import {
  bundleFrom,
  fill,
  maximalClient,
  maximalOption,
  maximalOptionTotal,
} from "../../tests/helpers/quote_fixture.ts";
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
    storeId: "s1",
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

/** Renders in this process, as a PDF renderer process does. */
async function renderQuotePdf(bundle: QuoteBundle, brand: Branding, logoUrl = "") {
  const logo = await logoBytesFor(logoUrl);
  return await renderClientCopyPdf(
    clientCopy(bundle, brand),
    logo ? await pdfImageFor(logo) : undefined,
  );
}

/** Page texts without white space, so phrases in table cells or wrapped still match. */
async function pagesOf(pdf: Uint8Array) {
  return (await pdfPageTexts(pdf)).map(squash);
}

async function pageSizes(pdf: Uint8Array) {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((page) => page.getSize());
}

const LETTER = { width: 612, height: 792 };

const MONEY = /^[-+]?\$[\d,]+\.\d\d$/;

describe("renderClientCopyPdf", () => {
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
      ) expect(text).toContain(squash(expected));
    });
    // 150 + 289 + 2 × 12.50 = 464, + 15 shipping, - 25 discount.
    for (
      const expected of [
        "Pick up on Friday.",
        "Lens package",
        "Premium progressive package",
        "Hard case × 2",
        "$25.00",
        "Subtotal $464.00",
        "Shipping $15.00",
        "Loyalty discount -$25.00",
        "Total $454.00",
      ]
    ) expect(pages[0]).toContain(squash(expected));
    expect(pages[1]).toContain("Total$199.99");
    expect(pages[1]).not.toContain("Shipping");
    expect(pages[1]).not.toContain("OPTIONNOTES");
    expect(pages[2]).toContain("Total$49.00");
    expect(pages.join()).not.toContain("×1");
    expect(pages.join()).not.toContain("continuedinthesystem");
    const doc = await PDFDocument.load(pdf);
    expect(doc.getTitle()).toBe("Quote Q-001234");
  });

  it("wraps the footer between its parts, never inside the store's e-mail or web address", async () => {
    const long: Branding = {
      ...branding,
      storeAddress: "Suite 1400, 2501 North Lamar Boulevard, Riverside Commons, Austin, TX 78705",
      storePhone: "(555) 010-0100 ext. 2201",
      storeEmail: "appointments@northside-eyewear.test",
      storeWebsite: "www.northside-eyewear.test/book",
    };
    const short = { ...maximalOption(1), notes: "", items: maximalOption(1).items.slice(0, 2) };
    const pdf = await renderQuotePdf(bundleFrom(maximalClient(), [short], "Thanks"), long);
    for (const words of await pdfPageWords(pdf)) {
      const texts = words.map((word) => word.text);
      expect(texts).toContain(long.storeEmail);
      expect(texts).toContain(long.storeWebsite);
      // The contact line is long enough to wrap (store name and address on
      // the first line): the rest goes to the next line whole.
      const name = words.findLast((word) => word.text === "Northside")!;
      const email = words.find((word) => word.text === long.storeEmail)!;
      expect(email.yMin).toBeGreaterThan(name.yMax - 1);
      const footer = words.filter((word) => word.yMin >= name.yMin - 1).map((word) => word.text);
      expect(footer.filter((text) => text.endsWith("-") && text !== "-")).toEqual([]);
    }
  });

  it("lays prices out in one right-aligned column, rows apart, inside the margins", async () => {
    const pdf = await renderQuotePdf(bundleWith(threeOptions()), branding);
    for (const words of await pdfPageWords(pdf)) {
      const prices = words.filter((w) => MONEY.test(w.text));
      expect(prices.length).toBeGreaterThanOrEqual(3); // a line, the subtotal and the total
      for (const price of prices) expect(price.xMax).toBeCloseTo(prices[0].xMax, 0);
      // Top to bottom, no two on one row: rows squashed together would overlap.
      prices.slice(1).forEach((price, i) => {
        expect(price.yMin).toBeGreaterThanOrEqual(prices[i].yMax - 0.5);
      });
      for (const word of words) {
        expect(word.xMin).toBeGreaterThanOrEqual(36);
        expect(word.xMax).toBeLessThanOrEqual(612 - 36 + 0.01);
        expect(word.yMin).toBeGreaterThanOrEqual(36);
        expect(word.yMax).toBeLessThanOrEqual(792 - 36);
      }
    }
  });

  it("shows one page saying so when the quote has no options", async () => {
    const pdf = await renderQuotePdf(bundleWith([]), branding);
    expect(await pageSizes(pdf)).toEqual([LETTER]);
    const [text] = await pagesOf(pdf);
    expect(text).toContain(squash("No options available for this quote."));
    expect(text).toContain("Page1of1");
    expect(text).toContain("AnaRuiz");
    expect(text).toContain(squash("Prices valid for 30 days."));
  });

  it("shows no internal notes, measurements or other staff-only data", async () => {
    const pdf = await renderQuotePdf(bundleWith(threeOptions()), branding);
    const text = (await pdfPageTexts(pdf)).join("\n");
    // Hyphenation could split a word over two lines: compare without breaks too.
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
    expect(pages[0]).toContain("Page1of2");
    expect(pages[0]).toContain(squash("Line 1 with a fairly descriptive name"));
    expect(pages[0]).toContain(squash("Line 12 with a fairly descriptive name"));
    expect(pages[0]).toContain("ENDNOTE");
    expect(pages[0]).toContain("Total$119.95");
    expect(pages[0]).toContain("northside.test");
    // It all fits once smaller: nothing is left off, so nothing says so.
    expect(pages[0]).not.toContain("continuedinthesystem");
    expect(pages[1]).toContain("Total$454.00");
  });

  it("keeps one page per option at the schema's limits, saying what it left off", async () => {
    const options = [maximalOption(1), maximalOption(2), maximalOption(3)];
    const bundle = bundleFrom(maximalClient(), options);
    const pdf = await renderQuotePdf(bundle, branding);
    expect(await pageSizes(pdf)).toEqual([LETTER, LETTER, LETTER]);
    const pages = await pagesOf(pdf);
    pages.forEach((page, i) => {
      expect(page).toContain(`Page${i + 1}of3`);
      // 50 × 999 × the unit price + $999,999.99 shipping - $999,999.99 discount.
      expect(page).toContain(`Total${maximalOptionTotal()}`);
      expect(page).toContain("Greater");
      expect(page).toContain(squash(fill("Thank you for your visit. ", 60).trim()));
      expect(page).toContain("northside.test");
      // The notes are cut, and say so.
      expect(page).toContain(squash(`Notes of option #${i + 1}:`));
      expect(page).toContain("…(continuedinthesystem)");
      // The lines shown and the lines said to be left off add up to all 50.
      const shown = new Set([...page.matchAll(/Item#(\d+)/g)].map((m) => Number(m[1])));
      // The count follows the last amount's cents directly in the squashed text.
      const hidden = Number(page.match(/(?:\.\d\d)?(\d+)moreitemscontinuedinthesystem/)?.[1]);
      expect(shown.size).toBeGreaterThan(0);
      expect(shown.size + hidden).toBe(50);
      // The first lines are the ones shown.
      expect([...shown].sort((a, b) => a - b)).toEqual(
        Array.from({ length: shown.size }, (_, n) => n + 1),
      );
      expect(page).toContain(squash("the total includes them all."));
      expect(page).toContain(squash("Shortened descriptions are continued in the system."));
    });
    // Nothing drawn outside the page margins, cut rows included.
    for (const words of await pdfPageWords(pdf)) {
      for (const word of words) {
        expect(word.xMax).toBeLessThanOrEqual(612 - 36 + 0.5);
        expect(word.yMax).toBeLessThanOrEqual(792 - 36 + 0.5);
      }
    }
  });

  it("prints Latin-extended, Greek and Cyrillic as typed, and marks what the font lacks", async () => {
    const bundle = bundleWith([threeOptions()[1]]);
    bundle.client.firstName = "Łukasiewicz Nguyễn";
    bundle.client.lastName = "Παπαδόπουλος-Иванова 李小龍";
    const [text] = await pdfPageTexts(await renderQuotePdf(bundle, branding));
    for (const name of ["Łukasiewicz", "Nguyễn", "Παπαδόπουλος", "Иванова"]) {
      expect(text).toContain(name);
    }
    // CJK is not in the font: each character shows as the replacement mark, never as nothing.
    expect(text).toContain(MISSING_GLYPH.repeat(3));
    expect(text).not.toContain("李");
  });

  it("draws the built-in SVG logo beside the store name on every page", async () => {
    const pdf = await renderQuotePdf(bundleWith(threeOptions()), branding, "/static/logo.svg");
    expect(await pdfImageCount(pdf)).toBe(3);
    expect((await pagesOf(pdf))[0]).toContain("NorthsideEyewear");
  });

  it("prints the store name, and no image, without a usable logo", async () => {
    for (const logoUrl of ["", "/static/missing.png", "https://example.com/logo.png"]) {
      const pdf = await renderQuotePdf(bundleWith(threeOptions()), branding, logoUrl);
      expect(await pdfImageCount(pdf)).toBe(0);
      expect((await pagesOf(pdf))[0]).toContain("NorthsideEyewear");
    }
  });
});

describe("quotePdfFilename", () => {
  it("names the file after the quote number, safe for a header", () => {
    expect(quotePdfFilename(bundleWith([]))).toBe("Quote-Q-001234.pdf");
    expect(quotePdfFilename(bundleWith([], { quoteNumber: "" }))).toBe("Quote-0000abcd.pdf");
    expect(quotePdfFilename(bundleWith([], { quoteNumber: 'Q/12 "3' }))).toBe("Quote-Q_12_3.pdf");
  });
});
