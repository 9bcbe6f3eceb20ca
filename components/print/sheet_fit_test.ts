import { describe, it } from "node:test";
import { expect } from "expect";
import { DENSITIES, fitClientSheet, fitInternalSheet } from "./sheet_fit.ts";
import { clientCopy, CONTINUED_IN_SYSTEM, internalCopy } from "../../src/print/print_model.ts";
import type { Branding } from "../../src/settings/settings.ts";
import {
  bundleFrom,
  fill,
  maximalClient,
  maximalOption,
  maximalOptions,
} from "../../tests/helpers/quote_fixture.ts";
import type { OptionInput } from "../../src/schemas/quote.ts";

const branding: Branding = {
  storeName: "Northside Eyewear",
  storePhone: "(555) 010-0100",
  storeEmail: "hello@northside.test",
  storeAddress: "1 Main St",
  storeWebsite: "northside.test",
  logoUrl: "/static/logo.svg",
  faviconUrl: "/static/favicon.svg",
};

const plainClient = {
  ...maximalClient(),
  firstName: "Jane",
  lastName: "Doe",
  email: "jane@example.com",
  address1: "42 Elm Street",
  address2: null,
  city: "Austin",
};

const plainOption = (notes: string): OptionInput => ({
  ...maximalOption(1),
  label: "Everyday",
  notes,
  shipping: "0",
  adjustmentAmount: "0",
  adjustmentReason: "",
  items: maximalOption(1).items.slice(0, 3).map((item, i) => ({
    ...item,
    name: ["Ray-Ban", "Single Vision", "Transitions"][i],
    sku: i === 0 ? "RB-1" : null,
    unitPrice: "100.00",
    qty: 1,
  })),
});

describe("one printed sheet per option", () => {
  it("an ordinary option keeps the largest type and every word", () => {
    const bundle = bundleFrom(plainClient, [plainOption("Anti-fog for cycling.")], "Thanks!");
    const copy = clientCopy(bundle, branding);
    const fit = fitClientSheet(copy, copy.pages[0]);
    expect(fit.density).toBe(DENSITIES[0]);
    expect(fit.notes).toBe("Anti-fog for cycling.");
    expect(fit.table).toEqual({ prices: copy.pages[0].prices, note: "" });
    expect(fit.client).toEqual(copy.client);
  });

  it("2,000 characters of notes shrink the type before any word is cut", () => {
    const notes = fill("The client asked about coatings. ", 2000);
    const bundle = bundleFrom(plainClient, [plainOption(notes)], "Thanks!");
    const copy = clientCopy(bundle, branding);
    const fit = fitClientSheet(copy, copy.pages[0]);
    expect(DENSITIES.indexOf(fit.density)).toBeGreaterThan(0);
    expect(fit.notes).toBe(notes);
  });

  it("a quote at every limit is cut with the system's mark, totals untouched", () => {
    const bundle = bundleFrom(maximalClient(), maximalOptions(3));
    const client = clientCopy(bundle, branding);
    const page = client.pages[0];
    const fit = fitClientSheet(client, page);
    expect(fit.density).toBe(DENSITIES[DENSITIES.length - 1]);
    expect(fit.notes).toContain(`(${CONTINUED_IN_SYSTEM})`);
    expect(fit.notes.length).toBeLessThan(page.notes.length);
    // Every price line stays (staff order from the sheet); only free text is cut.
    expect(fit.table.prices.lines.length).toBe(page.prices.lines.length);
    expect(fit.table.note).toBe(`Shortened descriptions are ${CONTINUED_IN_SYSTEM}.`);
    fit.table.prices.lines.forEach((line, i) => {
      expect(line.cents).toBe(page.prices.lines[i].cents);
      expect(page.prices.lines[i].name.startsWith(line.name.replace(/…$/, ""))).toBe(true);
    });
    expect(fit.table.prices.totalCents).toBe(page.prices.totalCents);
    expect(fit.table.prices.subtotalCents).toBe(page.prices.subtotalCents);

    const internal = internalCopy(
      { ...bundle, quote: { ...bundle.quote, internalNotes: fill("Haggles. ", 2000) } },
      branding,
    );
    const inFit = fitInternalSheet(internal, internal.pages[0]);
    // Whole at the smallest type, or cut with the mark.
    expect(
      inFit.internalNotes === internal.internalNotes ||
        inFit.internalNotes.endsWith(`(${CONTINUED_IN_SYSTEM})`),
    ).toBe(true);
    expect(inFit.notes).toContain(`(${CONTINUED_IN_SYSTEM})`);
    expect(inFit.table.prices.totalCents).toBe(internal.pages[0].prices.totalCents);
    expect(inFit.table.prices.lines.length).toBe(internal.pages[0].prices.lines.length);
  });

  it("many measurement extras are counted, not listed, at the densest level", () => {
    const bundle = bundleFrom(maximalClient(), maximalOptions(1));
    bundle.clientMeasurements.extras = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`Extra ${i}`, "12 mm"]),
    );
    const copy = internalCopy(bundle, branding);
    const fit = fitInternalSheet(copy, copy.pages[0]);
    expect(fit.extras.length).toBe(6);
    expect(fit.extras[5][1]).toBe(`7 more measurements ${CONTINUED_IN_SYSTEM}`);
  });
});
