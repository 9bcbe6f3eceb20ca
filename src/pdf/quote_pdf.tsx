// The client copy of a quote as a PDF, made with @react-pdf/renderer (no
// browser in the container). Everything it shows comes from clientCopy(), the
// same model as the printed client copy, so the two cannot disagree and no
// staff-only field can leak in through here. This module does the rendering
// itself and runs inside the PDF renderer processes (pdf_pool.ts); requests go through
// render_quote_pdf.ts, never here, so a long render cannot hold up the server.
import type { ReactNode } from "react";
import { Document, Image, Page, renderToBuffer, StyleSheet, Text, View } from "@react-pdf/renderer";
import {
  type ClientCopy,
  type ClientCopyPage,
  clipText,
  priceTableNote,
  shortenName,
} from "../print/print_model.ts";
import { formatMoney } from "../quotes/money.ts";
import type { PriceLine } from "../quotes/price_breakdown.ts";
import { FONT_FAMILY, textSanitizer, widthLowerBound } from "./fonts.ts";
import type { PdfImage } from "./logo_image.ts";

// ---- Text ----

/** The model with every string made printable in the PDF's typeface; numbers (cents) untouched. */
function printable<T>(value: T, clean: (text: string) => string): T {
  if (typeof value === "string") return clean(value) as T;
  if (Array.isArray(value)) return value.map((v) => printable(v, clean)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, printable(v, clean)]),
    ) as T;
  }
  return value;
}

// ---- Layout ----

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
const CONTENT_HEIGHT = PAGE_HEIGHT - 2 * MARGIN;

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
interface Density {
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
const DENSITIES: Density[] = [
  { base: 10, leading: 1.3, gap: 14, row: 4.5 },
  { base: 9, leading: 1.3, gap: 11, row: 3 },
  { base: 8, leading: 1.25, gap: 8, row: 2 },
  { base: 7, leading: 1.2, gap: 6, row: 1.5, noteLimit: 1200, twoColumns: true },
  TIGHTEST,
];
const LAST = DENSITIES.length - 1;
/** Lines beyond this go into two columns, where the level allows it. */
const ONE_COLUMN_MAX = 16;
/** The last level's fixed area at the bottom: table note, totals, footer. */
const NOTE_BOX = 18;
const TOTALS_BOX = 86;
const FOOTER_BOX = 56;
const BOTTOM_BOX = NOTE_BOX + TOTALS_BOX + FOOTER_BOX;
/** The footer message on the last level, which has a fixed box for it. */
const FOOTER_LIMIT = 240;

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
const twoColumnsAt = (d: Density, lines: PriceLine[]) =>
  !!d.twoColumns && lines.length > ONE_COLUMN_MAX;
const lineText = (d: Density, line: PriceLine) =>
  d.nameLimit === undefined ? line.name : shortenName(line.name, d.nameLimit);
const qtyText = (line: PriceLine) => line.qty > 1 ? ` × ${line.qty}` : "";

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

const notesText = (d: Density, notes: string) =>
  d.noteLimit === undefined ? notes : clipText(notes, d.noteLimit);

/** The first level from `from` on that might fit; the last level always might. */
function nextLevel(page: ClientCopyPage, from: number, width: Meter): number {
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
    logo: {
      height: d.base * 4.4,
      maxWidth: d.base * 18,
      objectFit: "contain",
      objectPosition: "left",
    },
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
type Styles = ReturnType<typeof stylesFor>;
const STYLES = DENSITIES.map(stylesFor);

function Field({ s, label, children }: { s: Styles; label: string; children: ReactNode }) {
  return (
    <View style={s.field} wrap={false}>
      <Text style={s.fieldLabel}>{label}</Text>
      <View style={s.fieldValue}>{children}</View>
    </View>
  );
}

function Header(
  { s, copy, logo, page }: { s: Styles; copy: ClientCopy; logo?: PdfImage; page?: ClientCopyPage },
) {
  const { header } = copy;
  return (
    <View>
      <View style={s.header}>
        <View style={s.brand}>
          {logo
            ? (
              <>
                <Image style={s.logo} src={logo} />
                <Text style={s.storeNameUnderLogo}>{header.storeName}</Text>
              </>
            )
            : <Text style={s.storeName}>{header.storeName}</Text>}
        </View>
        <View style={s.titleBlock}>
          <Text style={s.title}>EYEWEAR QUOTE</Text>
          <View style={s.meta}>
            <Text style={s.metaLabel}>Quote</Text>
            <Text style={s.metaValue}>{header.quoteNumber}</Text>
          </View>
          <View style={s.meta}>
            <Text style={s.metaLabel}>Date</Text>
            <Text>{header.date}</Text>
          </View>
          <View style={s.meta}>
            <Text>{`Page ${page?.pageNumber ?? 1} of ${page?.pageCount ?? 1}`}</Text>
          </View>
        </View>
      </View>
      <View style={s.headerRule} />
      {page && (
        <View style={s.banner}>
          <Text style={s.bannerLabel}>QUOTED OPTION</Text>
          <Text style={s.bannerName}>{page.optionName}</Text>
        </View>
      )}
    </View>
  );
}

function ClientAndDetails(
  { s, copy, page }: { s: Styles; copy: ClientCopy; page?: ClientCopyPage },
) {
  const { client, header } = copy;
  return (
    <View style={s.columns} wrap={false}>
      <View style={s.column}>
        <Text style={s.sectionTitle}>CLIENT INFORMATION</Text>
        <Field s={s} label="Name">
          <Text>{client.name}</Text>
        </Field>
        <Field s={s} label="E-mail">
          <Text>{client.email}</Text>
        </Field>
        <Field s={s} label="Phone">
          <Text>{client.phone}</Text>
        </Field>
        {client.address.length > 0 && (
          <Field s={s} label="Address">
            {client.address.map((line, i) => <Text key={i}>{line}</Text>)}
          </Field>
        )}
      </View>
      <View style={s.columnGap} />
      <View style={s.column}>
        <Text style={s.sectionTitle}>QUOTE DETAILS</Text>
        {page && (
          <Field s={s} label="Option">
            <Text>{page.optionName}</Text>
          </Field>
        )}
        <Field s={s} label="Optician">
          <Text>{header.opticianName}</Text>
        </Field>
        <Field s={s} label="Status">
          <Text>{header.status}</Text>
        </Field>
        {copy.validity !== "" && (
          <Field s={s} label="Validity">
            <Text>{copy.validity}</Text>
          </Field>
        )}
      </View>
    </View>
  );
}

function LineCells(
  { s, d, line, narrow }: { s: Styles; d: Density; line: PriceLine; narrow: boolean },
) {
  return (
    <>
      <Text style={narrow ? s.kindColNarrow : s.kindCol}>{line.kindLabel}</Text>
      <Text style={s.nameCol}>
        {lineText(d, line)}
        {line.qty > 1 && <Text style={s.qty}>{qtyText(line)}</Text>}
      </Text>
      <Text style={s.priceCol}>{formatMoney(line.cents)}</Text>
    </>
  );
}

function HeadCells({ s, narrow }: { s: Styles; narrow: boolean }) {
  return (
    <>
      <Text style={[narrow ? s.kindColNarrow : s.kindCol, s.headText]}>ITEM</Text>
      <Text style={[s.nameCol, s.headText]}>DESCRIPTION</Text>
      <Text style={[s.priceCol, s.headText]}>PRICE</Text>
    </>
  );
}

function PriceLines(
  { s, d, lines, narrow }: {
    s: Styles;
    d: Density;
    lines: PriceLine[];
    /** In two columns: decided from all the option's lines, shown or not. */
    narrow: boolean;
  },
) {
  const rows = narrow
    ? Array.from({ length: Math.ceil(lines.length / 2) }, (_, i) => lines.slice(2 * i, 2 * i + 2))
    : lines.map((line) => [line]);
  return (
    <View>
      <Text style={s.sectionTitle}>PRICE BREAKDOWN</Text>
      {narrow
        ? (
          <View style={s.pair}>
            <View style={[s.tableHead, s.half]}>
              <HeadCells s={s} narrow />
            </View>
            <View style={s.tableGap} />
            <View style={[s.tableHead, s.half]}>
              <HeadCells s={s} narrow />
            </View>
          </View>
        )
        : (
          <View style={s.tableHead}>
            <HeadCells s={s} narrow={false} />
          </View>
        )}
      {rows.map(([first, second], i) => (
        <View key={i} style={s.pair} {...rowMark(i)}>
          <View style={[s.line, s.half]}>
            <LineCells s={s} d={d} line={first} narrow={narrow} />
          </View>
          {narrow && <View style={s.tableGap} />}
          {narrow && (
            <View style={[s.line, s.half]}>
              {second && <LineCells s={s} d={d} line={second} narrow />}
            </View>
          )}
        </View>
      ))}
    </View>
  );
}

/**
 * The totals' amount column, as wide as the page's longest amount needs in
 * the grand total's bold: a total can reach "$10,000,999,999.98". (0.72 em
 * is more than any of "$0123456789,.-+" takes in DejaVu Sans Bold.)
 */
function amountWidth(d: Density, amounts: string[]): number {
  const longest = Math.max(...amounts.map((a) => a.length));
  return Math.max(84, Math.ceil(longest * 0.72 * (d.base + 3)) + 4);
}

function Totals({ s, d, page }: { s: Styles; d: Density; page: ClientCopyPage }) {
  const { prices } = page;
  const amounts = [prices.subtotalCents, prices.shippingCents, prices.totalCents];
  if (prices.adjustment) amounts.push(prices.adjustment.cents);
  const value = [
    s.totalValue,
    { width: amountWidth(d, amounts.map((cents) => `+${formatMoney(cents)}`)) },
  ];
  const label = (text: string) => d.nameLimit === undefined ? text : shortenName(text, d.nameLimit);
  return (
    <View style={s.totals} wrap={false}>
      <View style={s.totalRow}>
        <Text style={s.totalLabel}>Subtotal</Text>
        <Text style={value}>{formatMoney(prices.subtotalCents)}</Text>
      </View>
      {prices.shippingCents > 0 && (
        <View style={s.totalRow}>
          <Text style={s.totalLabel}>Shipping</Text>
          <Text style={value}>{formatMoney(prices.shippingCents)}</Text>
        </View>
      )}
      {prices.adjustment && (
        <View style={s.totalRow}>
          <Text style={[s.totalLabel, s.discount]}>{label(prices.adjustment.label)}</Text>
          <Text style={[...value, s.discount]}>
            {prices.adjustment.cents > 0 ? "+" : ""}
            {formatMoney(prices.adjustment.cents)}
          </Text>
        </View>
      )}
      <View style={s.grandTotal}>
        <Text style={s.grandTotalLabel}>Total</Text>
        <Text style={value}>{formatMoney(prices.totalCents)}</Text>
      </View>
    </View>
  );
}

function Footer({ s, d, copy }: { s: Styles; d: Density; copy: ClientCopy }) {
  const { footer, header } = copy;
  const contact = [footer.storeAddress, footer.storePhone, footer.storeEmail, footer.storeWebsite]
    .filter((part) => part.trim());
  const message = d.capped ? clipText(footer.message, FOOTER_LIMIT) : footer.message;
  return (
    <View style={s.footer}>
      {message !== "" && <Text style={s.footerMessage}>{message}</Text>}
      <Text>
        <Text style={s.footerStore}>{header.storeName}</Text>
        {contact.length > 0 && `  ·  ${contact.join("  ·  ")}`}
      </Text>
    </View>
  );
}

/** How one sheet is laid out: its density, and on the last level how many lines it shows. */
interface SheetLayout {
  level: number;
  /** Lines shown, when not all fit (last level only). */
  cap?: number;
  /** Cut the body at a fixed height: only if the header and notes alone overflow. */
  hardClip?: boolean;
}

// ---- Measuring ----
// Every sheet is laid out unbreakable (wrap={false}): react-pdf then lays
// each page out once, where a breakable page is laid out again for every
// sheet it is split into. An unbreakable page takes its content's height,
// so the content sits in a box of the sheet's height, positioned absolutely
// in it so that nothing squeezes it: whether it fits is then read from the
// layout react-pdf hands to the document's onRender. The price table's rows
// carry a mark too, so the last level can count those that fit.

/** The mark on a sheet's content box: the height it may take. */
const SHEET_MARK = "data-pdf-room";
/** The mark on a price-table row's layout node: its index in the table. */
const ROW_MARK = "data-pdf-row";
const rowMark = (row: number) => ({ [ROW_MARK]: row });

interface LayoutNode {
  type?: string;
  props?: Record<string, unknown>;
  box?: { top: number; height: number };
  children?: LayoutNode[];
}

/** What the layout learns from a render about one sheet. */
interface SheetReport {
  /** The content is taller than the room the sheet has for it. */
  overflows: boolean;
  /** Leading price-table rows that end within that room. */
  rowsThatFit: number;
}

function measure(page: LayoutNode): SheetReport {
  let bottom = 0;
  let room = Infinity;
  const rowBottoms: number[] = [];
  const walk = (node: LayoutNode, top: number) => {
    const at = top + (node.box?.top ?? 0);
    const height = node.box?.height ?? 0;
    const sheet = node.props?.[SHEET_MARK];
    if (typeof sheet === "number") {
      room = at + sheet;
      bottom = at + height;
    }
    const row = node.props?.[ROW_MARK];
    if (typeof row === "number") rowBottoms[row] = at + height;
    for (const child of node.children ?? []) walk(child, at);
  };
  walk(page, 0);
  let rowsThatFit = 0;
  while (rowsThatFit < rowBottoms.length && rowBottoms[rowsThatFit] <= room + 0.01) {
    rowsThatFit++;
  }
  return { overflows: bottom > room + 0.01, rowsThatFit };
}

/** The sheets' reports from the layout react-pdf passes to onRender (an internal field). */
function reportsFrom(rendered: unknown, count: number): SheetReport[] {
  const layout = (rendered as { _INTERNAL__LAYOUT__DATA_?: LayoutNode } | undefined)
    ?._INTERNAL__LAYOUT__DATA_;
  const pages = layout?.children?.filter((node) => node.type === "PAGE") ?? [];
  if (pages.length !== count) {
    // A react-pdf that stops reporting its layout must fail loudly, not print overflowing pages.
    throw new Error(`react-pdf reported ${pages.length} laid-out pages for ${count} sheets`);
  }
  return pages.map(measure);
}

// ---- Sheets ----

/** One sheet: an option's page, or the page saying there are no options. */
function Sheet(
  { copy, logo, page, layout }: {
    copy: ClientCopy;
    logo?: PdfImage;
    page?: ClientCopyPage;
    layout: SheetLayout;
  },
) {
  const s = STYLES[layout.level];
  const d = DENSITIES[layout.level];
  const lines = page?.prices.lines ?? [];
  const shown = layout.cap === undefined ? lines : lines.slice(0, layout.cap);
  const shortened = d.nameLimit !== undefined &&
    (shown.some((line) => line.name.length > d.nameLimit!) ||
      (page?.prices.adjustment?.label.length ?? 0) > d.nameLimit);
  const note = page ? priceTableNote(lines.length - shown.length, shortened) : "";
  const body = (
    <>
      <Header s={s} copy={copy} logo={logo} page={page} />
      <ClientAndDetails s={s} copy={copy} page={page} />
      {page && page.notes !== "" && (
        <View style={s.section}>
          <Text style={s.sectionTitle}>OPTION NOTES</Text>
          <Text>{notesText(d, page.notes)}</Text>
        </View>
      )}
      {page && <PriceLines s={s} d={d} lines={shown} narrow={twoColumnsAt(d, lines)} />}
    </>
  );
  if (!d.capped) {
    return (
      <Page size="LETTER" orientation="portrait" style={s.page} wrap={false}>
        <View style={s.room}>
          <View style={[s.pinTop, s.sheet]} {...{ [SHEET_MARK]: CONTENT_HEIGHT }}>
            <View style={s.body}>
              {body}
              {note !== "" && <Text style={s.notice}>{note}</Text>}
              {page && <Totals s={s} d={d} page={page} />}
              {!page && <Text style={s.empty}>{copy.emptyText}</Text>}
            </View>
            <Footer s={s} d={d} copy={copy} />
          </View>
        </View>
      </Page>
    );
  }
  return (
    <Page size="LETTER" orientation="portrait" style={[s.page, s.cappedPage]} wrap={false}>
      <View style={layout.hardClip ? [s.cappedRoom, s.clip] : s.cappedRoom}>
        <View style={s.pinTop} {...{ [SHEET_MARK]: CONTENT_HEIGHT - BOTTOM_BOX }}>
          {body}
        </View>
      </View>
      <View style={s.bottomArea}>
        <View style={s.noteBox}>
          {note !== "" && <Text style={s.notice}>{note}</Text>}
        </View>
        <View style={s.totalsBox}>{page && <Totals s={s} d={d} page={page} />}</View>
        <View style={s.footerBox}>
          <Footer s={s} d={d} copy={copy} />
        </View>
      </View>
    </Page>
  );
}

function QuoteDocument(
  { copy, logo, layouts, onRender }: {
    copy: ClientCopy;
    logo?: PdfImage;
    layouts: SheetLayout[];
    onRender: (rendered: unknown) => void;
  },
) {
  const { header } = copy;
  return (
    <Document
      title={`Quote ${header.quoteNumber}`}
      author={header.storeName}
      subject={`Eyewear quote for ${header.clientName}`}
      creator={header.storeName}
      producer="Lensdesk"
      language="en-US"
      onRender={onRender}
    >
      {copy.pages.length === 0
        ? <Sheet copy={copy} logo={logo} layout={layouts[0]} />
        : copy.pages.map((page, i) => (
          <Sheet key={page.optionId} copy={copy} logo={logo} page={page} layout={layouts[i]} />
        ))}
    </Document>
  );
}

/**
 * Renders, then lays out again only the pages that overflowed: one level
 * denser (skipping levels that cannot fit), and on the last level with the
 * price lines that fit above its fixed area, which that level's render
 * measured.
 */
async function layOut(copy: ClientCopy, logo: PdfImage | undefined): Promise<Uint8Array> {
  const width = await widthLowerBound();
  const layouts: SheetLayout[] = copy.pages.length === 0
    ? [{ level: 0 }]
    : copy.pages.map((page) => ({ level: nextLevel(page, 0, width) }));
  for (;;) {
    let rendered: unknown;
    const pdf = await renderToBuffer(
      <QuoteDocument
        copy={copy}
        logo={logo}
        layouts={layouts}
        onRender={(props) => rendered = props}
      />,
    );
    const reports = reportsFrom(rendered, layouts.length);
    let again = false;
    layouts.forEach((layout, i) => {
      if (!reports[i].overflows) return;
      const page: ClientCopyPage | undefined = copy.pages[i];
      if (layout.level < LAST) {
        layout.level = page ? nextLevel(page, layout.level + 1, width) : layout.level + 1;
      } else if (page && layout.cap === undefined) {
        const perRow = twoColumnsAt(DENSITIES[LAST], page.prices.lines) ? 2 : 1;
        layout.cap = Math.min(page.prices.lines.length, reports[i].rowsThatFit * perRow);
      } else if (!layout.hardClip) {
        layout.hardClip = true;
      } else {
        return; // cut at a fixed height: cannot overflow
      }
      again = true;
    });
    if (!again) return new Uint8Array(pdf);
  }
}

/** Renders a client copy; without a logo the header prints the store name. */
export async function renderClientCopyPdf(model: ClientCopy, logo?: PdfImage): Promise<Uint8Array> {
  return await layOut(printable(model, await textSanitizer()), logo);
}
