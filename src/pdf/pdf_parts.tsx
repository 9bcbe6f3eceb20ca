// The parts of a PDF sheet: header, client and details, the price table,
// totals and footer, each drawn at a density's styles (pdf_layout.ts).
import type { ReactNode } from "react";
import { Image, Text, View } from "@react-pdf/renderer";
import {
  type ClientCopy,
  type ClientCopyPage,
  clipText,
  shortenName,
} from "../print/print_model.ts";
import { formatMoney } from "../money/amounts.ts";
import type { PriceLine } from "../quotes/price_breakdown.ts";
import type { PdfImage } from "./logo_image.ts";
import { fitLogo, LOGO_BOXES, type LogoBox, PT_PER_PX } from "../print/logo_box.ts";
import { rowMark } from "./pdf_measure.ts";
import { type Density, FOOTER_LIMIT, lineText, qtyText, type Styles } from "./pdf_layout.ts";

function Field({ s, label, children }: { s: Styles; label: string; children: ReactNode }) {
  return (
    <View style={s.field} wrap={false}>
      <Text style={s.fieldLabel}>{label}</Text>
      <View style={s.fieldValue}>{children}</View>
    </View>
  );
}

/**
 * The logo at its own aspect ratio in the client copy's box, the printed
 * page's in points: the dense box from the levels whose type is as small as
 * the printed page's densest, like print.css.
 */
function Logo({ d, logo }: { d: Density; logo: PdfImage }) {
  return <FittedLogo logo={logo} box={d.base < 9 ? LOGO_BOXES.sheetDense : LOGO_BOXES.sheet} />;
}

/** A logo drawn in `box` (CSS px) at its own aspect ratio, in points: the work order's too. */
export function FittedLogo({ logo, box }: { logo: PdfImage; box: LogoBox }) {
  const { width, height } = fitLogo(logo, box);
  return (
    <Image
      style={{ width: width * PT_PER_PX, height: height * PT_PER_PX }}
      src={{ data: logo.data, format: logo.format }}
    />
  );
}

export function Header(
  { s, d, copy, logo, page }: {
    s: Styles;
    d: Density;
    copy: ClientCopy;
    logo?: PdfImage;
    page?: ClientCopyPage;
  },
) {
  const { header } = copy;
  return (
    <View>
      <View style={s.header}>
        <View style={s.brand}>
          {logo
            ? (
              <>
                <Logo d={d} logo={logo} />
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

export function ClientAndDetails(
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

export function PriceLines(
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

export function Totals({ s, d, page }: { s: Styles; d: Density; page: ClientCopyPage }) {
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

export function Footer({ s, d, copy }: { s: Styles; d: Density; copy: ClientCopy }) {
  const { footer, header } = copy;
  const contact = [footer.storeAddress, footer.storePhone, footer.storeEmail, footer.storeWebsite]
    .filter((part) => part.trim());
  const message = d.capped ? clipText(footer.message, FOOTER_LIMIT) : footer.message;
  return (
    <View style={s.footer}>
      {message !== "" && <Text style={s.footerMessage}>{message}</Text>}
      {
        /* Each part is its own box in a wrapping row, so a long line wraps
          between parts: a break inside one would split the e-mail or web
          address with a hyphen that is not in it. */
      }
      <View style={s.footerParts}>
        <Text style={s.footerStore}>{header.storeName}</Text>
        {contact.map((part, i) => <Text key={i}>{`  ·  ${part}`}</Text>)}
      </View>
    </View>
  );
}
