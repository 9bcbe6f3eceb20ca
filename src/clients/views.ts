// JSON shapes the clients API answers with; islands import these as types only.
import type { QuoteStatus } from "../../db/schema.ts";
import type { PrescriptionView } from "../prescriptions/views.ts";
import type { JobStatus } from "../../db/schema.ts";
import type { StoreRef } from "../stores/stores.ts";

/**
 * NONE: nothing measured yet (both PDs 0 and not complete); PENDING: some
 * values recorded but not marked complete; COMPLETE: marked complete.
 */
export type MeasurementStatus = "NONE" | "PENDING" | "COMPLETE";

export interface ClientSummary {
  id: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  email: string | null;
  mobilePhone: string | null;
  homePhone: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  createdAt: string;
  measurementStatus: MeasurementStatus;
  /** When the client's latest quote was made (their last visit); null without quotes. */
  lastVisit: string | null;
  quoteCount: number;
}

export interface ClientMeasurementsView {
  pdBinocular: string;
  pdNear: string;
  measurementsComplete: boolean;
  extras: Record<string, string>;
}

export interface ClientQuoteSummary {
  id: string;
  quoteNumber: string;
  status: QuoteStatus;
  createdAt: string;
  expiresAt: string | null;
  /** The code of the store it was made in. */
  storeCode: string;
}

export interface ClientDetail extends ClientSummary {
  dob: string | null;
  mailingAddress: string | null;
  heardHowId: string | null;
  heardHowText: string | null;
  heardHow: string | null;
  smsConsent: boolean;
  emailConsent: boolean;
  consentDate: string | null;
  measurements: ClientMeasurementsView;
  quotes: ClientQuoteSummary[];
  /** Newest written first; the dialog shows them without another round trip. */
  prescriptions: PrescriptionView[];
  /** The client's orders, one row per job, newest order first. */
  orders: ClientOrderRow[];
  /** The store the client belongs to first (staff may change it). */
  homeStoreId: string;
  /** A chain of several stores: its active stores (the dialog marks each quote and order with its store); else null. */
  stores: StoreRef[] | null;
}

export interface ClientOrderRow {
  orderId: string;
  quoteNumber: string;
  createdAt: string;
  jobNumber: string;
  status: JobStatus;
  /** The code of the order's store. */
  storeCode: string;
}

export interface CreatedClient {
  client: { id: string };
  quote: { id: string };
}

export interface HeardHowOption {
  id: string;
  label: string;
}

export interface ConsentTexts {
  smsConsentText: string;
  emailConsentText: string;
}

/** The spec's 8-character form of an id, used where a quote number is not shown. */
export const shortId = (id: string) => id.slice(-8);

/** How many clients one page of the list holds; "Load more" fetches the next. */
export const CLIENT_PAGE_SIZE = 50;
