// One engine: the PDF renderer's output; the quote it reads is read alike on either database.
import { describe, it } from "node:test";
import { expect } from "expect";
import { PDFDict, PDFDocument, PDFName } from "pdf-lib";
import type { TestApp } from "../helpers/test_app.ts";
import { call, signedInUser, waitUntil } from "../helpers/test_app.ts";
import {
  createQuoteThroughApi,
  maximalClient,
  maximalOptions,
  maximalOptionTotal,
} from "../helpers/quote_fixture.ts";
import { pdfPageTexts, squash } from "../../src/pdf/pdf_text.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp, cookie: string;
let quote: { id: string; quoteNumber: string };

const INTERNAL_NOTE = "QUAGGA5519 asked for a discount twice, do not go below cost";

/** A client and a quote with three priced options, written straight to the database. */
async function insertQuote() {
  const client = await app.db.insertInto("clients").values({
    firstName: "Pat",
    lastName: "Fixture",
    email: "pat@example.com",
    mobilePhone: "(555) 010-7788",
    address1: "12 Harbor Rd",
    city: "Portland",
    state: "ME",
    zip: "04101",
  }).returning("id").executeTakeFirstOrThrow();
  const row = await app.db.insertInto("quotes").values({
    clientId: client.id,
    opticianName: "Maria",
    status: "ACTIVE",
    internalNotes: INTERNAL_NOTE,
    footerMessage: "Thank you for shopping with us.",
  }).returning(["id", "quoteNumber"]).executeTakeFirstOrThrow();
  const options = [
    {
      label: "Everyday",
      notes: "Anti-glare recommended for night driving.",
      shipping: "15.00",
      adjustmentAmount: "-25.00",
      adjustmentReason: "Loyalty discount",
      items: [
        { kind: "FRAME", name: "Ray-Ban", sku: "RB-2140", unitPrice: "150.00", qty: 1 },
        { kind: "PACKAGE", name: "Premium progressive package", unitPrice: "289.00", qty: 1 },
      ],
    },
    {
      label: "Sport",
      notes: "",
      shipping: "0",
      adjustmentAmount: "0",
      adjustmentReason: "",
      items: [{ kind: "FRAME", name: "Oakley", sku: "OK-9102", unitPrice: "199.99", qty: 1 }],
    },
    {
      label: "Reading",
      notes: "",
      shipping: "0",
      adjustmentAmount: "0",
      adjustmentReason: "",
      items: [
        { kind: "FRAME", name: "House frame", sku: null, unitPrice: "49.00", qty: 1 },
        { kind: "OTHER", name: "Cleaning cloth", sku: null, unitPrice: "4.50", qty: 3 },
      ],
    },
  ] as const;
  for (const [position, { items, ...option }] of options.entries()) {
    const subtotal = items.reduce((sum, i) => sum + Number(i.unitPrice) * i.qty, 0).toFixed(2);
    const saved = await app.db.insertInto("quoteOptions").values({
      quoteId: row.id,
      position,
      subtotal,
      ...option,
    }).returning("id").executeTakeFirstOrThrow();
    await app.db.insertInto("optionItems").values(
      items.map((item, i) => ({ optionId: saved.id, position: i, ...item })),
    ).execute();
  }
  return row;
}

useTestApp(async (started) => {
  // The largest quote renders for seconds, many more on a busy machine: a
  // limit far above that, so only the limits test (pdf_limits_test.ts) sees one.
  ({ app } = started);
  ({ cookie: cookie } = await signedInUser(app.db, { firstName: "Maria" }));
  await app.db.updateTable("settings").set({
    storeName: "Harbor Optical",
    storeWebsite: "harbor-optical.test",
  }).execute();
  quote = await insertQuote();
}, { env: { PDF_TIMEOUT_MS: "180000" } });

/** The PDF as bytes: the shared `call` helper reads bodies as text. */
async function getPdf(id: string) {
  const res = await fetch(`${app.baseUrl}/api/quotes/${id}/pdf`, { headers: { cookie } });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe("GET /api/quotes/{id}/pdf", () => {
  it("needs a signed-in user", async () => {
    const res = await call<{ message: string }>(app, "GET", `/api/quotes/${quote.id}/pdf`);
    expect(res.status).toBe(401);
    expect(res.body.message).toContain("Unauthorized");
  });

  it("answers 404 JSON for an unknown or malformed id", async () => {
    for (const id of [crypto.randomUUID(), "nope", "1%27%20OR%201%3D1"]) {
      const res = await call<{ message: string }>(app, "GET", `/api/quotes/${id}/pdf`, { cookie });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.body.message).toBe("Quote not found");
    }
  });

  it("sends the client copy inline, one LETTER page per option, uncached", async () => {
    const { res, bytes } = await getPdf(quote.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(
      `inline; filename="Quote-${quote.quoteNumber}.pdf"`,
    );
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    // No page CSP on the PDF (it could block Chrome's PDF viewer); nosniff stays.
    expect(res.headers.get("content-security-policy")).toBeNull();
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPages().map((p) => p.getSize())).toEqual(
      Array(3).fill({ width: 612, height: 792 }),
    );
    const pages = (await pdfPageTexts(bytes)).map(squash);
    // Options are named by frame SKU, else by label.
    ["RB-2140", "OK-9102", "Reading"].forEach((name, i) => {
      expect(pages[i]).toContain(name);
      expect(pages[i]).toContain(`Page${i + 1}of3`);
      expect(pages[i]).toContain("PatFixture");
      expect(pages[i]).toContain(quote.quoteNumber);
      expect(pages[i]).toContain("HarborOptical");
      expect(pages[i]).toContain("harbor-optical.test");
      expect(pages[i]).toContain(squash("Thank you for shopping with us."));
    });
    expect(pages[0]).toContain(squash("Anti-glare recommended for night driving."));
    expect(pages[0]).toContain("Total$429.00");
    expect(pages[1]).toContain("Total$199.99");
    expect(pages[2]).toContain(squash("Cleaning cloth × 3"));
    expect(pages[2]).toContain("Total$62.50");
  });

  it("shows an edit of the quote or of the store's settings in the very next PDF", async () => {
    // The route reads the quote and the branding through what it keeps between requests.
    const before = (await pdfPageTexts((await getPdf(quote.id)).bytes)).map(squash);
    expect(before[2]).toContain("Reading");
    const reading = await app.db.selectFrom("quoteOptions").select("id")
      .where("quoteId", "=", quote.id).where("position", "=", 2).executeTakeFirstOrThrow();
    try {
      await app.db.updateTable("quoteOptions").set({ label: "Bedside" })
        .where("id", "=", reading.id).execute();
      await app.db.updateTable("settings").set({ storeName: "Quayside Optical" }).execute();
      const after = (await pdfPageTexts((await getPdf(quote.id)).bytes)).map(squash);
      expect(after[2]).toContain("Bedside");
      expect(after[2]).not.toContain("Reading");
      expect(after[0]).toContain("QuaysideOptical");
      expect(after[0]).not.toContain("HarborOptical");
    } finally {
      await app.db.updateTable("quoteOptions").set({ label: "Reading" })
        .where("id", "=", reading.id).execute();
      await app.db.updateTable("settings").set({ storeName: "Harbor Optical" }).execute();
    }
  });

  it("never shows the quote's internal notes", async () => {
    const { bytes } = await getPdf(quote.id);
    const text = (await pdfPageTexts(bytes)).join("\n");
    expect(text).toContain("Premium progressive package");
    // A wrapped word could be hyphenated across two runs: look without breaks too.
    const squashed = text.replace(/[\s-]/g, "");
    expect(squashed).not.toContain("QUAGGA");
    expect(squashed).not.toContain("5519");
    expect(text).not.toContain("do not go below cost");
  });
});

/** How many images each page draws. */
async function imagesPerPage(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) =>
    page.node.Resources()?.lookupMaybe(PDFName.of("XObject"), PDFDict)?.keys().length ?? 0
  );
}

describe("the quote PDF at the API's limits", () => {
  it("prints Latin-extended, Greek and Cyrillic names exactly, and the store's logo", async () => {
    const { id } = await createQuoteThroughApi(app, cookie, {
      ...maximalClient(),
      firstName: "Łukasiewicz",
      lastName: "Παπαδόπουλος-Иванова",
      address1: "ul. Świętokrzyska 12",
      city: "Θεσσαλονίκη",
    }, maximalOptions(1));
    const { res, bytes } = await getPdf(id);
    expect(res.status).toBe(200);
    // Read back by poppler's pdftotext, as any PDF reader would.
    const [text] = await pdfPageTexts(bytes);
    for (const word of ["Łukasiewicz", "Παπαδόπουλος", "Иванова", "Świętokrzyska", "Θεσσαλονίκη"]) {
      expect(text).toContain(word);
    }
    // The built-in logo (an SVG, drawn as an image) heads the page.
    expect(await imagesPerPage(bytes)).toEqual([1]);
  });

  for (const count of [1, 3, 5]) {
    it(
      `gives ${count} maximal option${count > 1 ? "s" : ""} exactly ${count} page${
        count > 1 ? "s" : ""
      }`,
      async () => {
        // 50 items of 200 characters, 2,000-character notes, the longest names and addresses.
        const { id } = await createQuoteThroughApi(
          app,
          cookie,
          maximalClient(),
          maximalOptions(count),
        );
        const { res, bytes } = await getPdf(id);
        expect(res.status).toBe(200);
        const doc = await PDFDocument.load(bytes);
        expect(doc.getPageCount()).toBe(count);
        const pages = (await pdfPageTexts(bytes)).map(squash);
        pages.forEach((page, i) => {
          expect(page).toContain(`Page${i + 1}of${count}`);
          expect(page).toContain(`Total${maximalOptionTotal(count)}`);
          expect(page).toContain("continuedinthesystem");
        });
        expect(squash(pages.join())).not.toContain("STAFF-ONLY-NOTE");
      },
    );
  }

  it("answers /healthz again and again while the largest quote's PDF renders", async () => {
    // 20 options of 50 items: seconds of layout, in a PDF renderer process. Were
    // the layout on the server's own thread, no probe could be answered before
    // the PDF: the order of the answers shows it, not a time limit.
    const { id } = await createQuoteThroughApi(app, cookie, maximalClient(), maximalOptions());
    let done = false;
    const pdf = getPdf(id).finally(() => done = true);
    await waitUntil(() => app.pdf.stats().busy === 1 || done, "the PDF reaches a renderer");
    let answeredBeforePdf = 0;
    while (!done && answeredBeforePdf < 500) {
      const res = await fetch(`${app.baseUrl}/healthz`);
      await res.body?.cancel();
      expect(res.status).toBe(200);
      if (!done) answeredBeforePdf++;
    }
    const { res, bytes } = await pdf;
    expect(res.status).toBe(200);
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(20);
    expect(answeredBeforePdf).toBeGreaterThanOrEqual(5);
  });
});
