// The lab work order as a PDF (the PDF call, and e-mailed to the lab through
// the outbox): the same sheets as the printed work order, every text whole,
// on Letter or A4, the job number as text and as a QR code, under the
// store's logo as the printed sheet has it. Each sheet is set in the largest
// of the printed page's type sizes (WORK_ORDER_DENSITIES) at which it fits
// one page, found as the quote PDF finds its level: rendered, measured, and
// rendered again denser where it overflowed. A sheet too long even in the
// smallest continues on the next page, its header (job number, QR code, and
// the band of a job not to make) repeated there. Runs inside the PDF renderer
// processes only (pdf_renderer.ts).
import type { ReactNode } from "react";
import { Document, Page, Path, renderToBuffer, Svg, Text, View } from "@react-pdf/renderer";
import {
  NO_NOTES,
  type Paper,
  WORK_ORDER_TITLES as T,
  type WorkOrderSheet,
} from "../orders/work_order.ts";
import { WORK_ORDER_DENSITIES, WORK_ORDER_LAST } from "../orders/work_order_density.ts";
import { FONT_FAMILY, printable, textSanitizer } from "./fonts.ts";
import type { PdfImage } from "./logo_image.ts";
import { FittedLogo } from "./pdf_parts.tsx";
import { LOGO_BOXES } from "../print/logo_box.ts";
import { reportsFrom, SHEET_MARK } from "./pdf_measure.ts";

const BORDER = "#c9cfd3";
const MUTED = "#4a555d";
const BRAND = "#1f4e5f";
const VOID = "#b42318";

const MARGIN = 36;
/** The page sizes in points; the content keeps 0.5in margins (the page number sits in the bottom one). */
const SIZES = { letter: { width: 612, height: 792 }, a4: { width: 595.28, height: 841.89 } };
const contentHeight = (paper: Paper) => SIZES[paper].height - 2 * MARGIN;

function stylesAt(level: number) {
  const { size, leading } = WORK_ORDER_DENSITIES[level];
  const gap = size * 0.9;
  return {
    page: {
      paddingTop: MARGIN,
      paddingBottom: MARGIN,
      paddingHorizontal: MARGIN,
      fontFamily: FONT_FAMILY,
      fontSize: size,
      lineHeight: leading,
      color: "#1d2428",
    },
    head: {
      flexDirection: "row" as const,
      alignItems: "center" as const,
      borderBottom: `1.5pt solid ${BRAND}`,
      paddingBottom: 6,
      marginBottom: gap,
    },
    title: { fontSize: 14, fontWeight: 700 as const, color: BRAND, lineHeight: 1.2 },
    job: { fontSize: 17, fontWeight: 700 as const, marginRight: 12, lineHeight: 1.2 },
    band: {
      borderWidth: 2.25,
      borderColor: VOID,
      borderStyle: "solid" as const,
      paddingVertical: 2,
      paddingHorizontal: 8,
      marginBottom: gap,
      textAlign: "center" as const,
      fontSize: 8.25,
      lineHeight: 1.3,
    },
    bandTitle: { fontSize: 12, fontWeight: 700 as const, color: VOID },
    watermark: {
      position: "absolute" as const,
      top: 300,
      left: 0,
      right: 0,
      textAlign: "center" as const,
      fontSize: 63,
      fontWeight: 700 as const,
      letterSpacing: 5,
      color: VOID,
      opacity: 0.16,
      transform: "rotate(-35deg)",
    },
    section: { marginBottom: gap },
    sectionTitle: {
      fontSize: size * 0.82,
      fontWeight: 700 as const,
      color: BRAND,
      borderBottom: `0.5pt solid ${BORDER}`,
      marginBottom: 3,
      paddingBottom: 1,
      letterSpacing: 0.6,
    },
    row: { flexDirection: "row" as const, marginBottom: 1 },
    label: { width: size * 8, color: MUTED },
    value: { flex: 1 },
    columns: { flexDirection: "row" as const, gap: 20 },
    column: { flex: 1 },
    cell: { flex: 1, paddingVertical: 1, borderBottom: `0.5pt solid ${BORDER}` },
    muted: { color: MUTED },
    strong: { color: MUTED, fontWeight: 700 as const },
    // In the bottom margin: placed from the content's bottom edge.
    footer: {
      position: "absolute" as const,
      bottom: -MARGIN / 2 - 4,
      left: 0,
      right: 0,
      textAlign: "center" as const,
      fontSize: 7,
      color: MUTED,
    },
  };
}
type Styles = ReturnType<typeof stylesAt>;
const STYLES = WORK_ORDER_DENSITIES.map((_, i) => stylesAt(i));

function Rows({ s, rows }: { s: Styles; rows: Array<[string, string]> }) {
  return (
    <>
      {rows.map(([label, value], i) => (
        <View key={i} style={s.row}>
          <Text style={s.label}>{label}</Text>
          <Text style={s.value}>{value}</Text>
        </View>
      ))}
    </>
  );
}

function Section({ s, title, children }: { s: Styles; title: string; children: ReactNode }) {
  return (
    <View style={s.section}>
      <Text style={s.sectionTitle} minPresenceAhead={24}>{title.toUpperCase()}</Text>
      {children}
    </View>
  );
}

/** The head of every page of a sheet: the job number, its QR code, and the band of a job not to make. */
function Head({ s, sheet, logo }: { s: Styles; sheet: WorkOrderSheet; logo?: PdfImage }) {
  return (
    <View fixed>
      <View style={s.head}>
        {/* The printed sheet's box; a logo the PDF cannot draw leaves the name below. */}
        {logo
          ? (
            <View style={{ marginRight: 10 }}>
              <FittedLogo logo={logo} box={LOGO_BOXES.sheet} />
            </View>
          )
          : null}
        <View style={{ flex: 1 }}>
          <Text style={s.title}>LAB WORK ORDER</Text>
          <Text style={s.muted}>{sheet.storeName} · {sheet.storePhone}</Text>
        </View>
        <View style={{ alignItems: "flex-end" as const }}>
          <Text style={s.job}>{sheet.jobNumber}</Text>
          {sheet.remake
            ? <Text style={{ color: VOID, marginRight: 12, fontWeight: 700 }}>{sheet.remake}</Text>
            : null}
        </View>
        <Svg width={58} height={58} viewBox={`-2 -2 ${sheet.qrSize + 4} ${sheet.qrSize + 4}`}>
          <Path d={sheet.qrPath} fill="#000" />
        </Svg>
      </View>
      {sheet.band
        ? (
          <View style={s.band}>
            <Text>
              <Text style={s.bandTitle}>{sheet.band.title}</Text> {sheet.band.detail}
            </Text>
          </View>
        )
        : null}
    </View>
  );
}

function Body({ s, sheet }: { s: Styles; sheet: WorkOrderSheet }) {
  return (
    <>
      <View style={s.columns}>
        <View style={s.column}>
          <Section s={s} title={T.job}>
            <Rows
              s={s}
              rows={[["Client", sheet.clientName], ["Ordered", sheet.orderedDate], [
                "Promised",
                sheet.promisedDate,
              ]]}
            />
          </Section>
        </View>
        <View style={s.column}>
          <Section s={s} title={T.lab}>
            <Rows
              s={s}
              rows={[["Lab", sheet.lab.name], ["Phone", sheet.lab.phone || "—"], [
                "Account",
                sheet.lab.accountNumber || "—",
              ]]}
            />
          </Section>
        </View>
      </View>
      <Section s={s} title={T.lenses}>
        <Rows s={s} rows={sheet.lens} />
      </Section>
      <Section s={s} title={T.rx}>
        {sheet.rx
          ? (
            <>
              <Text style={{ ...s.muted, marginBottom: 2 }}>
                Written {sheet.rx.written} by {sheet.rx.prescriber}
              </Text>
              <View style={s.row} wrap={false}>
                {["Eye", "Sphere", "Cylinder", "Axis", "Add", "Prism"].map((h) => (
                  <Text key={h} style={{ ...s.cell, ...s.muted }}>{h}</Text>
                ))}
              </View>
              {sheet.rx.eyes.map((e) => (
                <View key={e.eye} style={s.row} wrap={false}>
                  {[e.eye, e.sphere, e.cylinder, e.axis, e.add, e.prism].map((v, i) => (
                    <Text key={i} style={s.cell}>{v}</Text>
                  ))}
                </View>
              ))}
              {sheet.rx.notes
                ? (
                  <Text style={{ marginTop: 3 }}>
                    <Text style={s.strong}>Prescription notes:</Text> {sheet.rx.notes}
                  </Text>
                )
                : null}
            </>
          )
          : <Text>No prescription on file for this job.</Text>}
      </Section>
      <View style={s.columns}>
        <View style={s.column}>
          <Section s={s} title={T.frame}>
            <Rows s={s} rows={sheet.frame} />
          </Section>
        </View>
        <View style={s.column}>
          <Section s={s} title={T.measurements}>
            <Rows s={s} rows={sheet.pd} />
          </Section>
        </View>
      </View>
      <Section s={s} title={T.notes}>
        <Text>{sheet.notes || NO_NOTES}</Text>
      </Section>
      {sheet.orderNotes
        ? (
          <Section s={s} title={T.orderNotes}>
            <Text>{sheet.orderNotes}</Text>
          </Section>
        )
        : null}
    </>
  );
}

/** How one sheet is laid out: its type size, and whether it continues past its page. */
interface SheetLayout {
  level: number;
  flow: boolean;
}

function Sheet(
  { sheet, paper, logo, layout }: {
    sheet: WorkOrderSheet;
    paper: Paper;
    logo?: PdfImage;
    layout: SheetLayout;
  },
) {
  const s = STYLES[layout.level];
  const size = paper === "a4" ? "A4" : "LETTER";
  const footer = (
    <>
      {sheet.band ? <Text style={s.watermark} fixed>{sheet.band.watermark}</Text> : null}
      <Text
        style={s.footer}
        fixed
        render={({ pageNumber, totalPages }) => `Page ${pageNumber} of ${totalPages}`}
      />
    </>
  );
  if (layout.flow) {
    return (
      <Page size={size} style={s.page}>
        <Head s={s} sheet={sheet} logo={logo} />
        <Body s={s} sheet={sheet} />
        {footer}
      </Page>
    );
  }
  // One page: unbreakable, its content in a box of the page's height, pinned
  // to its top so nothing squeezes it; whether it fits is read from the layout.
  const room = contentHeight(paper);
  return (
    <Page size={size} style={s.page} wrap={false}>
      <View style={{ height: room }}>
        <View
          style={{ position: "absolute", top: 0, left: 0, right: 0 }}
          {...{ [SHEET_MARK]: room }}
        >
          <Head s={s} sheet={sheet} logo={logo} />
          <Body s={s} sheet={sheet} />
        </View>
      </View>
      {footer}
    </Page>
  );
}

function WorkOrderDocument(
  { sheets, paper, logo, layouts, onRender }: {
    sheets: WorkOrderSheet[];
    paper: Paper;
    logo?: PdfImage;
    layouts: SheetLayout[];
    onRender?: (rendered: unknown) => void;
  },
) {
  return (
    <Document
      title={`Work order ${sheets.map((s) => s.jobNumber).join(", ")}`}
      producer="Lensdesk"
      onRender={onRender}
    >
      {sheets.map((s, i) => (
        <Sheet key={s.jobNumber} sheet={s} paper={paper} logo={logo} layout={layouts[i]} />
      ))}
    </Document>
  );
}

/**
 * One page per sheet where its text fits in one of the type sizes, more for
 * a sheet that does not fit in the smallest; every string made printable in
 * the PDF's typeface first.
 */
export async function renderWorkOrderPdf(
  sheets: WorkOrderSheet[],
  paper: Paper,
  logo?: PdfImage,
): Promise<Uint8Array> {
  const clean = printable(sheets, await textSanitizer());
  const layouts: SheetLayout[] = clean.map(() => ({ level: 0, flow: false }));
  for (;;) {
    // Every sheet measured on one unbreakable page, at its level.
    let rendered: unknown;
    const measured = layouts.map((l) => ({ ...l, flow: false }));
    const pdf = await renderToBuffer(
      <WorkOrderDocument
        sheets={clean}
        paper={paper}
        logo={logo}
        layouts={measured}
        onRender={(props) => rendered = props}
      />,
    );
    const reports = reportsFrom(rendered, layouts.length);
    let denser = false;
    layouts.forEach((layout, i) => {
      if (!reports[i].overflows) return;
      // Denser, or at the smallest type, on as many pages as it takes.
      if (layout.level < WORK_ORDER_LAST) {
        layout.level++;
        denser = true;
      } else layout.flow = true;
    });
    if (denser) continue;
    if (!layouts.some((l) => l.flow)) return new Uint8Array(pdf);
    return new Uint8Array(
      await renderToBuffer(
        <WorkOrderDocument sheets={clean} paper={paper} logo={logo} layouts={layouts} />,
      ),
    );
  }
}
