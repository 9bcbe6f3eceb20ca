// JSON shapes of the quotes API; islands import these as types only.
import type { ItemKind, QuoteStatus } from "../../db/schema.ts";
import type { ClientMeasurementsView } from "../clients/views.ts";
import type { CarryOverView } from "./carry_over.ts";

export interface QuoteItemView {
  id: string;
  kind: ItemKind;
  name: string;
  sku: string | null;
  unitPrice: string;
  qty: number;
  notes: string;
  catalogId: string | null;
}

export interface QuoteOptionView {
  id: string;
  label: string;
  notes: string;
  isChosen: boolean;
  shipping: string;
  adjustmentAmount: string;
  adjustmentReason: string;
  subtotal: string;
  items: QuoteItemView[];
  frameMeasurements: { segOc: string };
}

export interface QuoteView {
  id: string;
  quoteNumber: string;
  clientId: string;
  clientName: string;
  opticianName: string;
  status: QuoteStatus;
  internalNotes: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string | null;
  isExpired: boolean;
  isClosed: boolean;
  closureReason: string | null;
  footerMessage: string | null;
  version: number;
  /** The store the quote is made in: its printouts and online page show that store. */
  storeId: string;
}

export interface QuoteClientView {
  id: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  email: string | null;
  mobilePhone: string | null;
  homePhone: string | null;
  dob: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  smsConsent: boolean;
  emailConsent: boolean;
  heardHow: string | null;
}

/** GET /api/quotes/{id}. */
export interface QuoteBundle {
  quote: QuoteView;
  client: QuoteClientView;
  options: QuoteOptionView[];
  clientMeasurements: ClientMeasurementsView;
  /** Option id → its SEG/OC, as the spec lists them beside the options. */
  frameMeasurements: Record<string, { segOc: string }>;
  /** What this quote took over from the client's previous one; absent when nothing. */
  carryOver?: CarryOverView;
}

/** Dashboard and list rows. */
export interface QuoteSummary {
  id: string;
  clientId: string;
  clientName: string;
  quoteNumber: string;
  status: QuoteStatus;
  total: string;
  opticianName: string;
  createdAt: string;
  expiresAt: string | null;
}

export interface Stats {
  activeQuotes: number;
  newClients: number;
}

/** PUT /api/quotes/{id}: the saved quote and where each temp- id went. */
export interface SaveResult extends QuoteBundle {
  idMap: Record<string, string>;
}

/** A row of the quote management list. */
export interface QuoteListRow {
  id: string;
  quoteNumber: string;
  clientId: string;
  clientName: string;
  clientEmail: string | null;
  opticianName: string;
  status: QuoteStatus;
  createdAt: string;
  expiresAt: string | null;
  isExpired: boolean;
  footerMessage: string | null;
  /** When the client last opened the quote's online link (the list's "Viewed" mark). */
  clientViewedAt: string | null;
  /** The store the quote belongs to (its list's Store column in a chain). */
  storeId: string;
}
