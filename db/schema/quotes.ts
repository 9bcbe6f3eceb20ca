// Quotes, their options and items, the catalog they draw from, and online acceptance.
import type { ColumnType, Generated, RawBuilder } from "kysely";
import type { CreatedAt, Numeric, Timestamp } from "./columns.ts";

export type QuoteStatus =
  | "DRAFT"
  | "ACTIVE"
  | "PENDING_MEASUREMENTS"
  | "FINALIZED"
  | "EMAILED"
  | "ACCEPTED"
  | "CLOSED";

export type ItemKind = "FRAME" | "PACKAGE" | "LENS" | "MATERIAL" | "AR" | "ADDON" | "OTHER";

export interface QuotesTable {
  id: Generated<string>;
  quoteNumber: Generated<string>;
  clientId: string;
  /** Migration 0036: the store it belongs to (see db/schema/stores.ts). */
  storeId: ColumnType<string, string | undefined, string>;
  opticianName: ColumnType<string, string | undefined, string>;
  /** The client's "first last" name, copied by triggers (migration 0007) for search. */
  clientName: ColumnType<string, never, never>;
  status: ColumnType<QuoteStatus, QuoteStatus | undefined, QuoteStatus>;
  internalNotes: ColumnType<string, string | undefined, string>;
  footerMessage: string | null;
  expiresAt: Timestamp | null;
  closureReason: string | null;
  closedAt: Timestamp | null;
  emailedAt: Timestamp | null;
  /** First confirmation on the tablet; kept when the quote moves on (report). */
  acceptedAt: Timestamp | null;
  /** When it was finalized; kept when the quote moves on (report). */
  finalizedAt: Timestamp | null;
  /** When the client last opened an online link of it (migration 0023). */
  clientViewedAt: ColumnType<Date | null, Date | null | undefined, Date | null>;
  version: ColumnType<number, number | undefined, number>;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
  /** Number, optician and client name, lowercased: what searches test (generated, 0025). */
  searchText: ColumnType<string, never, never>;
}

export interface QuoteOptionsTable {
  id: Generated<string>;
  quoteId: string;
  position: number;
  label: ColumnType<string, string | undefined, string>;
  notes: ColumnType<string, string | undefined, string>;
  isChosen: ColumnType<boolean, boolean | undefined, boolean>;
  shipping: Numeric;
  adjustmentAmount: Numeric;
  adjustmentReason: ColumnType<string, string | undefined, string>;
  subtotal: Numeric;
}

export interface OptionItemsTable {
  id: Generated<string>;
  optionId: string;
  position: number;
  kind: ItemKind;
  name: ColumnType<string, string | undefined, string>;
  sku: string | null;
  unitPrice: Numeric;
  qty: ColumnType<number, number | undefined, number>;
  notes: ColumnType<string, string | undefined, string>;
  catalogId: string | null;
}

export interface OptionFrameMeasurementsTable {
  optionId: string;
  segOc: ColumnType<string, string | undefined, string>;
  updatedAt: Timestamp;
}

export interface CatalogTable {
  id: Generated<string>;
  name: string;
  price: Numeric;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  sortOrder: ColumnType<number, number | undefined, number>;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

export interface LensPackagesTable extends CatalogTable {
  description: ColumnType<string, string | undefined, string>;
}

/** Migration 0013: what a new quote took over from the client's previous one. */
export interface QuoteCarryOversTable {
  quoteId: string;
  sourceQuoteId: string | null;
  sourceQuoteNumber: string;
  sourceDate: Timestamp;
  pdBinocular: Numeric;
  pdNear: Numeric;
  segOc: ColumnType<string, string | undefined, string>;
  extras: ColumnType<Record<string, string>, RawBuilder<unknown> | undefined, RawBuilder<unknown>>;
  confirmedAt: Timestamp | null;
  confirmedBy: string | null;
}

/**
 * How many quotes have each status and expiry day (UTC; 'infinity' for none),
 * kept by triggers on quotes (migration 0016) for the dashboard's counts.
 */
export interface QuoteExpiryCountsTable {
  /** Migration 0038: the quotes' store (a store's dashboard sums its own). */
  storeId: string;
  status: string;
  /** YYYY-MM-DD, or 'infinity'. */
  expiresOn: string;
  n: number;
}

/** Migration 0023: one online link of a quote e-mail; only the token's SHA-256 is kept. */
export interface QuoteLinksTable {
  id: Generated<string>;
  quoteId: string;
  tokenHash: string;
  /** The quote's version when the link was made (moved on with the send's own bump). */
  quoteVersion: number;
  sentTo: string;
  createdBy: string | null;
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  revokedAt: Timestamp | null;
  spentAt: Timestamp | null;
  lastViewedOn: string | null;
}

/** Migration 0023: the one online acceptance of a quote. */
export interface QuoteAcceptancesTable {
  id: Generated<string>;
  quoteId: string;
  linkId: string | null;
  signerName: string;
  signaturePng: Uint8Array | null;
  typedSignature: boolean;
  chosenOptionIds: ColumnType<string[], RawBuilder<unknown>, never>;
  acceptedAt: CreatedAt;
  ip: string | null;
  userAgent: string | null;
  signedPdf: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  /**
   * Migration 0029: when the client's e-mail of the signed copy went into the
   * outbox, or it was found that none is owed (the link had no address).
   */
  signedCopySettledAt: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Tries at that e-mail (given up at SIGNED_COPY_MAX_ATTEMPTS), and when the next may be. */
  signedCopyAttempts: ColumnType<number, number | undefined, number>;
  signedCopyNextAt: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /**
   * Migration 0033: why the signed copy cannot be made or was not e-mailed, in
   * words for staff; set, it is not tried again in the background.
   */
  signedCopyProblem: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 0035: the acceptance terms the client ticked (empty for older acceptances). */
  termsText: ColumnType<string, string | undefined, string>;
}

/** Migration 0023: a client's online decline, with their optional message. */
export interface QuoteDeclinesTable {
  id: Generated<string>;
  quoteId: string;
  linkId: string | null;
  message: ColumnType<string, string | undefined, never>;
  declinedAt: CreatedAt;
  ip: string | null;
  userAgent: string | null;
}
