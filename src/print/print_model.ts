// What the printed copies and the quote PDF show, computed once from a quote
// bundle so the browser print, the PDF and the e-mail attachment cannot drift.
// The client copy is built from client-safe fields only: no internal notes,
// no measurements, no staff-only data.
import type { QuoteBundle } from "../quotes/views.ts";
import { optionTitle } from "../quotes/rules.ts";
import { type PriceBreakdown, priceBreakdown } from "../quotes/price_breakdown.ts";
import type { Branding } from "../settings/settings.ts";
import { QUOTE_STATUS_LABELS } from "../../components/quote_status.ts";
import { shortId } from "../clients/views.ts";

export const NA = "N/A";

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "long" });
export const formatDate = (iso: string | null) => iso ? dateFormat.format(new Date(iso)) : NA;

const orNA = (v: string | null | undefined) => v?.trim() ? v.trim() : NA;

function addressLines(c: QuoteBundle["client"]): string[] {
  const cityLine = [c.city, [c.state, c.zip].filter(Boolean).join(" ")].filter((p) => p?.trim())
    .join(", ");
  return [c.address1, c.address2, cityLine].filter((l): l is string => !!l?.trim());
}

export interface PrintHeader {
  storeName: string;
  logoUrl: string;
  quoteNumber: string;
  date: string;
  clientName: string;
  opticianName: string;
  status: string;
}

export interface ClientCopyPage {
  optionId: string;
  optionName: string;
  pageNumber: number;
  pageCount: number;
  notes: string;
  prices: PriceBreakdown;
}

export interface ClientCopy {
  header: PrintHeader;
  client: { name: string; email: string; phone: string; address: string[] };
  pages: ClientCopyPage[];
  footer: {
    storeAddress: string;
    storePhone: string;
    storeEmail: string;
    storeWebsite: string;
    message: string;
  };
  emptyText: string;
}

function header(bundle: QuoteBundle, branding: Branding): PrintHeader {
  const { quote, client } = bundle;
  return {
    storeName: branding.storeName,
    logoUrl: branding.logoUrl,
    quoteNumber: quote.quoteNumber || shortId(quote.id),
    date: formatDate(quote.createdAt),
    clientName: `${client.firstName} ${client.lastName}`.trim(),
    opticianName: orNA(quote.opticianName),
    status: QUOTE_STATUS_LABELS[quote.status],
  };
}

/** Phone as the spec prints it: the mobile number, else the home number. */
const phoneOf = (c: QuoteBundle["client"]) => orNA(c.mobilePhone || c.homePhone);

/** The client copy: one page per option, for the client's eyes. */
export function clientCopy(bundle: QuoteBundle, branding: Branding): ClientCopy {
  const { quote, client, options } = bundle;
  return {
    header: header(bundle, branding),
    client: {
      name: `${client.firstName} ${client.lastName}`.trim(),
      email: orNA(client.email),
      phone: phoneOf(client),
      address: addressLines(client),
    },
    pages: options.map((option, index) => ({
      optionId: option.id,
      optionName: optionTitle(option, index),
      pageNumber: index + 1,
      pageCount: options.length,
      notes: option.notes.trim(),
      prices: priceBreakdown(option),
    })),
    footer: {
      storeAddress: branding.storeAddress,
      storePhone: branding.storePhone,
      storeEmail: branding.storeEmail,
      storeWebsite: branding.storeWebsite,
      message: quote.footerMessage?.trim() ?? "",
    },
    emptyText: "No options available for this quote.",
  };
}

export interface InternalCopyPage extends ClientCopyPage {
  segOc: string;
}

export interface InternalCopy {
  header: PrintHeader;
  client: {
    name: string;
    email: string;
    phone: string;
    dob: string;
    address: string[];
    smsConsent: string;
    emailConsent: string;
    heardHow: string;
  };
  measurements: { pdDistance: string; pdNear: string; extras: Array<[string, string]> };
  createdDate: string;
  internalNotes: string;
  pages: InternalCopyPage[];
  emptyText: string;
}

const pd = (v: string) => (v && Number(v) > 0 ? `${v} mm` : NA);

/** The internal copy: one page per chosen option, with everything staff need. */
export function internalCopy(bundle: QuoteBundle, branding: Branding): InternalCopy {
  const { quote, client, options, clientMeasurements: m } = bundle;
  const chosen = options.map((option, index) => ({ option, index })).filter((o) =>
    o.option.isChosen
  );
  return {
    header: header(bundle, branding),
    client: {
      name: `${client.firstName} ${client.lastName}`.trim(),
      email: orNA(client.email),
      phone: phoneOf(client),
      dob: client.dob ? formatDate(`${client.dob}T12:00:00Z`) : NA,
      address: addressLines(client),
      smsConsent: client.smsConsent ? "Yes" : "No",
      emailConsent: client.emailConsent ? "Yes" : "No",
      heardHow: orNA(client.heardHow),
    },
    measurements: {
      pdDistance: pd(m.pdBinocular),
      pdNear: pd(m.pdNear),
      extras: Object.entries(m.extras ?? {}),
    },
    createdDate: formatDate(quote.createdAt),
    internalNotes: orNA(quote.internalNotes),
    pages: chosen.map(({ option, index }, i) => ({
      optionId: option.id,
      optionName: optionTitle(option, index),
      pageNumber: i + 1,
      pageCount: chosen.length,
      notes: option.notes.trim(),
      prices: priceBreakdown(option),
      segOc: orNA(option.frameMeasurements.segOc),
    })),
    emptyText: "No options selected for this quote.",
  };
}
