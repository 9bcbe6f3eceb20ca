// How one printed sheet (client or internal copy) keeps to exactly one page of
// paper. The sheet is laid out at the first of a few densities (font sizes)
// its content fits at; at the densest one, text that still does not fit is
// shortened with print_model's clip rules (the same words the PDF uses: the
// rest is "continued in the system") and price lines beyond the room left are
// counted in a note instead of shown. The print CSS then gives every sheet
// the page's exact height with its overflow hidden, as a last safety; the
// print tests check that nothing ever reaches that safety.
//
// Heights are estimated from character counts, with a character as wide as
// DejaVu Sans's average (the widest of the common sans faces a browser falls
// back to), so the estimate errs towards shrinking early.
import {
  type ClientCopy,
  type ClientCopyPage,
  clipText,
  CONTINUED_IN_SYSTEM,
  type InternalCopy,
  type InternalCopyPage,
  priceTableNote,
  shortenName,
} from "../../src/print/print_model.ts";
import type { PriceBreakdown } from "../../src/quotes/price_breakdown.ts";

export interface Density {
  /** Body font size in CSS px, and the class the sheet carries for it. */
  font: number;
  leading: number;
  className: string;
}

export const DENSITIES: Density[] = [
  { font: 13, leading: 1.4, className: "print-density-0" },
  { font: 11.5, leading: 1.35, className: "print-density-1" },
  { font: 10, leading: 1.3, className: "print-density-2" },
  { font: 8.5, leading: 1.25, className: "print-density-3" },
  // Smaller type and tighter rows (print.css) before anything is cut.
  { font: 7.5, leading: 1.2, className: "print-density-4" },
];
const TIGHTEST = DENSITIES[DENSITIES.length - 1];

/** The page's content box in CSS px: letter with 0.5in margins, less a hair for rounding. */
export const CLIENT_BOX = { width: 720, height: 955 };
export const INTERNAL_BOX = { width: 960, height: 715 };
/** Share of the box the estimate may fill: room for what it does not model. */
const SAFETY = 0.9;

const CHAR_EM = 0.62;
/** Lines `text` wraps to in `width` px at `font` px; each paragraph takes one at least. */
function wrappedLines(text: string, width: number, font: number): number {
  const perLine = Math.max(1, Math.floor(width / (font * CHAR_EM)));
  return text.split("\n").reduce((n, p) => n + Math.max(1, Math.ceil(p.length / perLine)), 0);
}
/** Characters that fill `lines` lines of `width` px (a margin kept for word wrapping). */
const charsIn = (lines: number, width: number, font: number) =>
  Math.max(0, Math.floor(lines * Math.floor(width / (font * CHAR_EM)) * 0.85));

const lineHeight = (d: Density) => d.font * d.leading;
/** A section's title and gaps around it. */
const sectionChrome = (d: Density) => d.font * 0.82 * 1.4 + 8 + d.font;

// ---- Price table ----

export interface FittedPrices {
  prices: PriceBreakdown;
  /** Empty, or what the table left off or shortened, in the system's words. */
  note: string;
}

function tableWidths(d: Density, width: number) {
  const kind = d.font * 0.85 * CHAR_EM * 15 + 16;
  const amount = d.font * CHAR_EM * 15 + 16;
  return { name: width - kind - amount };
}

function rowHeight(d: Density, name: string, width: number): number {
  return wrappedLines(name, tableWidths(d, width).name, d.font) * lineHeight(d) + 11;
}

function tableHeight(d: Density, prices: PriceBreakdown, width: number, note: string): number {
  const rows = prices.lines.reduce((h, l) => h + rowHeight(d, qtyName(l), width), 0) ||
    lineHeight(d) + 11;
  const footRows = 2 + (prices.shippingCents > 0 ? 1 : 0) + (prices.adjustment ? 1 : 0);
  const adjustment = prices.adjustment
    ? (wrappedLines(prices.adjustment.label, width * 0.7, d.font) - 1) * lineHeight(d)
    : 0;
  const noteHeight = note ? wrappedLines(note, width, d.font) * lineHeight(d) + 6 : 0;
  return rows + footRows * (lineHeight(d) + 6) + 16 + d.font * 0.3 + adjustment + noteHeight;
}

const qtyName = (l: { name: string; qty: number }) => l.qty > 1 ? `${l.name} × ${l.qty}` : l.name;

/**
 * Price lines with their names on one line each. Every line stays: staff
 * order from the sheet, so a price line is never left off (the page's script,
 * fit_sheets.ts, measures the real sheet and gives names back their room).
 */
function clipPrices(d: Density, prices: PriceBreakdown, width: number) {
  const nameChars = Math.floor(tableWidths(d, width).name / (d.font * CHAR_EM)) - 8;
  let shortened = false;
  const lines = prices.lines.map((line) => {
    const name = shortenName(line.name, Math.max(12, nameChars));
    if (name !== line.name) shortened = true;
    return { ...line, name };
  });
  const adjustment = prices.adjustment &&
    { ...prices.adjustment, label: shortenName(prices.adjustment.label, 60) };
  if (adjustment && adjustment.label !== prices.adjustment?.label) shortened = true;
  const cut = { ...prices, lines, adjustment };
  const note = priceTableNote(0, shortened);
  return { prices: cut, note, height: tableHeight(d, cut, width, note) };
}

// ---- The flexible parts of a column ----

interface Flexible {
  /** Estimated height of everything else in the column. */
  fixed: number;
  notes: string;
  notesWidth: number;
  /** The column's price table, when it has one. */
  prices?: PriceBreakdown;
}

interface FittedColumn {
  notes: string;
  table?: FittedPrices;
  height: number;
}

function columnAsIs(d: Density, col: Flexible): FittedColumn {
  const notesHeight = wrappedLines(col.notes, col.notesWidth, d.font) * lineHeight(d);
  const table = col.prices && { prices: col.prices, note: "" };
  const tableH = col.prices ? tableHeight(d, col.prices, col.notesWidth, "") : 0;
  return { notes: col.notes, table, height: col.fixed + notesHeight + tableH };
}

/**
 * The densest level's column: the price table keeps every line (names on one
 * line), the notes get what is left, cut to it.
 */
function columnClipped(d: Density, col: Flexible, boxHeight: number): FittedColumn {
  const room = boxHeight - col.fixed;
  let table: FittedPrices | undefined;
  let tableH = 0;
  if (col.prices) {
    const clipped = clipPrices(d, col.prices, col.notesWidth);
    table = { prices: clipped.prices, note: clipped.note };
    tableH = clipped.height;
  }
  // The mark itself takes a line or two of its own.
  const notesLines = Math.floor((room - tableH) / lineHeight(d)) - 2;
  const notes = clipText(col.notes, Math.max(40, charsIn(notesLines, col.notesWidth, d.font)));
  const height = col.fixed + tableH +
    wrappedLines(notes, col.notesWidth, d.font) * lineHeight(d);
  return { notes, table, height };
}

/** Short fields at the densest level: long ones are cut, saying so. */
const FIELD_LIMIT = 120;
const clipField = (d: Density, text: string) => d === TIGHTEST ? clipText(text, FIELD_LIMIT) : text;

function infoHeight(d: Density, values: string[], width: number): number {
  const dd = width - 8.5 * d.font - 8;
  return values.reduce((h, v) => h + wrappedLines(v, dd, d.font) * lineHeight(d) + 2, 0);
}

// ---- Client sheet ----

export interface ClientSheetFit {
  density: Density;
  optionName: string;
  client: ClientCopy["client"];
  notes: string;
  table: FittedPrices;
  footerMessage: string;
}

function clientFields(d: Density, copy: ClientCopy, page: ClientCopyPage) {
  return {
    optionName: clipField(d, page.optionName),
    client: {
      name: clipField(d, copy.client.name),
      email: clipField(d, copy.client.email),
      phone: clipField(d, copy.client.phone),
      address: copy.client.address.map((l) => clipField(d, l)),
    },
    footerMessage: d === TIGHTEST ? clipText(copy.footer.message, 240) : copy.footer.message,
  };
}

export function fitClientSheet(copy: ClientCopy, page: ClientCopyPage): ClientSheetFit {
  const { width, height } = CLIENT_BOX;
  const box = height * SAFETY;
  for (const d of DENSITIES) {
    const f = clientFields(d, copy, page);
    const lh = lineHeight(d);
    const header = Math.max(
      48,
      d.font * 1.55 * 1.3 + wrappedLines(f.optionName, width / 2, d.font * 1.15) * d.font * 1.5 +
        lh * 2,
    ) + 30;
    const column = (width - 28) / 2;
    const info = Math.max(
      infoHeight(d, [f.client.name, f.client.email, f.client.phone, ...f.client.address], column),
      infoHeight(d, [f.optionName, copy.header.opticianName, copy.header.status], column),
    ) + sectionChrome(d);
    const contact = [
      copy.footer.storeAddress,
      copy.footer.storePhone,
      copy.footer.storeEmail,
      copy.footer.storeWebsite,
    ].join("    ");
    const footer = 20 + wrappedLines(contact, width, d.font * 0.9) * lh +
      (f.footerMessage ? wrappedLines(f.footerMessage, width, d.font * 0.9) * lh + 6 : 0);
    const col: Flexible = {
      fixed: header + info + footer + 2 * sectionChrome(d),
      notes: page.notes,
      notesWidth: width,
      prices: page.prices,
    };
    const asIs = columnAsIs(d, col);
    if (asIs.height <= box) {
      return { density: d, ...f, notes: asIs.notes, table: asIs.table! };
    }
    if (d === TIGHTEST) {
      const clipped = columnClipped(d, col, box);
      return { density: d, ...f, notes: clipped.notes, table: clipped.table! };
    }
  }
  throw new Error("unreachable: the densest level always fits");
}

// ---- Internal sheet ----

export interface InternalSheetFit {
  density: Density;
  optionName: string;
  client: InternalCopy["client"];
  extras: Array<[string, string]>;
  internalNotes: string;
  notes: string;
  table: FittedPrices;
}

/** Measurement extras beyond these are left off, saying so. */
const EXTRAS_MAX = 6;

function internalFields(d: Density, copy: InternalCopy, page: InternalCopyPage) {
  const c = copy.client;
  const extras = copy.measurements.extras.map(([k, v]): [string, string] => [
    d === TIGHTEST ? shortenName(k, 40) : k,
    clipField(d, v),
  ]);
  const shownExtras = d === TIGHTEST && extras.length > EXTRAS_MAX
    ? [
      ...extras.slice(0, EXTRAS_MAX - 1),
      ["More", `${extras.length - EXTRAS_MAX + 1} more measurements ${CONTINUED_IN_SYSTEM}`],
    ] as Array<[string, string]>
    : extras;
  return {
    optionName: clipField(d, page.optionName),
    client: {
      ...c,
      name: clipField(d, c.name),
      email: clipField(d, c.email),
      phone: clipField(d, c.phone),
      address: c.address.map((l) => clipField(d, l)),
      heardHow: clipField(d, c.heardHow),
    },
    extras: shownExtras,
  };
}

export function fitInternalSheet(copy: InternalCopy, page: InternalCopyPage): InternalSheetFit {
  const { width, height } = INTERNAL_BOX;
  const box = height * SAFETY;
  const left = (width - 32) * 0.55;
  const right = (width - 32) * 0.45;
  for (const d of DENSITIES) {
    const f = internalFields(d, copy, page);
    const lh = lineHeight(d);
    const header = Math.max(40, d.font * 1.55 * 1.3 + lh) + 30 +
      Math.max(0, wrappedLines(f.optionName, width / 3, d.font * 1.15) - 1) * d.font * 1.5;
    const c = f.client;
    const leftFixed = header +
      infoHeight(
        d,
        [c.name, c.email, c.phone, c.dob, ...c.address, "Yes", "No", c.heardHow],
        left,
      ) +
      infoHeight(d, ["mm", "mm", page.segOc, ...f.extras.map(([, v]) => v)], left) +
      infoHeight(d, [copy.createdDate, copy.header.opticianName, copy.header.status], left) +
      4 * sectionChrome(d);
    const leftCol: Flexible = { fixed: leftFixed, notes: copy.internalNotes, notesWidth: left };
    const rightCol: Flexible = {
      fixed: header + 2 * sectionChrome(d),
      notes: page.notes,
      notesWidth: right,
      prices: page.prices,
    };
    const [l, r] = [columnAsIs(d, leftCol), columnAsIs(d, rightCol)];
    if (l.height <= box && r.height <= box) {
      return { density: d, ...f, internalNotes: l.notes, notes: r.notes, table: r.table! };
    }
    if (d === TIGHTEST) {
      const lc = l.height <= box ? l : columnClipped(d, leftCol, box);
      const rc = r.height <= box ? r : columnClipped(d, rightCol, box);
      return { density: d, ...f, internalNotes: lc.notes, notes: rc.notes, table: rc.table! };
    }
  }
  throw new Error("unreachable: the densest level always fits");
}
