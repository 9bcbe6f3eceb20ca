// What the printed copies and the quote PDF show, computed once from a quote
// bundle so the browser print, the PDF and the e-mail attachment cannot drift.
// The client copy is built from client-safe fields only: no internal notes,
// no measurements, no staff-only data.
import { encodeBase64 } from "@oslojs/encoding";
import type { QuoteBundle } from "../quotes/views.ts";
import { optionTitle } from "../quotes/rules.ts";
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
  /** The signed copy of an online acceptance (issue 33): its signature page. */
  signature?: SignatureBlock;
}

export const ACCEPTED_ONLINE = "Accepted online";

export interface SignatureBlock {
  signerName: string;
  /** "November 26, 2026, 4:30 PM" (the server's time zone). */
  signedAt: string;
  statement: typeof ACCEPTED_ONLINE;
  /** The pad's PNG as a data URL, or null for a typed-name signature. */
  imageDataUrl: string | null;
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

export const signedAtFormat = new Intl.DateTimeFormat("en-US", {
  dateStyle: "long",
  timeStyle: "short",
});

/**
 * The signed copy of an online acceptance: the client copy of the chosen
 * options only, then a signature page (name, date, "Accepted online", the
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
): ClientCopy {
  const copy = clientCopy(bundle, branding);
  const chosen = new Set(acceptance.chosenOptionIds);
  const pages = copy.pages.filter((p) => chosen.has(p.optionId));
  return {
    ...copy,
    pages: pages.map((p, i) => ({ ...p, pageNumber: i + 1, pageCount: pages.length })),
    signature: {
      signerName: acceptance.signerName,
      signedAt: signedAtFormat.format(acceptance.acceptedAt),
      statement: ACCEPTED_ONLINE,
      imageDataUrl: acceptance.signaturePng
        ? `data:image/png;base64,${encodeBase64(acceptance.signaturePng)}`
        : null,
    },
  };
}
