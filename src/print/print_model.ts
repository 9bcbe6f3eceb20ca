// What the printed copies and the quote PDF show, computed once from a quote
// bundle so the browser print, the PDF and the e-mail attachment cannot drift.
// The client copy is built from client-safe fields only: no internal notes,
// no measurements, no staff-only data.
import { encodeBase64 } from "@oslojs/encoding";
import type { QuoteBundle } from "../quotes/views.ts";
import { clientOptionTitle, optionTitle } from "../quotes/rules.ts";
import { formatMoney } from "../money/amounts.ts";
import { acceptanceTerms } from "../settings/acceptance_terms.ts";
import { type PriceBreakdown, priceBreakdown } from "../quotes/price_breakdown.ts";
import type { Branding } from "../settings/settings.ts";
import { QUOTE_STATUS_LABELS } from "../quotes/status_labels.ts";
import { shortId } from "../clients/views.ts";
import type { PrescriptionView } from "../prescriptions/views.ts";
import {
  formatAxis,
  formatPower,
  formatPrism,
  isPrescriptionExpired,
  localToday,
} from "../prescriptions/rules.ts";

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
  /** The client chose this option (on the tablet): the sheet says "Your choice". */
  isChoice?: boolean;
  pageNumber: number;
  pageCount: number;
  notes: string;
  prices: PriceBreakdown;
}

export interface ClientCopy {
  header: PrintHeader;
  client: { name: string; email: string; phone: string; address: string[] };
  /** "Valid until {date}" from the quote's expiry; empty when quotes do not expire. */
  validity: string;
  pages: ClientCopyPage[];
  footer: {
    storeAddress: string;
    storePhone: string;
    storeEmail: string;
    storeWebsite: string;
    message: string;
  };
  emptyText: string;
  /** The signed copy of an online acceptance: its signature page. */
  signature?: SignatureBlock;
}

export const ACCEPTED_ONLINE = "Accepted online";

export interface SignatureBlock {
  signerName: string;
  /** "November 26, 2026 at 4:30 PM CST": in the store's time zone (Settings), named. */
  signedAt: string;
  statement: typeof ACCEPTED_ONLINE;
  /** The pad's PNG as a data URL, or null for a typed-name signature. */
  imageDataUrl: string | null;
  /** The options accepted, named as the client saw them online, with their totals. */
  options: Array<{ name: string; total: string }>;
  /** What the client accepted to pay: the accepted options' totals together ("$1,234.00"). */
  total: string;
  /** The store's acceptance terms the client ticked. */
  terms: string;
}

function header(bundle: QuoteBundle, branding: Branding): PrintHeader {
  const { quote, client } = bundle;
  return {
    storeName: branding.storeName,
    // The print copy (a PNG of print size) of an uploaded logo, never the upload itself.
    logoUrl: branding.logoPrintUrl ?? branding.logoUrl,
    quoteNumber: quote.quoteNumber || shortId(quote.id),
    date: formatDate(quote.createdAt),
    clientName: `${client.firstName} ${client.lastName}`.trim(),
    opticianName: orNA(quote.opticianName),
    status: QUOTE_STATUS_LABELS[quote.status],
  };
}

/** Phone as the spec prints it: the mobile number, else the home number. */
const phoneOf = (c: QuoteBundle["client"]) => orNA(c.mobilePhone || c.homePhone);

/**
 * What a client copy says about how long its prices hold: the quote's own
 * expiry date, not the footer's generic "valid for 30 days", so a copy
 * printed or sent later still names the real date.
 */
export const validityText = (expiresAt: string | null) =>
  expiresAt ? `Valid until ${formatDate(expiresAt)}` : "";

/**
 * The client copy: one page per option, for the client's eyes. `clientChose`:
 * the client has confirmed a choice on the tablet, so the options marked
 * chosen are theirs (before that the mark is staff's, for the internal copy).
 */
export function clientCopy(
  bundle: QuoteBundle,
  branding: Branding,
  { clientChose = false }: { clientChose?: boolean } = {},
): ClientCopy {
  const { quote, client, options } = bundle;
  return {
    header: header(bundle, branding),
    client: {
      name: `${client.firstName} ${client.lastName}`.trim(),
      email: orNA(client.email),
      phone: phoneOf(client),
      address: addressLines(client),
    },
    validity: validityText(quote.expiresAt),
    pages: options.map((option, index) => ({
      optionId: option.id,
      optionName: optionTitle(option, index),
      isChoice: clientChose && option.isChosen,
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
  /** The client's latest prescription (internal copy only), as written. */
  prescription: InternalPrescription | null;
  createdDate: string;
  internalNotes: string;
  pages: InternalCopyPage[];
  emptyText: string;
}

export interface InternalPrescription {
  written: string;
  prescriber: string;
  expires: string;
  expired: boolean;
  eyes: Array<{
    eye: string;
    sphere: string;
    cylinder: string;
    axis: string;
    add: string;
    prism: string;
  }>;
  notes: string;
}

/**
 * A prescription's notes on the work order: the sheet has room for a couple
 * of lines beside the measurements; the rest is marked as in the system.
 */
export const PRESCRIPTION_NOTE_LIMIT = 140;

function internalPrescription(p: PrescriptionView, today: string): InternalPrescription {
  const eye = (label: string, e: PrescriptionView["rightEye"]) => ({
    eye: label,
    sphere: formatPower(e.sphere),
    cylinder: formatPower(e.cylinder),
    axis: formatAxis(e.axis),
    add: formatPower(e.add),
    prism: formatPrism(e.prism?.amount ?? null, e.prism?.base ?? null),
  });
  return {
    written: formatDate(`${p.dateWritten}T12:00:00Z`),
    prescriber: p.prescriber,
    expires: p.expiresOn ? formatDate(`${p.expiresOn}T12:00:00Z`) : NA,
    expired: isPrescriptionExpired(p.expiresOn, today),
    eyes: [eye("OD (right)", p.rightEye), eye("OS (left)", p.leftEye)],
    notes: clipText(p.notes.trim(), PRESCRIPTION_NOTE_LIMIT),
  };
}

const pd = (v: string) => (v && Number(v) > 0 ? `${v} mm` : NA);

/**
 * The internal copy: one page per chosen option, with everything staff need,
 * the client's latest prescription included.
 */
export function internalCopy(
  bundle: QuoteBundle,
  branding: Branding,
  prescription: PrescriptionView | null = null,
  today = localToday(),
): InternalCopy {
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
    prescription: prescription ? internalPrescription(prescription, today) : null,
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

// ---- One sheet per option ----
// The clip rules (clipText, shortenName, the "continued in the system" mark)
// live in clip_text.ts, which the print page's script uses too.
import { clipText, CONTINUED_IN_SYSTEM, priceTableNote, shortenName } from "./clip_text.ts";
export { clipText, CONTINUED_IN_SYSTEM, priceTableNote, shortenName };

/** The client copy of the chosen options only ("Print chosen only"), numbered anew. */
export function chosenOnly(copy: ClientCopy): ClientCopy {
  const pages = copy.pages.filter((page) => page.isChoice);
  return {
    ...copy,
    pages: pages.map((page, i) => ({ ...page, pageNumber: i + 1, pageCount: pages.length })),
  };
}

const SIGNED_AT: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "long",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
};

/**
 * When a client signed, in the store's time zone (Settings) with the zone
 * named: "December 7, 2026 at 2:08 PM GMT+13". A zone the runtime does not
 * know falls back to the server's own (its TZ).
 */
export function signedAtText(at: Date, timeZone?: string): string {
  try {
    return new Intl.DateTimeFormat("en-US", { ...SIGNED_AT, timeZone }).format(at);
  } catch {
    return new Intl.DateTimeFormat("en-US", SIGNED_AT).format(at);
  }
}

function dayIn(iso: string, timeZone?: string): string {
  try {
    return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone }).format(new Date(iso));
  } catch {
    return formatDate(iso);
  }
}

/** The store's side of a signed copy: its time zone and the terms the client ticked. */
export interface SigningStore {
  /** Settings' time zone (an IANA name); the server's when not given. */
  timeZone?: string;
  /** The terms as the client ticked them; empty: the store's current ones (or the built-in). */
  terms?: string;
}

/**
 * The signed copy of an online acceptance: the client copy of the chosen
 * options only, each named as the online page named it (its label, not the
 * staff's frame SKU), then a signature page (name, the store's local time,
 * "Accepted online", the options and their total, the terms ticked, the
 * drawn signature or the typed name).
 */
export function signedCopy(
  bundle: QuoteBundle,
  branding: Branding,
  acceptance: {
    signerName: string;
    acceptedAt: Date;
    chosenOptionIds: string[];
    signaturePng: Uint8Array | null;
  },
  store: SigningStore = {},
): ClientCopy {
  const copy = clientCopy(bundle, branding);
  const chosen = new Set(acceptance.chosenOptionIds);
  const titles = new Map(bundle.options.map((o, i) => [o.id, clientOptionTitle(o, i)]));
  const pages = copy.pages.filter((p) => chosen.has(p.optionId))
    .map((p) => ({ ...p, optionName: titles.get(p.optionId) ?? p.optionName }));
  const totalCents = pages.reduce((sum, p) => sum + p.prices.totalCents, 0);
  return {
    ...copy,
    // The quote's day as the store counts days, like the time it was signed.
    header: { ...copy.header, date: dayIn(bundle.quote.createdAt, store.timeZone) },
    pages: pages.map((p, i) => ({ ...p, pageNumber: i + 1, pageCount: pages.length })),
    signature: {
      signerName: acceptance.signerName,
      signedAt: signedAtText(acceptance.acceptedAt, store.timeZone),
      statement: ACCEPTED_ONLINE,
      imageDataUrl: acceptance.signaturePng
        ? `data:image/png;base64,${encodeBase64(acceptance.signaturePng)}`
        : null,
      options: pages.map((p) => ({ name: p.optionName, total: formatMoney(p.prices.totalCents) })),
      total: formatMoney(totalCents),
      terms: acceptanceTerms(store.terms),
    },
  };
}
