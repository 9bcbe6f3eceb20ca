// The lab work order as a PDF (e-mailed to the lab through the outbox): the
// same sheets as the printed work order (src/orders/work_order.ts cuts every
// text), one page per job on Letter or A4, the job number as text and as a
// QR code, under the store's logo as the printed sheet has it. Runs inside the
// PDF renderer processes only (pdf_renderer.ts).
import type { ReactNode } from "react";
import { Document, Page, Path, renderToBuffer, Svg, Text, View } from "@react-pdf/renderer";
import type { Paper, WorkOrderSheet } from "../orders/work_order.ts";
import { FONT_FAMILY, textSanitizer } from "./fonts.ts";
import type { PdfImage } from "./logo_image.ts";
import { FittedLogo } from "./pdf_parts.tsx";
import { LOGO_BOXES } from "../print/logo_box.ts";

const BORDER = "#c9cfd3";
const MUTED = "#4a555d";

const styles = {
  page: { padding: 36, fontFamily: FONT_FAMILY, fontSize: 9, color: "#1d2428" },
  head: {
    flexDirection: "row" as const,
    alignItems: "center" as const,
    borderBottom: "1.5pt solid #1f4e5f",
    paddingBottom: 8,
    marginBottom: 10,
  },
  title: { fontSize: 14, fontWeight: 700 as const, color: "#1f4e5f" },
  job: { fontSize: 18, fontWeight: 700 as const, marginRight: 12 },
  section: { marginBottom: 8 },
  sectionTitle: {
    fontSize: 8,
    fontWeight: 700 as const,
    color: "#1f4e5f",
    borderBottom: `0.5pt solid ${BORDER}`,
    marginBottom: 3,
    paddingBottom: 1,
  },
  row: { flexDirection: "row" as const, marginBottom: 1.5 },
  label: { width: 90, color: MUTED },
  value: { flex: 1 },
  columns: { flexDirection: "row" as const, gap: 16 },
  column: { flex: 1 },
  cell: { flex: 1, paddingVertical: 1.5, borderBottom: `0.5pt solid ${BORDER}` },
};

function Rows({ rows }: { rows: Array<[string, string]> }) {
  return (
    <>
      {rows.map(([label, value], i) => (
        <View key={i} style={styles.row}>
          <Text style={styles.label}>{label}</Text>
          <Text style={styles.value}>{value}</Text>
        </View>
      ))}
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <View style={styles.section}>
      <Text style={styles.sectionTitle}>{title.toUpperCase()}</Text>
      {children}
    </View>
  );
}

function Sheet({ s, size, logo }: { s: WorkOrderSheet; size: "A4" | "LETTER"; logo?: PdfImage }) {
  return (
    // One page: the model's cut texts fit (work_order_print_test renders the
    // longest data on both papers and counts the pages).
    <Page size={size} style={styles.page}>
      <View style={styles.head}>
        {/* The printed sheet's box; a logo the PDF cannot draw leaves the name below. */}
        {logo
          ? (
            <View style={{ marginRight: 10 }}>
              <FittedLogo logo={logo} box={LOGO_BOXES.sheet} />
            </View>
          )
          : null}
        <View style={{ flex: 1 }}>
          <Text style={styles.title}>LAB WORK ORDER</Text>
          <Text style={{ color: MUTED }}>{s.storeName} · {s.storePhone}</Text>
        </View>
        <View style={{ alignItems: "flex-end" as const }}>
          <Text style={styles.job}>{s.jobNumber}</Text>
          {s.remake ? <Text style={{ color: "#b42318", marginRight: 12 }}>{s.remake}</Text> : null}
        </View>
        <Svg width={64} height={64} viewBox={`-2 -2 ${s.qrSize + 4} ${s.qrSize + 4}`}>
          <Path d={s.qrPath} fill="#000" />
        </Svg>
      </View>
      <View style={styles.columns}>
        <View style={styles.column}>
          <Section title="Job">
            <Rows
              rows={[["Client", s.clientName], ["Ordered", s.orderedDate], [
                "Promised",
                s.promisedDate,
              ]]}
            />
          </Section>
        </View>
        <View style={styles.column}>
          <Section title="Lab">
            <Rows
              rows={[["Lab", s.lab.name], ["Phone", s.lab.phone || "—"], [
                "Account",
                s.lab.accountNumber || "—",
              ]]}
            />
          </Section>
        </View>
      </View>
      <Section title="Lenses">
        <Rows rows={s.lens} />
      </Section>
      <Section title="Prescription">
        {s.rx
          ? (
            <>
              <Text style={{ color: MUTED, marginBottom: 2 }}>
                Written {s.rx.written} by {s.rx.prescriber}
              </Text>
              <View style={styles.row}>
                {["Eye", "Sphere", "Cylinder", "Axis", "Add", "Prism"].map((h) => (
                  <Text key={h} style={{ ...styles.cell, color: MUTED }}>{h}</Text>
                ))}
              </View>
              {s.rx.eyes.map((e) => (
                <View key={e.eye} style={styles.row}>
                  {[e.eye, e.sphere, e.cylinder, e.axis, e.add, e.prism].map((v, i) => (
                    <Text key={i} style={styles.cell}>{v}</Text>
                  ))}
                </View>
              ))}
            </>
          )
          : <Text>No prescription on file for this job.</Text>}
      </Section>
      <View style={styles.columns}>
        <View style={styles.column}>
          <Section title="Frame">
            <Rows rows={s.frame} />
          </Section>
        </View>
        <View style={styles.column}>
          <Section title="Measurements">
            <Rows rows={s.pd} />
          </Section>
        </View>
      </View>
      <Section title="Job notes">
        <Text>{s.notes || "—"}</Text>
      </Section>
    </Page>
  );
}

/** One page per sheet; every string made printable in the PDF's typeface first. */
export async function renderWorkOrderPdf(
  sheets: WorkOrderSheet[],
  paper: Paper,
  logo?: PdfImage,
): Promise<Uint8Array> {
  const clean = await textSanitizer();
  const printable = sheets.map((s) => ({
    ...s,
    storeName: clean(s.storeName),
    storePhone: clean(s.storePhone),
    clientName: clean(s.clientName),
    lab: {
      name: clean(s.lab.name),
      phone: clean(s.lab.phone),
      accountNumber: clean(s.lab.accountNumber),
    },
    frame: s.frame.map(([k, v]) => [clean(k), clean(v)] as [string, string]),
    lens: s.lens.map(([k, v]) => [clean(k), clean(v)] as [string, string]),
    pd: s.pd.map(([k, v]) => [clean(k), clean(v)] as [string, string]),
    rx: s.rx ? { ...s.rx, prescriber: clean(s.rx.prescriber) } : null,
    notes: clean(s.notes),
  }));
  const size = paper === "a4" ? "A4" : "LETTER";
  const buffer = await renderToBuffer(
    <Document title={`Work order ${sheets.map((s) => s.jobNumber).join(", ")}`}>
      {printable.map((s) => <Sheet key={s.jobNumber} s={s} size={size} logo={logo} />)}
    </Document>,
  );
  return new Uint8Array(buffer);
}
