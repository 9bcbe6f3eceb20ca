// What the public quote page (/q/{token}) may show: the client copy of every
// option, the validity date and the store's contact. Built from the staff
// bundle by picking client-safe fields only (the tablet's view), so internal
// notes, item notes and other clients' data never reach the page or its JSON.
// Amounts and dates are written here, on the server, as text: the page's
// island then needs no money or date code (its 90 KB budget) and reads the
// same before and after hydration.
import type { QuoteBundle } from "../../src/quotes/views.ts";
import type { Branding } from "../../src/settings/settings.ts";
import { formatMoney } from "../../src/money/amounts.ts";
import { tabletQuote } from "../tablet/tablet_view.ts";

export interface OnlineOption {
  id: string;
  title: string;
  lines: { kindLabel: string; name: string; qty: number; amount: string }[];
  /** Shown when shipping or an adjustment sits between the items and the total. */
  subtotal: string | null;
  shipping: string | null;
  adjustment: { label: string; amount: string; discount: boolean } | null;
  total: string;
}

export interface OnlineQuote {
  quoteNumber: string;
  clientName: string;
  /** The date the prices hold until ("March 20, 2026"), or null without expiry. */
  validUntil: string | null;
  options: OnlineOption[];
}

export interface OnlineStore {
  storeName: string;
  logoUrl: string;
  storePhone: string;
  storeEmail: string;
}

const dateText = new Intl.DateTimeFormat("en-US", { dateStyle: "long" });

/** "March 20, 2026" for the validity line and the accepted state (the server's day). */
export const longDate = (at: string | Date) => dateText.format(new Date(at));

export function onlineQuote(bundle: QuoteBundle): OnlineQuote {
  const view = tabletQuote(bundle);
  return {
    quoteNumber: view.quoteNumber,
    clientName: view.clientName,
    validUntil: bundle.quote.expiresAt ? longDate(bundle.quote.expiresAt) : null,
    // Nothing is pre-chosen online: the client picks here, whatever the tablet said.
    options: view.options.map((o) => ({
      id: o.id,
      title: o.title,
      lines: o.lines.map((l) => ({
        kindLabel: l.kindLabel,
        name: l.name,
        qty: l.qty,
        amount: formatMoney(l.cents),
      })),
      subtotal: o.shippingCents > 0 || o.adjustment ? formatMoney(o.subtotalCents) : null,
      shipping: o.shippingCents > 0 ? formatMoney(o.shippingCents) : null,
      adjustment: o.adjustment
        ? {
          label: o.adjustment.label,
          amount: `${o.adjustment.cents > 0 ? "+" : ""}${formatMoney(o.adjustment.cents)}`,
          discount: o.adjustment.cents < 0,
        }
        : null,
      total: formatMoney(o.totalCents),
    })),
  };
}

export const onlineStore = (b: Branding): OnlineStore => ({
  storeName: b.storeName,
  logoUrl: b.logoUrl,
  storePhone: b.storePhone,
  storeEmail: b.storeEmail,
});
