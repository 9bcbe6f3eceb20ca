// What the tablet may show the client, derived from the staff's quote bundle.
// The island receives only this, so internal notes, contact details and item
// notes never reach the page the client holds, not even in its JSON.
import type { QuoteBundle } from "../../src/quotes/views.ts";
import { clientOptionTitle, editBlocker, expiredBlocker } from "../../src/quotes/rules.ts";
import { priceBreakdown, type PriceLine } from "../../src/quotes/price_breakdown.ts";

export type TabletLine = PriceLine;

export interface TabletOption {
  id: string;
  title: string;
  isChosen: boolean;
  lines: TabletLine[];
  subtotalCents: number;
  shippingCents: number;
  adjustment: { label: string; cents: number } | null;
  totalCents: number;
}

export interface TabletQuote {
  id: string;
  quoteNumber: string;
  version: number;
  clientName: string;
  /** Why the selection may not be changed (closed, finalized or expired), else null. */
  blocker: string | null;
  options: TabletOption[];
}

export interface TabletBranding {
  storeName: string;
  logoUrl: string;
}

export function tabletQuote(bundle: QuoteBundle): TabletQuote {
  return {
    id: bundle.quote.id,
    quoteNumber: bundle.quote.quoteNumber,
    version: bundle.quote.version,
    clientName: `${bundle.client.firstName} ${bundle.client.lastName}`.trim(),
    // An expired quote is locked here as the confirmation call would refuse it.
    blocker: editBlocker(bundle.quote.status) ?? expiredBlocker(bundle.quote, "confirm"),
    options: bundle.options.map((option, index) => ({
      id: option.id,
      title: clientOptionTitle(option, index),
      isChosen: option.isChosen,
      ...priceBreakdown(option),
    })),
  };
}

export { selectionCountText } from "./selection_count.ts";
