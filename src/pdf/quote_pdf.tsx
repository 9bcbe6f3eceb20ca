// The client copy of a quote as a PDF, made with @react-pdf/renderer (no
// browser in the container). Everything it shows comes from clientCopy(), the
// same model as the printed client copy, so the two cannot disagree and no
// staff-only field can leak in through here. This module does the rendering
// itself and runs inside the PDF renderer processes (pdf_pool.ts); requests go through
// render_quote_pdf.ts, never here, so a long render cannot hold up the server.
import { Document, Image, Page, renderToBuffer, Text, View } from "@react-pdf/renderer";
import {
  type ClientCopy,
  type ClientCopyPage,
  priceTableNote,
  type SignatureBlock,
} from "../print/print_model.ts";
import { FONT_FAMILY, printable, textSanitizer, widthLowerBound } from "./fonts.ts";
import type { PdfImage } from "./logo_image.ts";
import {
  BOTTOM_BOX,
  CONTENT_HEIGHT,
  DENSITIES,
  LAST,
  nextLevel,
  notesText,
  STYLES,
  twoColumnsAt,
} from "./pdf_layout.ts";
import { ClientAndDetails, Footer, Header, PriceLines, Totals } from "./pdf_parts.tsx";
import { reportsFrom, SHEET_MARK } from "./pdf_measure.ts";
import { reusePdfkitWork } from "./pdfkit_reuse.ts";

reusePdfkitWork();

// ---- Text ----

/** How one sheet is laid out: its density, and on the last level how many lines it shows. */
interface SheetLayout {
  level: number;
  /** Lines shown, when not all fit (last level only). */
  cap?: number;
  /** Cut the body at a fixed height: only if the header and notes alone overflow. */
  hardClip?: boolean;
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
      <Header s={s} d={d} copy={copy} logo={logo} page={page} />
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

/**
 * The signed copy's last page: who accepted, when (the store's
 * time), "Accepted online", which options (named as the client saw them)
 * and what they come to, the terms the client ticked, and the signature as
 * drawn (or the typed name). One page for any ordinary acceptance; a page
 * long enough to need more (twenty options and the longest terms) goes on.
 */
function SignaturePage(
  { copy, signature }: { copy: ClientCopy; signature: SignatureBlock },
) {
  const { header } = copy;
  const muted = { color: "#5b6770" };
  const rule = { borderBottomWidth: 0.5, borderBottomColor: "#c9d1d6" };
  return (
    <Page
      size="LETTER"
      orientation="portrait"
      style={{ padding: 54, fontFamily: FONT_FAMILY, fontSize: 11, lineHeight: 1.4 }}
    >
      <Text style={{ fontSize: 16, fontWeight: "bold", marginBottom: 4 }}>
        {header.storeName}
      </Text>
      <Text style={{ fontSize: 20, fontWeight: "bold", marginBottom: 12 }}>
        Signed Acceptance
      </Text>
      <Text>{`Quote ${header.quoteNumber} for ${header.clientName}`}</Text>
      {copy.validity !== "" && <Text style={muted}>{copy.validity}</Text>}
      <Text style={{ marginTop: 12, fontWeight: "bold" }}>Options accepted</Text>
      {signature.options.map((o, i) => (
        <View key={i} style={{ flexDirection: "row", paddingVertical: 2, ...rule }} wrap={false}>
          <Text style={{ flex: 1, paddingRight: 12 }}>{o.name}</Text>
          <Text>{o.total}</Text>
        </View>
      ))}
      <View style={{ flexDirection: "row", marginTop: 4 }} wrap={false}>
        <Text style={{ flex: 1, fontWeight: "bold", fontSize: 12 }}>Total accepted</Text>
        <Text style={{ fontWeight: "bold", fontSize: 12 }}>{signature.total}</Text>
      </View>
      <Text style={{ marginTop: 12, fontWeight: "bold" }}>Terms accepted</Text>
      <Text style={{ fontSize: 9.5, lineHeight: 1.35 }}>{signature.terms}</Text>
      <View
        style={{ marginTop: 16, padding: 14, borderWidth: 1, borderColor: "#c9d1d6" }}
        wrap={false}
      >
        <Text style={{ fontSize: 14, fontWeight: "bold" }}>{signature.statement}</Text>
        <Text>{`Signed by: ${signature.signerName}`}</Text>
        <Text>{`Date: ${signature.signedAt}`}</Text>
        <View style={{ marginTop: 8, marginBottom: 6, height: 110, justifyContent: "center" }}>
          {signature.imageDataUrl
            ? (
              <Image
                src={signature.imageDataUrl}
                style={{ width: 320, height: 100, objectFit: "contain", objectPositionX: 0 }}
              />
            )
            : (
              <Text style={{ fontSize: 22, fontStyle: "italic" }}>
                {signature.signerName}
              </Text>
            )}
        </View>
        <Text style={muted}>
          {signature.imageDataUrl
            ? "Signature drawn by the client on the store's online quote page."
            : "Signed with the client's typed name on the store's online quote page."}
        </Text>
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
      {copy.signature && <SignaturePage copy={copy} signature={copy.signature} />}
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
    // The signature page (a signed copy) is laid out once, after the sheets (and
    // may go on to a page of its own when it holds very much).
    const reports = reportsFrom(rendered, layouts.length + (copy.signature ? 1 : 0), {
      more: !!copy.signature,
    }).slice(0, layouts.length);
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
  const clean = printable(model, await textSanitizer());
  // The signature image is bytes written as text: never passed through the text cleaner.
  if (model.signature && clean.signature) {
    clean.signature.imageDataUrl = model.signature.imageDataUrl;
  }
  return await layOut(clean, logo);
}
