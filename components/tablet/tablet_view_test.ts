import { describe, it } from "node:test";
import { expect } from "expect";
import { EXPIRED_CONFIRM_MESSAGE } from "../../src/quotes/rules.ts";
import type { QuoteBundle, QuoteItemView, QuoteOptionView } from "../../src/quotes/views.ts";
import { selectionCountText, tabletQuote } from "./tablet_view.ts";

let ids = 0;
const item = (init: Partial<QuoteItemView> & Pick<QuoteItemView, "kind">): QuoteItemView => ({
  id: `i${++ids}`,
  name: "",
  sku: init.kind === "FRAME" ? "" : null,
  unitPrice: "0",
  qty: 1,
  notes: "",
  catalogId: null,
  ...init,
});

const option = (init: Partial<QuoteOptionView>): QuoteOptionView => ({
  id: `o${++ids}`,
  label: "",
  notes: "",
  isChosen: false,
  shipping: "0",
  adjustmentAmount: "0",
  adjustmentReason: "",
  subtotal: "0",
  items: [],
  frameMeasurements: { segOc: "" },
  ...init,
});

function bundle(options: QuoteOptionView[], status: QuoteBundle["quote"]["status"] = "ACTIVE") {
  return {
    quote: {
      id: "q1",
      quoteNumber: "Q-000123",
      clientId: "c1",
      clientName: "Jane Doe",
      opticianName: "Dr. Secret",
      status,
      internalNotes: "SECRET internal note",
      createdAt: "2025-01-01T00:00:00.000Z",
      updatedAt: "2025-01-01T00:00:00.000Z",
      expiresAt: null,
      isExpired: false,
      isClosed: status === "CLOSED",
      closureReason: null,
      footerMessage: null,
      version: 4,
      storeId: "s1",
    },
    client: {
      id: "c1",
      firstName: "Jane",
      middleName: "Q",
      lastName: "Doe",
      email: "secret@example.com",
      mobilePhone: "555-0000",
      homePhone: null,
      dob: "1980-01-01",
      address1: null,
      address2: null,
      city: null,
      state: null,
      zip: null,
      smsConsent: false,
      emailConsent: false,
      heardHow: null,
    },
    options,
    clientMeasurements: { pdBinocular: "62", pdNear: "0", measurementsComplete: true, extras: {} },
    frameMeasurements: {},
  } satisfies QuoteBundle;
}

describe("tablet view of a quote", () => {
  it("titles options by label, else Option N, never by the frame SKU", () => {
    const view = tabletQuote(bundle([
      option({ label: "Everyday", items: [item({ kind: "FRAME", sku: "RB5154" })] }),
      option({ label: "Sport", items: [item({ kind: "FRAME", sku: " " })] }),
      option({ items: [] }),
    ]));
    expect(view.options.map((o) => o.title)).toEqual(["Everyday", "Sport", "Option 3"]);
    expect(view.clientName).toBe("Jane Doe");
    expect(view.version).toBe(4);
    expect(view.blocker).toBeNull();
  });

  it("prices lines, shipping, a default Promo label and the total in cents", () => {
    const [view] = tabletQuote(bundle([option({
      shipping: "15",
      adjustmentAmount: "-10.50",
      items: [
        item({ kind: "OTHER", name: "Strap", unitPrice: "12.50", qty: 2 }),
        item({ kind: "FRAME", name: "Oakley", unitPrice: "150" }),
        item({ kind: "PACKAGE", name: "Custom Package", unitPrice: "0" }),
        item({ kind: "LENS", name: "Single Vision", unitPrice: "90", catalogId: "l1" }),
      ],
    })])).options;
    // Frame first, whatever order the builder saved; the free custom placeholder is left out.
    expect(view.lines.map((l) => [l.kindLabel, l.name, l.qty, l.cents])).toEqual([
      ["Frame", "Oakley", 1, 15000],
      ["Lens", "Single Vision", 1, 9000],
      ["Other", "Strap", 2, 2500],
    ]);
    expect(view.subtotalCents).toBe(26500);
    expect(view.shippingCents).toBe(1500);
    expect(view.adjustment).toEqual({ label: "Promo", cents: -1050 });
    expect(view.totalCents).toBe(26500 + 1500 - 1050);
  });

  it("keeps a priced catalog package and leaves out a zero adjustment", () => {
    const [view] = tabletQuote(bundle([option({
      adjustmentReason: "Ignored when there is no amount",
      items: [item({ kind: "PACKAGE", name: "Premium", unitPrice: "389", catalogId: "p1" })],
    })])).options;
    expect(view.lines.map((l) => l.name)).toEqual(["Premium"]);
    expect(view.adjustment).toBeNull();
  });

  it("carries the edit blocker of a closed or finalized quote", () => {
    expect(tabletQuote(bundle([], "CLOSED")).blocker).toBe(
      "This quote is closed and can no longer be changed.",
    );
    expect(tabletQuote(bundle([], "FINALIZED")).blocker).toBe(
      "This quote is finalized and can no longer be changed.",
    );
  });

  it("locks an expired quote as the confirmation call would refuse it", () => {
    const expiring = (expiresAt: string) => {
      const b = bundle([]);
      return { ...b, quote: { ...b.quote, expiresAt } };
    };
    expect(tabletQuote(expiring("2000-01-01T00:00:00.000Z")).blocker).toBe(
      EXPIRED_CONFIRM_MESSAGE,
    );
    const later = new Date(Date.now() + 86_400_000).toISOString();
    expect(tabletQuote(expiring(later)).blocker).toBeNull();
  });

  it("holds nothing for staff only: no notes, contacts or optician", () => {
    const json = JSON.stringify(tabletQuote(bundle([option({
      notes: "SECRET option note",
      items: [item({ kind: "OTHER", name: "Case", unitPrice: "5", notes: "SECRET item note" })],
    })])));
    for (const secret of ["SECRET", "Dr. Secret", "555-0000", "1980", "notes", "62"]) {
      expect(json).not.toContain(secret);
    }
  });

  it("counts the selection in words", () => {
    expect(selectionCountText(0)).toBe("No options selected yet");
    expect(selectionCountText(1)).toBe("1 option selected");
    expect(selectionCountText(3)).toBe("3 options selected");
  });
});
