// What the public quote page (/q/{token}) may show: the client copy of every
// option, the validity date and the store's contact. Built from the staff
// bundle by picking client-safe fields only (the tablet's view), so internal
// notes, item notes and other clients' data never reach the page or its JSON.
import type { QuoteBundle } from "../../src/quotes/views.ts";
import type { Branding } from "../../src/settings/settings.ts";
import { type TabletOption, tabletQuote } from "../tablet/tablet_view.ts";

export interface OnlineQuote {
  quoteNumber: string;
  clientName: string;
  /** The date the prices hold until ("March 20, 2026", the server's day), or null without expiry. */
  validUntil: string | null;
  options: TabletOption[];
}

export interface OnlineStore {
  storeName: string;
  logoUrl: string;
  storePhone: string;
  storeEmail: string;
}

export function onlineQuote(bundle: QuoteBundle): OnlineQuote {
  const view = tabletQuote(bundle);
  return {
    quoteNumber: view.quoteNumber,
    clientName: view.clientName,
    // Written on the server, so the page reads the same before and after hydration.
    validUntil: bundle.quote.expiresAt ? longDate(bundle.quote.expiresAt) : null,
    // Nothing is pre-chosen online: the client picks here, whatever the tablet said.
    options: view.options.map((o) => ({ ...o, isChosen: false })),
  };
}

export const onlineStore = (b: Branding): OnlineStore => ({
  storeName: b.storeName,
  logoUrl: b.logoUrl,
  storePhone: b.storePhone,
  storeEmail: b.storeEmail,
});

const dateText = new Intl.DateTimeFormat("en-US", { dateStyle: "long" });

/** "March 20, 2026" for the validity line and the accepted state. */
export const longDate = (at: string | Date) => dateText.format(new Date(at));
