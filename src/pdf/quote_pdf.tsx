// The client copy of a quote as a PDF, made in process with @react-pdf/renderer
// (no browser in the container). Everything it shows comes from clientCopy(),
// the same model as the printed client copy, so the two cannot disagree and no
// staff-only field can leak in through here.
import { Buffer } from "node:buffer";
import { resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { ReactNode } from "react";
import { Document, Image, Page, renderToBuffer, StyleSheet, Text, View } from "@react-pdf/renderer";
import { PDFDocument } from "pdf-lib";
import type { QuoteBundle } from "../quotes/views.ts";
import type { Branding } from "../settings/settings.ts";
import { type ClientCopy, clientCopy, type ClientCopyPage } from "../print/print_model.ts";
import { formatMoney } from "../quotes/money.ts";
import type { PriceLine } from "../quotes/price_breakdown.ts";
import { shortId } from "../clients/views.ts";

/** `Quote-Q-001234.pdf`: what the browser saves and the e-mail attaches. */
export function quotePdfFilename(bundle: QuoteBundle): string {
  const number = bundle.quote.quoteNumber || shortId(bundle.quote.id);
  // The name goes into a Content-Disposition header and a mail attachment.
  return `Quote-${number.replace(/[^A-Za-z0-9._-]+/g, "_")}.pdf`;
}

// ---- Text ----

// The built-in Helvetica only has the WinAnsi (Windows-1252) characters, and
// pdfkit writes anything else as bytes that show as junk ("Nguyễn" would print
// as "NguyÅn"). Letters with marks Helvetica lacks lose the marks instead, and
// what has no such fallback (CJK, emoji) becomes "?": visibly missing, never
// garbled.
const WIN_ANSI_EXTRAS = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
const inWinAnsi = (ch: string) => {
  const code = ch.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || ch === "\n" ||
    WIN_ANSI_EXTRAS.has(ch);
};

export function toWinAnsi(text: string): string {
  let out = "";
  for (const ch of text.normalize("NFC").replace(/\r\n?/g, "\n")) {
    if (inWinAnsi(ch)) out += ch;
    else if (/\s/u.test(ch)) out += " ";
    else if (/\p{C}/u.test(ch)) continue;
    else {
      const bare = ch.normalize("NFD").replace(/\p{M}/gu, "");
      out += bare !== "" && [...bare].every(inWinAnsi) ? bare : "?";
    }
  }
  return out;
}

/** The model with every string made printable; numbers (cents) are untouched. */
function printable<T>(value: T): T {
  if (typeof value === "string") return toWinAnsi(value) as T;
  if (Array.isArray(value)) return value.map(printable) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, printable(v)])) as T;
  }
  return value;
}

// ---- Logo ----

const STATIC_DIR = fileURLToPath(new URL("../../static/", import.meta.url));
const MAX_LOGO_BYTES = 5 * 1024 * 1024;

export interface Logo {
  data: Buffer;
  format: "png" | "jpg";
}

function imageFormat(bytes: Uint8Array): Logo["format"] | undefined {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.every((b, i) => bytes[i] === b)) return "png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpg";
  return undefined;
}

/**
 * Whether the image decodes. react-pdf only logs a damaged image (once per
 * page and layout pass) and leaves a blank hole where the logo goes; pdf-lib
 * decodes the whole PNG (and reads a JPEG's frame header) and throws instead.
 */
async function decodes(logo: Logo): Promise<boolean> {
  try {
    const doc = await PDFDocument.create();
    await (logo.format === "png" ? doc.embedPng(logo.data) : doc.embedJpg(logo.data));
    return true;
  } catch {
    return false;
  }
}

/** The last logo read, by file and version: every quote PDF uses the same one. */
let logoCache: { key: string; logo: Logo | undefined } | undefined;

/**
 * The logo bytes when they can be embedded: react-pdf draws PNG and JPEG only,
 * and the renderer must never reach out to the network, so only files under
 * our own static/ folder qualify. SVG, uploads and anything unreadable give
 * undefined and the header prints the store name instead.
 */
export async function loadLogo(
  logoUrl: string,
  staticDir = STATIC_DIR,
): Promise<Logo | undefined> {
  if (!logoUrl.startsWith("/static/")) return undefined;
  const root = resolve(staticDir);
  let path: string;
  try {
    // The URL parser folds "..", "%2e%2e" and friends before we look at the path.
    const { pathname } = new URL(logoUrl, "http://logo.invalid");
    if (!pathname.startsWith("/static/")) return undefined;
    path = resolve(root, decodeURIComponent(pathname.slice("/static/".length)));
  } catch {
    return undefined;
  }
  if (!path.startsWith(root + sep)) return undefined;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || info.size > MAX_LOGO_BYTES) return undefined;
    const key = `${path}\n${info.size}\n${info.mtime?.getTime()}`;
    if (logoCache?.key === key) return logoCache.logo;
    const bytes = await Deno.readFile(path);
    const format = imageFormat(bytes);
    let logo: Logo | undefined = format ? { data: Buffer.from(bytes), format } : undefined;
    if (logo && !await decodes(logo)) logo = undefined;
    logoCache = { key, logo };
    return logo;
  } catch {
    return undefined;
  }
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
const BOLD = "Helvetica-Bold";
/** LETTER is 612×792pt; the page keeps 36pt (0.5in) margins. */
const MARGIN = 36;
const CONTENT_HEIGHT = 792 - 2 * MARGIN;

/**
 * Each option must stay on exactly one page: the page numbers come from the
 * model, and a spilled page would repeat "Page X of N". A page that does not
 * fit is laid out again one level denser. The last two levels shorten very
 * long notes and item names and list many lines in two columns; the very last
 * one also cuts the body off at fixed boxes, keeping the totals and footer,
 * and says so on the page. Only absurd quotes (dozens of lines with long
 * names) ever get there: the schema allows 50 lines of 200 characters.
 */
interface Density {
  base: number;
  leading: number;
  gap: number;
  row: number;
  noteLimit?: number;
  nameLimit?: number;
  twoColumns?: boolean;
  clip?: boolean;
}
const TIGHTEST: Density = {
  base: 6.5,
  leading: 1.15,
  gap: 5,
  row: 1,
  noteLimit: 400,
  nameLimit: 80,
  twoColumns: true,
};
const DENSITIES: Density[] = [
  { base: 10, leading: 1.3, gap: 14, row: 4.5 },
  { base: 9, leading: 1.3, gap: 11, row: 3 },
  { base: 8, leading: 1.25, gap: 8, row: 2 },
  { base: 7, leading: 1.2, gap: 6, row: 1.5, noteLimit: 1200, twoColumns: true },
  TIGHTEST,
  { ...TIGHTEST, clip: true },
];
const LAST = DENSITIES.length - 1;
/** Lines beyond this go into two columns, where the level allows it. */
const ONE_COLUMN_MAX = 16;
/** The fixed boxes of the clipping level, adding up to the content height. */
const FOOTER_BOX = 56;
const TOTALS_BOX = 96;
const BODY_BOX = CONTENT_HEIGHT - FOOTER_BOX - TOTALS_BOX;

function stylesFor(d: Density) {
  const small = d.base - 1.5;
  return StyleSheet.create({
    page: {
      padding: MARGIN,
      fontFamily: "Helvetica",
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
    storeNameUnderLogo: { fontFamily: BOLD, fontSize: d.base + 2, marginTop: 4 },
    storeName: { fontFamily: BOLD, fontSize: d.base + 10, color: COLOR.brand, lineHeight: 1.1 },
    titleBlock: { alignItems: "flex-end" },
    title: {
      fontFamily: BOLD,
      fontSize: d.base + 6,
      color: COLOR.brand,
      letterSpacing: 1.5,
      lineHeight: 1.2,
      marginBottom: 4,
    },
    meta: { flexDirection: "row", justifyContent: "flex-end", fontSize: small + 0.5 },
    metaLabel: { color: COLOR.muted, marginRight: 4 },
    metaValue: { fontFamily: BOLD },
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
    bannerName: { fontFamily: BOLD, fontSize: d.base + 5, lineHeight: 1.2 },
    columns: { flexDirection: "row", marginBottom: d.gap },
    column: { flex: 1 },
    columnGap: { width: 24 },
    sectionTitle: {
      fontFamily: BOLD,
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
    tables: { flexDirection: "row" },
    // Side by side only: in a column, flex: 1 would collapse a table to nothing.
    halfTable: { flex: 1 },
    tableGap: { width: 16 },
    tableHead: {
      flexDirection: "row",
      backgroundColor: COLOR.brand,
      fontFamily: BOLD,
      fontSize: small,
      letterSpacing: 0.8,
      paddingVertical: 4,
      paddingHorizontal: 8,
    },
    headText: { color: "#ffffff" },
    line: {
      flexDirection: "row",
      paddingVertical: d.row,
      paddingHorizontal: 8,
      borderBottomWidth: 0.5,
      borderBottomColor: COLOR.rule,
    },
    kindCol: { width: 96, color: COLOR.muted },
    kindColNarrow: { width: 62, color: COLOR.muted },
    nameCol: { flex: 1, paddingRight: 10 },
    qty: { color: COLOR.muted },
    priceCol: { width: 84, textAlign: "right" },
    priceColNarrow: { width: 50, textAlign: "right" },
    totals: { alignSelf: "flex-end", width: 250, marginTop: 6 },
    totalRow: { flexDirection: "row", paddingVertical: 2, paddingHorizontal: 8 },
    totalLabel: { flex: 1, color: COLOR.muted },
    totalValue: { width: 84, textAlign: "right" },
    discount: { color: COLOR.discount },
    grandTotal: {
      flexDirection: "row",
      marginTop: 4,
      paddingVertical: 6,
      paddingHorizontal: 8,
      backgroundColor: COLOR.panel,
      borderTopWidth: 1.5,
      borderTopColor: COLOR.brand,
      fontFamily: BOLD,
      fontSize: d.base + 3,
    },
    grandTotalLabel: { flex: 1 },
    notice: { color: COLOR.muted, fontFamily: "Helvetica-Oblique", textAlign: "right" },
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
      fontFamily: "Helvetica-Oblique",
      color: COLOR.text,
      fontSize: small + 0.5,
      marginBottom: 4,
    },
    footerStore: { fontFamily: BOLD, color: COLOR.text },
    // react-pdf lays a breakable page out at unbounded height, so flex cannot
    // hold content to the page; fixed boxes that add up to it can. What they
    // hold is positioned absolutely so that content too tall is cut off at
    // the edge: as flex children it would be squashed into overlapping lines.
    pinTop: { position: "absolute", top: 0, left: 0, right: 0 },
    pinBottom: { position: "absolute", bottom: 0, left: 0, right: 0 },
    probe: { position: "absolute", top: 0, left: 0 },
  });
}
type Styles = ReturnType<typeof stylesFor>;
const STYLES = DENSITIES.map(stylesFor);

/** A fixed, clipping box on the last level; a plain View otherwise. */
function Box(
  { s, d, height, pin, style, children }: {
    s: Styles;
    d: Density;
    height: number;
    pin: "top" | "bottom";
    style?: Styles[keyof Styles];
    children: ReactNode;
  },
) {
  if (!d.clip) return <View style={style}>{children}</View>;
  return (
    <View style={{ height, overflow: "hidden" }}>
      <View style={[style ?? {}, pin === "top" ? s.pinTop : s.pinBottom]}>{children}</View>
    </View>
  );
}

function Field({ s, label, children }: { s: Styles; label: string; children: ReactNode }) {
  return (
    <View style={s.field} wrap={false}>
      <Text style={s.fieldLabel}>{label}</Text>
      <View style={s.fieldValue}>{children}</View>
    </View>
  );
}

function Header(
  { s, copy, logo, page }: { s: Styles; copy: ClientCopy; logo?: Logo; page?: ClientCopyPage },
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
      </View>
    </View>
  );
}

function shorten(text: string, limit?: number) {
  if (limit === undefined || text.length <= limit) return text;
  return text.slice(0, limit).replace(/\s+\S*$/, "") + "…";
}

function LineTable(
  { s, d, lines, narrow }: { s: Styles; d: Density; lines: PriceLine[]; narrow: boolean },
) {
  const kind = narrow ? s.kindColNarrow : s.kindCol;
  const price = narrow ? s.priceColNarrow : s.priceCol;
  return (
    <View style={narrow ? s.halfTable : undefined}>
      <View style={s.tableHead}>
        <Text style={[kind, s.headText]}>ITEM</Text>
        <Text style={[s.nameCol, s.headText]}>DESCRIPTION</Text>
        <Text style={[price, s.headText]}>PRICE</Text>
      </View>
      {lines.map((line, i) => (
        <View key={i} style={s.line} wrap={false}>
          <Text style={kind}>{line.kindLabel}</Text>
          <Text style={s.nameCol}>
            {shorten(line.name, d.nameLimit)}
            {line.qty > 1 && <Text style={s.qty}>{` × ${line.qty}`}</Text>}
          </Text>
          <Text style={price}>{formatMoney(line.cents)}</Text>
        </View>
      ))}
    </View>
  );
}

function PriceLines({ s, d, page }: { s: Styles; d: Density; page: ClientCopyPage }) {
  const { lines } = page.prices;
  const split = d.twoColumns && lines.length > ONE_COLUMN_MAX;
  const half = Math.ceil(lines.length / 2);
  return (
    <View>
      <Text style={s.sectionTitle}>PRICE BREAKDOWN</Text>
      {split
        ? (
          <View style={s.tables}>
            <LineTable s={s} d={d} lines={lines.slice(0, half)} narrow />
            <View style={s.tableGap} />
            <LineTable s={s} d={d} lines={lines.slice(half)} narrow />
          </View>
        )
        : <LineTable s={s} d={d} lines={lines} narrow={false} />}
    </View>
  );
}

function Totals({ s, d, page }: { s: Styles; d: Density; page: ClientCopyPage }) {
  const { prices } = page;
  return (
    <View style={s.totals} wrap={false}>
      {d.clip && (
        <Text style={s.notice}>
          Not every item fits on this page; the total includes them all.
        </Text>
      )}
      <View style={s.totalRow}>
        <Text style={s.totalLabel}>Subtotal</Text>
        <Text style={s.totalValue}>{formatMoney(prices.subtotalCents)}</Text>
      </View>
      {prices.shippingCents > 0 && (
        <View style={s.totalRow}>
          <Text style={s.totalLabel}>Shipping</Text>
          <Text style={s.totalValue}>{formatMoney(prices.shippingCents)}</Text>
        </View>
      )}
      {prices.adjustment && (
        <View style={s.totalRow}>
          <Text style={[s.totalLabel, s.discount]}>{prices.adjustment.label}</Text>
          <Text style={[s.totalValue, s.discount]}>
            {prices.adjustment.cents > 0 ? "+" : ""}
            {formatMoney(prices.adjustment.cents)}
          </Text>
        </View>
      )}
      <View style={s.grandTotal}>
        <Text style={s.grandTotalLabel}>Total</Text>
        <Text style={s.totalValue}>{formatMoney(prices.totalCents)}</Text>
      </View>
    </View>
  );
}

function Footer({ s, d, copy }: { s: Styles; d: Density; copy: ClientCopy }) {
  const { footer, header } = copy;
  const contact = [footer.storeAddress, footer.storePhone, footer.storeEmail, footer.storeWebsite]
    .filter((part) => part.trim());
  return (
    <Box s={s} d={d} height={FOOTER_BOX} pin="bottom" style={s.footer}>
      {footer.message !== "" && <Text style={s.footerMessage}>{footer.message}</Text>}
      <Text>
        <Text style={s.footerStore}>{header.storeName}</Text>
        {contact.length > 0 && `  ·  ${contact.join("  ·  ")}`}
      </Text>
    </Box>
  );
}

/** One sheet: an option's page, or the page saying there are no options. */
function Sheet(
  { copy, logo, page, level, onLaidOut }: {
    copy: ClientCopy;
    logo?: Logo;
    page?: ClientCopyPage;
    level: number;
    onLaidOut: (sheets: number) => void;
  },
) {
  const s = STYLES[level];
  const d = DENSITIES[level];
  return (
    <Page size="LETTER" orientation="portrait" style={s.page}>
      <Box s={s} d={d} height={d.clip ? BODY_BOX : 0} pin="top" style={s.body}>
        <Header s={s} copy={copy} logo={logo} page={page} />
        <ClientAndDetails s={s} copy={copy} page={page} />
        {page && page.notes !== "" && (
          <View style={s.section}>
            <Text style={s.sectionTitle}>OPTION NOTES</Text>
            <Text>{shorten(page.notes, d.noteLimit)}</Text>
          </View>
        )}
        {page && <PriceLines s={s} d={d} page={page} />}
        {page && !d.clip && <Totals s={s} d={d} page={page} />}
        {!page && <Text style={s.empty}>{copy.emptyText}</Text>}
      </Box>
      {page && d.clip && (
        <Box s={s} d={d} height={TOTALS_BOX} pin="bottom">
          <Totals s={s} d={d} page={page} />
        </Box>
      )}
      <Footer s={s} d={d} copy={copy} />
      <Text
        style={s.probe}
        // react-pdf tells render props how many sheets this <Page> took once
        // pagination is done: the one place where it says a page overflowed.
        render={({ subPageTotalPages }) => {
          onLaidOut(subPageTotalPages ?? 1);
          return "";
        }}
      />
    </Page>
  );
}

function QuoteDocument(
  { copy, logo, levels, onLaidOut }: {
    copy: ClientCopy;
    logo?: Logo;
    levels: number[];
    onLaidOut: (index: number, sheets: number) => void;
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
    >
      {copy.pages.length === 0
        ? (
          <Sheet
            copy={copy}
            logo={logo}
            level={levels[0]}
            onLaidOut={(n) => onLaidOut(0, n)}
          />
        )
        : copy.pages.map((page, i) => (
          <Sheet
            key={page.optionId}
            copy={copy}
            logo={logo}
            page={page}
            level={levels[i]}
            onLaidOut={(n) => onLaidOut(i, n)}
          />
        ))}
    </Document>
  );
}

/** Renders, then lays out again denser only the pages that overflowed, until all fit. */
async function layOut(copy: ClientCopy, logo: Logo | undefined): Promise<Uint8Array> {
  const levels = new Array<number>(Math.max(1, copy.pages.length)).fill(0);
  for (;;) {
    const sheets = new Array<number>(levels.length).fill(1);
    const pdf = await renderToBuffer(
      <QuoteDocument
        copy={copy}
        logo={logo}
        levels={levels}
        onLaidOut={(i, n) => sheets[i] = n}
      />,
    );
    // The last level's fixed boxes always fit, so the loop ends there.
    const overflowing = levels.flatMap((level, i) => sheets[i] > 1 && level < LAST ? [i] : []);
    if (overflowing.length === 0) return new Uint8Array(pdf);
    for (const i of overflowing) levels[i] += 1;
  }
}

/** Renders a client copy; without a logo the header prints the store name. */
export async function renderClientCopyPdf(model: ClientCopy, logo?: Logo): Promise<Uint8Array> {
  return await layOut(printable(model), logo);
}

/** The client copy of a quote as PDF bytes: one LETTER page per option. */
export async function renderQuotePdf(bundle: QuoteBundle, branding: Branding): Promise<Uint8Array> {
  const model = clientCopy(bundle, branding);
  return await renderClientCopyPdf(model, await loadLogo(model.header.logoUrl));
}
