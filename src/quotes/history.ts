// What a quote save changed, as the history records it: counts of options
// added, removed and changed, and the quote's total before and after. Pure,
// so it is unit-tested without a database.
import type { ItemKind } from "../../db/schema.ts";
import { centsOrZero, centsToDecimal } from "./money.ts";
import { totalCents } from "./rules.ts";

export interface OptionState {
  id: string;
  label: string;
  notes: string;
  isChosen: boolean;
  shipping: string;
  adjustmentAmount: string;
  adjustmentReason: string;
  items: {
    kind: ItemKind;
    name: string;
    sku: string | null;
    unitPrice: string;
    qty: number;
    notes: string;
    catalogId: string | null;
  }[];
}

export interface OptionChangeSummary {
  added: number;
  removed: number;
  changed: number;
  /** How many options the quote had before and has after. */
  before: number;
  after: number;
}

/** Everything that makes an option what it is, amounts compared in cents. */
function fingerprint(o: OptionState): string {
  return JSON.stringify([
    o.label,
    o.notes,
    o.isChosen,
    centsOrZero(o.shipping),
    centsOrZero(o.adjustmentAmount),
    o.adjustmentReason,
    o.items.map((i) => [
      i.kind,
      i.name,
      i.sku ?? "",
      centsOrZero(i.unitPrice),
      i.qty,
      i.notes,
      i.catalogId,
    ]),
  ]);
}

/** Options kept by id are compared; unknown ids are added, missing ones removed. */
export function summarizeOptionChanges(
  before: OptionState[],
  after: OptionState[],
): OptionChangeSummary {
  const old = new Map(before.map((o) => [o.id, o]));
  const kept = after.filter((o) => old.has(o.id));
  return {
    added: after.length - kept.length,
    removed: before.length - kept.length,
    changed: kept.filter((o) => fingerprint(o) !== fingerprint(old.get(o.id)!)).length,
    before: before.length,
    after: after.length,
  };
}

/**
 * The quote's total as lists show it: the chosen options' totals added up when
 * the client chose any, else the first option's total, as a decimal string.
 */
export function quoteTotalDecimal(options: OptionState[]): string {
  const chosen = options.filter((o) => o.isChosen);
  const counted = chosen.length ? chosen : options.slice(0, 1);
  return centsToDecimal(counted.reduce((sum, o) => sum + totalCents(o), 0));
}
