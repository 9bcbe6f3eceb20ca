// Quote fixtures for the HTTP, browser and PDF tests, two kinds:
// - a saved quote written straight to the database (insertSavedQuote), with
//   staff-only words a test can look for on pages that must not show them;
// - quotes at the largest size the API accepts, saved through the API or built
//   without a database (maximalClient, maximalOptions, bundleFrom).
import type { DB } from "../../src/db/database.ts";
import type { ItemKind, QuoteStatus } from "../../db/schema.ts";
import { MAX_AMOUNT_CENTS, subtotalDecimal } from "../../src/quotes/rules.ts";
import type { QuoteBundle, QuoteItemView, QuoteOptionView } from "../../src/quotes/views.ts";
import type { OptionInput } from "../../src/schemas/quote.ts";
import type { CreateClientInput } from "../../src/schemas/client.ts";
import { call, type TestApp } from "./test_app.ts";
import { findFirstStore } from "../../src/stores/stores.ts";
import { formatMoney } from "../../src/money/amounts.ts";
import { insertOptionItems, upsertSegOc } from "../../src/quotes/quote_store.ts";

/**
 * Words a quote fixture carries that the tablet never shows. The internal
 * notes are staff-only everywhere; the rest (contact details, optician,
 * option notes) belong on the printed client copy but not on the tablet.
 */
export const STAFF_ONLY = {
  internalNotes: "ZEBRA-7731 client haggles, do not go below cost",
  optionNotes: "WOMBAT-2290 margin is thin",
  opticianName: "Dr. Hidden Opticianson",
  clientEmail: "jane.private@example.com",
  clientPhone: "555-321-9876",
};

/** An item of a quote option as the builder saves it. */
export interface ItemInit {
  kind: ItemKind;
  name: string;
  sku?: string;
  unitPrice: string;
  qty?: number;
  notes?: string;
  catalogId?: string | null;
}

/** A quote option with its items, and its seg/OC when the test needs one. */
export interface OptionInit {
  label: string;
  isChosen?: boolean;
  segOc?: string;
  notes?: string;
  shipping?: string;
  adjustmentAmount?: string;
  adjustmentReason?: string;
  items: ItemInit[];
}

/** A quote's options and their items, the items and seg/OC written as the builder's save writes them. */
export async function insertOptions(
  db: DB,
  quoteId: string,
  options: OptionInit[],
): Promise<string[]> {
  const optionIds: string[] = [];
  for (const [position, option] of options.entries()) {
    const items = option.items.map((item) => ({ ...item, qty: item.qty ?? 1 }));
    const row = await db.insertInto("quoteOptions").values({
      quoteId,
      position,
      label: option.label,
      notes: option.notes ?? "",
      isChosen: option.isChosen ?? false,
      shipping: option.shipping ?? "0",
      adjustmentAmount: option.adjustmentAmount ?? "0",
      adjustmentReason: option.adjustmentReason ?? "",
      subtotal: subtotalDecimal(items),
    }).returning("id").executeTakeFirstOrThrow();
    optionIds.push(row.id);
    await insertOptionItems(
      db,
      row.id,
      items.map((item) => ({
        ...item,
        sku: item.sku ?? null,
        notes: item.notes ?? "",
        catalogId: item.catalogId ?? null,
      })),
    );
    if (option.segOc) await upsertSegOc(db, row.id, option.segOc);
  }
  return optionIds;
}

/**
 * A client and a saved quote, written straight to the database the way the
 * builder would have saved them: frame-only options by default (`options`),
 * or any (`fullOptions`).
 */
export async function insertSavedQuote(
  db: DB,
  init: {
    status?: QuoteStatus;
    expiresAt?: Date | null;
    options?: { label: string; sku: string; price: string }[];
    fullOptions?: OptionInit[];
    firstName?: string;
    /** The quote's store and the client's home store (else the chain's first store). */
    storeId?: string;
  } = {},
): Promise<{ quoteId: string; clientId: string; optionIds: string[] }> {
  const storeId = init.storeId ?? (await findFirstStore(db)).id;
  const client = await db.insertInto("clients").values({
    homeStoreId: storeId,
    firstName: init.firstName ?? "Jane",
    lastName: "Doe",
    email: STAFF_ONLY.clientEmail,
    mobilePhone: STAFF_ONLY.clientPhone,
  }).returning("id").executeTakeFirstOrThrow();
  const quote = await db.insertInto("quotes").values({
    clientId: client.id,
    storeId,
    status: init.status ?? "ACTIVE",
    opticianName: STAFF_ONLY.opticianName,
    internalNotes: STAFF_ONLY.internalNotes,
    expiresAt: init.expiresAt ?? null,
    closureReason: init.status === "CLOSED" ? "Client went elsewhere" : null,
  }).returning("id").executeTakeFirstOrThrow();
  const frames = init.options ?? [
    { label: "Everyday", sku: "RB5154-2000", price: "189.00" },
    { label: "Sport Pair", sku: "OK-9102", price: "150.00" },
  ];
  const options = init.fullOptions ?? frames.map((option) => ({
    label: option.label,
    notes: STAFF_ONLY.optionNotes,
    items: [{ kind: "FRAME" as const, name: "Ray-Ban", sku: option.sku, unitPrice: option.price }],
  }));
  const optionIds = await insertOptions(db, quote.id, options);
  return { quoteId: quote.id, clientId: client.id, optionIds };
}

// Quotes for the PDF tests, up to the largest one the API accepts. "Maximal"
// is read off the schemas (src/schemas/quote.ts, client.ts, settings.ts): 20
// options of 50 items with 200-character descriptions at quantity 999, 2,000
// characters of option notes, 100-character labels and names, 200-character
// address lines and adjustment reasons, a 1,000-character footer. Prices are
// the largest the save accepts: all options together must fit a quote's
// amount (NUMERIC(12,2), MAX_AMOUNT_CENTS in the quote rules).

/** `text` repeated and cut to exactly `length` characters. */
export const fill = (text: string, length: number) =>
  text.repeat(Math.ceil(length / text.length)).slice(0, length);

export const LIMITS = {
  options: 20,
  items: 50,
  itemName: 200,
  sku: 100,
  qty: 999,
  notes: 2000,
  label: 100,
  reason: 200,
  name: 100,
  addressLine: 200,
  city: 100,
  footer: 1000,
} as const;

/**
 * The largest unit price for a quote of `optionCount` maximal options: their
 * totals added up stay within MAX_AMOUNT_CENTS (one option: $200,200.20 a
 * unit; twenty: $10,010.01).
 */
export function maximalUnitPrice(optionCount: number): string {
  return (maximalUnitCents(optionCount) / 100).toFixed(2);
}

const maximalUnitCents = (optionCount: number) =>
  Math.floor(Math.floor(MAX_AMOUNT_CENTS / optionCount) / (LIMITS.items * LIMITS.qty));

/** What a maximal option's total prints as (its shipping and discount cancel out). */
export const maximalOptionTotal = (optionCount = 1) =>
  formatMoney(maximalUnitCents(optionCount) * LIMITS.items * LIMITS.qty);

/** The client fields at their longest, as the intake and client forms accept them. */
export function maximalClient(): CreateClientInput {
  return {
    firstName: fill("Łukasiewicz-Wolff ", LIMITS.name),
    middleName: null,
    lastName: fill("Παπαδόπουλος Иванова ", LIMITS.name),
    dob: null,
    // 64-character local part, 63-character labels: the longest valid shape.
    email: `${fill("a", 64)}@${fill("b", 63)}.${fill("c", 63)}.example`,
    homePhone: null,
    mobilePhone: "(555) 010-9999",
    address1: fill("1234 Long Street Name ", LIMITS.addressLine),
    address2: fill("Building and Suite ", LIMITS.addressLine),
    city: fill("Greater Springfield ", LIMITS.city),
    state: "TX",
    zip: "78701-1234",
    heardHowId: null,
    heardHowText: null,
    smsConsent: false,
    emailConsent: false,
  };
}

/**
 * One option at every limit; `index` tells options apart (#1, #2, …), and
 * `optionCount` is how many the quote has (the price depends on it).
 */
export function maximalOption(index: number, optionCount = 1): OptionInput {
  return {
    id: `temp-${index}`,
    label: fill(`Option #${index} with a long label `, LIMITS.label),
    notes: fill(`Notes of option #${index}: the client asked about coatings. `, LIMITS.notes),
    isChosen: index === 1,
    shipping: "999999.99",
    adjustmentAmount: "-999999.99",
    adjustmentReason: fill("Loyalty and referral discount ", LIMITS.reason),
    // A save needs a frame with a SKU; it names the option, so it is long too.
    items: Array.from({ length: LIMITS.items }, (_, i) => ({
      kind: i === 0 ? "FRAME" as const : "OTHER" as const,
      // "Item#N" first, so a test can tell which lines a page shows.
      name: fill(`Item#${i + 1} custom line with a descriptive name `, LIMITS.itemName),
      sku: i === 0 ? fill(`SKU-${index}-`, LIMITS.sku) : null,
      unitPrice: maximalUnitPrice(optionCount),
      qty: LIMITS.qty,
      notes: "",
      catalogId: null,
    })),
    segOc: "",
  };
}

export const maximalOptions = (count: number = LIMITS.options) =>
  Array.from({ length: count }, (_, i) => maximalOption(i + 1, count));

/**
 * A quote as the API returns it, built from save inputs without a database:
 * for the renderer's unit tests. Subtotals are left to the renderer's own
 * arithmetic (price_breakdown.ts), as in the app.
 */
export function bundleFrom(
  client: CreateClientInput,
  options: OptionInput[],
  footerMessage = fill("Thank you for your visit. ", LIMITS.footer),
): QuoteBundle {
  let itemId = 0;
  return {
    quote: {
      id: "00000000-0000-4000-8000-00000000feed",
      quoteNumber: "Q-009999",
      clientId: "c",
      clientName: `${client.firstName} ${client.lastName}`,
      opticianName: fill("Maria ", 100),
      status: "ACTIVE",
      internalNotes: "",
      createdAt: "2026-11-02T15:00:00Z",
      updatedAt: "2026-11-02T15:00:00Z",
      expiresAt: null,
      isExpired: false,
      isClosed: false,
      closureReason: null,
      footerMessage,
      version: 2,
    },
    client: {
      id: "c",
      firstName: client.firstName,
      middleName: client.middleName,
      lastName: client.lastName,
      email: client.email,
      mobilePhone: client.mobilePhone,
      homePhone: client.homePhone,
      dob: client.dob,
      address1: client.address1,
      address2: client.address2,
      city: client.city,
      state: client.state,
      zip: client.zip,
      smsConsent: client.smsConsent,
      emailConsent: client.emailConsent,
      heardHow: null,
    },
    options: options.map((option, i): QuoteOptionView => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      label: option.label,
      notes: option.notes,
      isChosen: option.isChosen,
      shipping: option.shipping,
      adjustmentAmount: option.adjustmentAmount,
      adjustmentReason: option.adjustmentReason,
      subtotal: "0.00",
      items: option.items.map((item): QuoteItemView => ({ ...item, id: `item-${++itemId}` })),
      frameMeasurements: { segOc: option.segOc ?? "" },
    })),
    clientMeasurements: {
      pdBinocular: "",
      pdNear: "",
      measurementsComplete: false,
      extras: {},
    },
    frameMeasurements: {},
  } as QuoteBundle;
}

/**
 * Makes a client and saves a quote for it through the API, as the intake and
 * the builder do, so every field has passed the real validation: a fixture
 * the API would refuse cannot sneak into a test.
 */
export async function createQuoteThroughApi(
  app: Pick<TestApp, "baseUrl">,
  cookie: string,
  client: CreateClientInput,
  options: OptionInput[],
): Promise<{ id: string; quoteNumber: string }> {
  const created = await call<{ quote: { id: string } }>(app, "POST", "/api/clients", {
    cookie,
    body: client,
  });
  if (created.status !== 201) {
    throw new Error(`client: ${created.status} ${created.text.slice(0, 300)}`);
  }
  const id = created.body.quote.id;
  const loaded = await call<QuoteBundle>(app, "GET", `/api/quotes/${id}`, { cookie });
  const saved = await call<QuoteBundle>(app, "PUT", `/api/quotes/${id}`, {
    cookie,
    body: {
      version: loaded.body.quote.version,
      opticianName: fill("Maria ", 100),
      internalNotes: "STAFF-ONLY-NOTE",
      options,
    },
  });
  if (saved.status !== 200) throw new Error(`save: ${saved.status} ${saved.text.slice(0, 300)}`);
  return { id, quoteNumber: saved.body.quote.quoteNumber };
}

/**
 * A new quote's save body's options: two options of one frame each, the
 * first (Everyday, a Ray-Ban at 150.00) in place of the option the quote was
 * made with, the second (Sport, an Oakley at 180.00) new.
 */
export const everydayAndSport = (firstOptionId: string) => [
  {
    id: firstOptionId,
    label: "Everyday",
    items: [{ kind: "FRAME", name: "Ray-Ban", sku: "RB-1", unitPrice: "150.00", qty: 1 }],
  },
  {
    id: "temp-2",
    label: "Sport",
    items: [{ kind: "FRAME", name: "Oakley", sku: "OK-2", unitPrice: "180.00", qty: 1 }],
  },
];
