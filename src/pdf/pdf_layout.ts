// The PDF's layout: its densities (type sizes and spacing, tightest last),
// what each can hold, estimated from text widths before rendering, and the
// styles of each density.
import { StyleSheet } from "@react-pdf/renderer";
import type { ClientCopyPage } from "../print/print_model.ts";
import { clipText, shortenName } from "../print/print_model.ts";
import type { PriceLine } from "../quotes/price_breakdown.ts";
import { FONT_FAMILY } from "./fonts.ts";

const COLOR = {
  brand: "#1f4e5f",
  text: "#1d2428",
  muted: "#5d6870",
  rule: "#e0dbd0",
  panel: "#f3f1ec",
  discount: "#17663a",
};
/** LETTER is 612×792pt; the page keeps 36pt (0.5in) margins. */
const PAGE_HEIGHT = 792;
const MARGIN = 36;
const CONTENT_WIDTH = 612 - 2 * MARGIN;
export const CONTENT_HEIGHT = PAGE_HEIGHT - 2 * MARGIN;

/**
 * Each option must stay on exactly one sheet: the page numbers come from the
 * model, and a spilled sheet would repeat "Page X of N". A page that does not
 * fit is laid out again one level denser; levels that provably cannot fit
 * (see lowerBound) are skipped without trying them. The last two levels
 * shorten very long notes and descriptions (saying so) and list many lines
 * in two columns. The last one keeps the totals and footer in a fixed area
 * at the bottom and, when the price lines do not all fit above it, shows
 * those that do (its first render measures them) with a note of how many more
 * are continued in the system. Only absurd quotes need that: the schema
 * allows 50 lines of 200 characters.
 */
export interface Density {
  base: number;
  leading: number;
  gap: number;
  row: number;
  noteLimit?: number;
  nameLimit?: number;
  twoColumns?: boolean;
  capped?: boolean;
}
const TIGHTEST: Density = {
  base: 6.5,
  leading: 1.15,
  gap: 5,
  row: 1,
  noteLimit: 400,
  nameLimit: 80,
  twoColumns: true,
  capped: true,
};
export const DENSITIES: Density[] = [
  { base: 10, leading: 1.3, gap: 14, row: 4.5 },
  { base: 9, leading: 1.3, gap: 11, row: 3 },
  { base: 8, leading: 1.25, gap: 8, row: 2 },
  { base: 7, leading: 1.2, gap: 6, row: 1.5, noteLimit: 1200, twoColumns: true },
  TIGHTEST,
];
export const LAST = DENSITIES.length - 1;
/** Lines beyond this go into two columns, where the level allows it. */
const ONE_COLUMN_MAX = 16;
/** The last level's fixed area at the bottom: table note, totals, footer. */
const NOTE_BOX = 18;
const TOTALS_BOX = 86;
const FOOTER_BOX = 56;
export const BOTTOM_BOX = NOTE_BOX + TOTALS_BOX + FOOTER_BOX;
/** The footer message on the last level, which has a fixed box for it. */
export const FOOTER_LIMIT = 240;

// The price table's geometry, shared by the styles and lowerBound().
const CELL_PADDING = 8;
const NAME_GAP = 10;
const TABLE_GAP = 16;
const kindWidth = (narrow: boolean) => narrow ? 62 : 96;
/** Room for the widest line amount, "$998,999,990.01" (999 × $999,999.99). */
const priceWidth = (d: Density) => d.base * 9.8;
function nameWidth(d: Density, narrow: boolean): number {
  const table = narrow ? (CONTENT_WIDTH - TABLE_GAP) / 2 : CONTENT_WIDTH;
  return table - 2 * CELL_PADDING - kindWidth(narrow) - priceWidth(d) - NAME_GAP;
}
export const twoColumnsAt = (d: Density, lines: PriceLine[]) =>
  !!d.twoColumns && lines.length > ONE_COLUMN_MAX;
export const lineText = (d: Density, line: PriceLine) =>
  d.nameLimit === undefined ? line.name : shortenName(line.name, d.nameLimit);
export const qtyText = (line: PriceLine) => line.qty > 1 ? ` × ${line.qty}` : "";

type Meter = (text: string, size: number) => number;

/**
 * A height the page's price lines and notes cannot be under at this level:
 * every row holds at least as many lines as its description's narrowest
 * width needs, plus its padding. When that alone is taller than the page,
 * the level cannot fit and is not worth laying out.
 */
function lowerBound(page: ClientCopyPage, d: Density, width: Meter): number {
  const lineHeight = d.base * d.leading;
  const lines = page.prices.lines;
  const narrow = twoColumnsAt(d, lines);
  const room = nameWidth(d, narrow);
  const rowHeights = lines.map((line) => {
    const textWidth = width(lineText(d, line) + qtyText(line), d.base);
    return Math.max(1, Math.ceil(textWidth / room)) * lineHeight + 2 * d.row;
  });
  let rows = 0;
  for (let i = 0; i < rowHeights.length; i += narrow ? 2 : 1) {
    rows += narrow ? Math.max(rowHeights[i], rowHeights[i + 1] ?? 0) : rowHeights[i];
  }
  const notes = page.notes === ""
    ? 0
    : Math.ceil(width(notesText(d, page.notes), d.base) / CONTENT_WIDTH) * lineHeight;
  return rows + notes;
}

export const notesText = (d: Density, notes: string) =>
  d.noteLimit === undefined ? notes : clipText(notes, d.noteLimit);

/** The first level from `from` on that might fit; the last level always might. */
export function nextLevel(page: ClientCopyPage, from: number, width: Meter): number {
  let level = from;
  while (level < LAST && lowerBound(page, DENSITIES[level], width) > CONTENT_HEIGHT) level++;
  return level;
}

function stylesFor(d: Density) {
  const small = d.base - 1.5;
  return StyleSheet.create({
    page: {
      padding: MARGIN,
      fontFamily: FONT_FAMILY,
      fontSize: d.base,
      color: COLOR.text,
      lineHeight: d.leading,
      flexDirection: "column",
    },
    header: { flexDirection: "row", justifyContent: "space-between", alignItems: "flex-start" },
    brand: { flexDirection: "column", maxWidth: 300 },
    storeNameUnderLogo: { fontWeight: 700, fontSize: d.base + 2, marginTop: 4 },
    storeName: { fontWeight: 700, fontSize: d.base + 10, color: COLOR.brand, lineHeight: 1.1 },
    titleBlock: { alignItems: "flex-end" },
    title: {
      fontWeight: 700,
      fontSize: d.base + 6,
      color: COLOR.brand,
      letterSpacing: 1.5,
      lineHeight: 1.2,
      marginBottom: 4,
    },
    meta: { flexDirection: "row", justifyContent: "flex-end", fontSize: small + 0.5 },
    metaLabel: { color: COLOR.muted, marginRight: 4 },
    metaValue: { fontWeight: 700 },
    headerRule: { height: 2, backgroundColor: COLOR.brand, marginTop: 10, marginBottom: d.gap },
    banner: {
      backgroundColor: COLOR.panel,
      borderLeftWidth: 3,
      borderLeftColor: COLOR.brand,
      paddingVertical: d.row + 3,
      paddingHorizontal: 12,
      marginBottom: d.gap,
    },
    bannerLabel: { fontSize: small, color: COLOR.muted, letterSpacing: 1 },
    bannerName: { fontWeight: 700, fontSize: d.base + 5, lineHeight: 1.2 },
    columns: { flexDirection: "row", marginBottom: d.gap },
    column: { flex: 1 },
    columnGap: { width: 24 },
    sectionTitle: {
      fontWeight: 700,
      fontSize: small,
      color: COLOR.brand,
      letterSpacing: 1,
      borderBottomWidth: 0.75,
      borderBottomColor: COLOR.rule,
      paddingBottom: 3,
      marginBottom: 5,
    },
    field: { flexDirection: "row", marginBottom: 2 },
    fieldLabel: { width: 58, color: COLOR.muted },
    fieldValue: { flex: 1 },
    section: { marginBottom: d.gap },
    // Two columns are laid out as rows of two cells, so that a row's two
    // lines share its height and the sheet can only break between rows.
    pair: { flexDirection: "row" },
    // Side by side only: in a column, flex: 1 would collapse a cell to nothing.
    half: { flex: 1 },
    tableGap: { width: TABLE_GAP },
    tableHead: {
      flexDirection: "row",
      backgroundColor: COLOR.brand,
      fontWeight: 700,
      fontSize: small,
      letterSpacing: 0.8,
      paddingVertical: 4,
      paddingHorizontal: CELL_PADDING,
    },
    headText: { color: "#ffffff" },
    line: {
      flexDirection: "row",
      paddingVertical: d.row,
      paddingHorizontal: CELL_PADDING,
      borderBottomWidth: 0.5,
      borderBottomColor: COLOR.rule,
    },
    kindCol: { width: kindWidth(false), color: COLOR.muted },
    kindColNarrow: { width: kindWidth(true), color: COLOR.muted },
    nameCol: { flex: 1, paddingRight: NAME_GAP },
    qty: { color: COLOR.muted },
    priceCol: { width: priceWidth(d), textAlign: "right" },
    totals: { alignSelf: "flex-end", width: 290, marginTop: 6 },
    totalRow: { flexDirection: "row", paddingVertical: 2, paddingHorizontal: 8 },
    totalLabel: { flex: 1, color: COLOR.muted },
    totalValue: { textAlign: "right" },
    discount: { color: COLOR.discount },
    grandTotal: {
      flexDirection: "row",
      marginTop: 4,
      paddingVertical: 6,
      paddingHorizontal: 8,
      backgroundColor: COLOR.panel,
      borderTopWidth: 1.5,
      borderTopColor: COLOR.brand,
      fontWeight: 700,
      fontSize: d.base + 3,
    },
    grandTotalLabel: { flex: 1 },
    notice: { color: COLOR.muted, fontStyle: "italic", textAlign: "right", marginTop: 3 },
    empty: {
      backgroundColor: COLOR.panel,
      padding: 24,
      textAlign: "center",
      color: COLOR.muted,
      fontSize: d.base + 2,
    },
    body: { flexGrow: 1 },
    footer: {
      borderTopWidth: 0.75,
      borderTopColor: COLOR.rule,
      paddingTop: 8,
      alignItems: "center",
      fontSize: small,
      color: COLOR.muted,
      textAlign: "center",
    },
    footerMessage: {
      fontStyle: "italic",
      color: COLOR.text,
      fontSize: small + 0.5,
      marginBottom: 4,
    },
    footerStore: { fontWeight: 700, color: COLOR.text },
    footerParts: { flexDirection: "row", flexWrap: "wrap", justifyContent: "center" },
    // The room a sheet has for its content, which makes the page a sheet
    // tall, and the content, positioned absolutely in it (see Measuring).
    room: { height: CONTENT_HEIGHT },
    sheet: { minHeight: CONTENT_HEIGHT, flexDirection: "column" },
    // The last level: the room ends above a fixed area for the table note,
    // totals and footer.
    cappedPage: { paddingBottom: MARGIN + BOTTOM_BOX },
    cappedRoom: { height: CONTENT_HEIGHT - BOTTOM_BOX },
    bottomArea: {
      position: "absolute",
      top: PAGE_HEIGHT - MARGIN - BOTTOM_BOX,
      left: MARGIN,
      right: MARGIN,
      height: BOTTOM_BOX,
    },
    noteBox: { height: NOTE_BOX, justifyContent: "flex-end" },
    totalsBox: { height: TOTALS_BOX, overflow: "hidden" },
    footerBox: { height: FOOTER_BOX, overflow: "hidden", justifyContent: "flex-end" },
    // Should the header and notes alone ever overflow there, the content is
    // cut at the room's edge.
    clip: { overflow: "hidden" },
    pinTop: { position: "absolute", top: 0, left: 0, right: 0 },
  });
}
export type Styles = ReturnType<typeof stylesFor>;
export const STYLES = DENSITIES.map(stylesFor);
