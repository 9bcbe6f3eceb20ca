// The price breakdown a client sees for one option (tablet, print, PDF):
// priced lines in the order glasses are built up, then the totals.
import type { ItemKind } from "../../db/schema.ts";
import type { QuoteItemView, QuoteOptionView } from "./views.ts";
import { isCustomPackage, lineCents, subtotalCents, totalCents } from "./rules.ts";
import { centsOrZero } from "../money/amounts.ts";

export interface PriceLine {
  kind: ItemKind;
  kindLabel: string;
  name: string;
  qty: number;
  cents: number;
}

export interface PriceBreakdown {
  lines: PriceLine[];
  subtotalCents: number;
  shippingCents: number;
  adjustment: { label: string; cents: number } | null;
  totalCents: number;
}

export const KIND_LABELS: Record<ItemKind, string> = {
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

export function priceLines(items: QuoteItemView[]): PriceLine[] {
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

export function priceBreakdown(
  option: Pick<QuoteOptionView, "items" | "shipping" | "adjustmentAmount" | "adjustmentReason">,
): PriceBreakdown {
  const adjustmentCents = centsOrZero(option.adjustmentAmount);
  return {
    lines: priceLines(option.items),
    subtotalCents: subtotalCents(option.items),
    shippingCents: centsOrZero(option.shipping),
    adjustment: adjustmentCents === 0
      ? null
      : { label: option.adjustmentReason.trim() || "Promo", cents: adjustmentCents },
    totalCents: totalCents(option),
  };
}
