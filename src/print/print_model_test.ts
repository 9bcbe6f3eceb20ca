import { describe, it } from "node:test";
import { expect } from "expect";
import {
  clientCopy,
  clipText,
  internalCopy,
  PRESCRIPTION_NOTE_LIMIT,
  priceTableNote,
  shortenName,
  signedAtText,
  signedCopy,
  validityText,
} from "./print_model.ts";
import { ACCEPTANCE_TERMS_FALLBACK } from "../settings/acceptance_terms.ts";
import type { QuoteBundle } from "../quotes/views.ts";
import type { PrescriptionView } from "../prescriptions/views.ts";
import type { Branding } from "../settings/settings.ts";

const branding: Branding = {
  storeName: "Northside Eyewear",
  storePhone: "(555) 010-0100",
  storeEmail: "hello@northside.test",
  storeAddress: "1 Main St",
  storeWebsite: "northside.test",
  logoUrl: "/static/logo.svg",
  faviconUrl: "/static/favicon.svg",
};

const option = (id: string, label: string, sku: string, isChosen: boolean) => ({
  id,
  label,
  notes: `notes ${id}`,
  isChosen,
  shipping: "0.00",
  adjustmentAmount: "-10.00",
  adjustmentReason: "",
  subtotal: "200.00",
  items: [{
    id: `${id}-f`,
    kind: "FRAME" as const,
    name: "Ray-Ban",
    sku,
    unitPrice: "200.00",
    qty: 1,
    notes: "",
    catalogId: null,
  }],
  frameMeasurements: { segOc: id === "b" ? "22/22" : "" },
});

const bundle: QuoteBundle = {
  quote: {
    id: "00000000-0000-4000-8000-00000000abcd",
    quoteNumber: "Q-001234",
    clientId: "c",
    clientName: "Ana Ruiz",
    opticianName: "",
    status: "ACCEPTED",
    internalNotes: "SECRET staff note",
    createdAt: "2026-11-02T15:00:00Z",
    updatedAt: "2026-11-02T15:00:00Z",
    expiresAt: null,
    isExpired: false,
    isClosed: false,
    closureReason: null,
    footerMessage: "Valid 30 days.",
    version: 3,
    storeId: "s1",
  },
  client: {
    id: "c",
    firstName: "Ana",
    middleName: null,
    lastName: "Ruiz",
    email: null,
    mobilePhone: null,
    homePhone: "555-0102",
    dob: null,
    address1: "9 Elm St",
    address2: null,
    city: "Austin",
    state: "TX",
    zip: "78701",
    smsConsent: true,
    emailConsent: false,
    heardHow: null,
  },
  options: [option("a", "Everyday", "RB-1", false), option("b", "Sport", "", true)],
  clientMeasurements: {
    pdBinocular: "62",
    pdNear: "0",
    measurementsComplete: false,
    extras: { Vertex: "12 mm" },
  },
  frameMeasurements: {},
};

describe("client copy", () => {
  it("has one page per option, client-safe fields only, and the store footer", () => {
    const copy = clientCopy(bundle, branding);
    expect(copy.pages.map((p) => [p.optionName, p.pageNumber, p.pageCount])).toEqual([
      ["RB-1", 1, 2],
      ["Sport", 2, 2],
    ]);
    expect(copy.client).toEqual({
      name: "Ana Ruiz",
      email: "N/A",
      phone: "555-0102",
      address: ["9 Elm St", "Austin, TX 78701"],
    });
    expect(copy.pages[0].prices).toMatchObject({
      totalCents: 19000,
      adjustment: { label: "Promo" },
    });
    expect(copy.footer).toMatchObject({
      storeWebsite: "northside.test",
      message: "Valid 30 days.",
    });
    expect(JSON.stringify(copy)).not.toContain("SECRET");
    expect(JSON.stringify(copy)).not.toContain("62");
  });
});

describe("internal copy", () => {
  it("prints chosen options only, with measurements, consents and N/A for missing values", () => {
    const copy = internalCopy(bundle, branding);
    expect(copy.pages.map((p) => [p.optionName, p.pageNumber, p.pageCount, p.segOc])).toEqual([
      ["Sport", 1, 1, "22/22"],
    ]);
    expect(copy.client).toMatchObject({
      email: "N/A",
      dob: "N/A",
      smsConsent: "Yes",
      emailConsent: "No",
      heardHow: "N/A",
    });
    expect(copy.measurements).toEqual({
      pdDistance: "62 mm",
      pdNear: "N/A",
      extras: [["Vertex", "12 mm"]],
    });
    expect(copy.header).toMatchObject({
      quoteNumber: "Q-001234",
      opticianName: "N/A",
      status: "Accepted",
    });
    expect(copy.internalNotes).toBe("SECRET staff note");
    const none = internalCopy({ ...bundle, options: [option("a", "", "X", false)] }, branding);
    expect(none.pages).toEqual([]);
    expect(none.emptyText).toBe("No options selected for this quote.");
  });
});

describe("internal copy prescription", () => {
  const rx: PrescriptionView = {
    id: "rx-1",
    clientId: "c-1",
    dateWritten: "2025-02-10",
    prescriber: "Dr. Okafor",
    expiresOn: "2026-02-10",
    notes: "Wear for computer work. ".repeat(20),
    rightEye: {
      sphere: "-2.25",
      cylinder: "-0.75",
      axis: 180,
      add: "1.50",
      prism: { amount: "1.00", base: "in" },
    },
    leftEye: { sphere: "0.00", cylinder: null, axis: null, add: null, prism: null },
    createdAt: "2025-02-10T10:00:00.000Z",
    updatedAt: "2025-02-10T10:00:00.000Z",
  };

  it("shows the latest prescription, both eyes, every value, expiry marked, notes clipped", () => {
    const copy = internalCopy(bundle, branding, rx, "2026-03-01");
    expect(copy.prescription).toMatchObject({
      written: "February 10, 2025",
      prescriber: "Dr. Okafor",
      expires: "February 10, 2026",
      expired: true,
      eyes: [
        {
          eye: "OD (right)",
          sphere: "-2.25",
          cylinder: "-0.75",
          axis: "180°",
          add: "+1.50",
          prism: "1.00 BI",
        },
        { eye: "OS (left)", sphere: "PL", cylinder: "—", axis: "—", add: "—", prism: "—" },
      ],
    });
    expect(copy.prescription!.notes).toContain("… (continued in the system)");
    expect(copy.prescription!.notes.length).toBeLessThanOrEqual(PRESCRIPTION_NOTE_LIMIT + 30);
    expect(internalCopy(bundle, branding, rx, "2026-02-10").prescription!.expired).toBe(false);
    expect(internalCopy(bundle, branding).prescription).toBe(null);
    // The client copy has no place for it at all.
    expect(JSON.stringify(clientCopy(bundle, branding))).not.toContain("Okafor");
  });
});

describe("one sheet per option", () => {
  it("clips long text at a word with the continued mark, and leaves short text alone", () => {
    expect(clipText("Pick up on Friday.", 100)).toBe("Pick up on Friday.");
    expect(clipText("alpha beta gamma delta", 14)).toBe(
      "alpha beta… (continued in the system)",
    );
    // One very long word is cut inside it rather than dropped.
    expect(clipText("x".repeat(50), 10)).toBe(`${"x".repeat(10)}… (continued in the system)`);
  });

  it("shortens a description to its limit, ellipsis included", () => {
    expect(shortenName("Ray-Ban", 10)).toBe("Ray-Ban");
    const short = shortenName("Premium progressive package with blue filter", 20);
    expect(short).toBe("Premium progressive…");
    expect(short.length).toBeLessThanOrEqual(20);
  });

  it("says how many lines were left off and that shortened text is in the system", () => {
    expect(priceTableNote(0, false)).toBe("");
    expect(priceTableNote(1, false)).toBe(
      "1 more item continued in the system; the total includes them all.",
    );
    expect(priceTableNote(16, true)).toBe(
      "16 more items continued in the system; the total includes them all. " +
        "Shortened descriptions are continued in the system.",
    );
    expect(priceTableNote(0, true)).toBe("Shortened descriptions are continued in the system.");
  });
});

describe("validity", () => {
  it("names the quote's own expiry date, and nothing when quotes do not expire", () => {
    const expiring = { ...bundle, quote: { ...bundle.quote, expiresAt: "2026-12-02T15:00:00Z" } };
    expect(clientCopy(expiring, branding).validity).toBe("Valid until December 2, 2026");
    expect(clientCopy(bundle, branding).validity).toBe("");
    expect(validityText(null)).toBe("");
  });
});

describe("signed copy", () => {
  const acceptance = {
    signerName: "Ana Ruiz",
    // 11:30 UTC: past midnight in Auckland, the day after.
    acceptedAt: new Date("2026-11-02T11:30:00Z"),
    chosenOptionIds: ["a", "b"],
    signaturePng: null,
  };

  it("names the options as the client saw them online, with their total and the terms", () => {
    const copy = signedCopy(bundle, branding, acceptance, { terms: "Deposit of half." });
    // The online page's titles: the label, never the staff's frame SKU.
    expect(copy.pages.map((p) => p.optionName)).toEqual(["Everyday", "Sport"]);
    expect(copy.signature).toMatchObject({
      options: [{ name: "Everyday", total: "$190.00" }, { name: "Sport", total: "$190.00" }],
      total: "$380.00",
      terms: "Deposit of half.",
    });
    // No terms kept or set: the built-in ones the page showed.
    expect(signedCopy(bundle, branding, acceptance).signature?.terms).toBe(
      ACCEPTANCE_TERMS_FALLBACK,
    );
  });

  it("dates the signature in the store's time zone, named, whatever the server's", () => {
    const auckland = signedCopy(bundle, branding, acceptance, { timeZone: "Pacific/Auckland" });
    expect(auckland.signature?.signedAt).toMatch(/^November 3, 2026.* 12:30 AM GMT\+13$/);
    expect(auckland.header.date).toBe("November 3, 2026");
    const chicago = signedCopy(bundle, branding, acceptance, { timeZone: "America/Chicago" });
    expect(chicago.signature?.signedAt).toMatch(/^November 2, 2026.* 5:30 AM CST$/);
    // A zone the runtime does not know: the server's own, still a time.
    expect(signedAtText(acceptance.acceptedAt, "Mars/Olympus")).toMatch(/2026/);
  });
});
