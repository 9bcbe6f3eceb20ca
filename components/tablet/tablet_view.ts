// What the tablet may show the client, derived from the staff's quote bundle.
// The island receives only this, so internal notes, contact details and item
// notes never reach the page the client holds, not even in its JSON.
import type { ItemKind } from "../../db/schema.ts";
import type { QuoteBundle, QuoteItemView } from "../../src/quotes/views.ts";
import {
  editBlocker,
  isCustomPackage,
  lineCents,
  optionTitle,
  subtotalCents,
  totalCents,
} from "../../src/quotes/rules.ts";
import { centsOrZero } from "../../src/quotes/money.ts";

export interface TabletLine {
  kind: ItemKind;
  kindLabel: string;
  name: string;
  qty: number;
  cents: number;
}

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
  /** Why the selection may not be changed (closed or finalized), else null. */
  blocker: string | null;
  options: TabletOption[];
}

export interface TabletBranding {
  storeName: string;
  logoUrl: string;
}

const KIND_LABELS: Record<ItemKind, string> = {
  FRAME: "Frame",
  PACKAGE: "Lens package",
  LENS: "Lens",
  MATERIAL: "Material",
  AR: "Anti-reflective",
  ADDON: "Add-on",
  OTHER: "Other",
};

// The client reads a card top to bottom as the glasses are built up.
const KIND_ORDER: ItemKind[] = ["FRAME", "PACKAGE", "LENS", "MATERIAL", "AR", "ADDON", "OTHER"];

function lines(items: QuoteItemView[]): TabletLine[] {
  const custom = isCustomPackage(items);
  return items
    // A custom package is a free placeholder; its lens, material and coating
    // carry the prices, so the placeholder line would only puzzle the client.
    .filter((item) => !(custom && item.kind === "PACKAGE" && lineCents(item) === 0))
    .map((item, position) => ({ item, position }))
    .sort((a, b) =>
      KIND_ORDER.indexOf(a.item.kind) - KIND_ORDER.indexOf(b.item.kind) || a.position - b.position
    )
    .map(({ item }) => ({
      kind: item.kind,
      kindLabel: KIND_LABELS[item.kind],
      name: item.name.trim() || KIND_LABELS[item.kind],
      qty: Math.max(1, Math.trunc(item.qty) || 1),
      cents: lineCents(item),
    }));
}

export function tabletQuote(bundle: QuoteBundle): TabletQuote {
  return {
    id: bundle.quote.id,
    quoteNumber: bundle.quote.quoteNumber,
    version: bundle.quote.version,
    clientName: `${bundle.client.firstName} ${bundle.client.lastName}`.trim(),
    blocker: editBlocker(bundle.quote.status),
    options: bundle.options.map((option, index) => {
      const adjustmentCents = centsOrZero(option.adjustmentAmount);
      return {
        id: option.id,
        title: optionTitle(option, index),
        isChosen: option.isChosen,
        lines: lines(option.items),
        subtotalCents: subtotalCents(option.items),
        shippingCents: centsOrZero(option.shipping),
        adjustment: adjustmentCents === 0 ? null : {
          label: option.adjustmentReason.trim() || "Promo",
          cents: adjustmentCents,
        },
        totalCents: totalCents(option),
      };
    }),
  };
}

/** "1 option selected", "3 options selected", or a nudge when none is. */
export function selectionCountText(n: number): string {
  if (n === 0) return "No options selected yet";
  return `${n} ${n === 1 ? "option" : "options"} selected`;
}
