// What a quote save changed, as the history records it: counts of options
// added, removed and changed, each option's and item's field old → new, and
// the quote's total before and after. Pure, so it is unit-tested without a
// database.
import type { ItemKind } from "../../db/schema.ts";
import { centsOrZero, centsToDecimal } from "../money/amounts.ts";
import { totalCents } from "./rules.ts";
import { KIND_LABELS } from "./price_breakdown.ts";

export interface OptionState {
  id: string;
  label: string;
  notes: string;
  isChosen: boolean;
  shipping: string;
  adjustmentAmount: string;
  adjustmentReason: string;
  /** SEG/OC of the option's frame; undefined in a save that does not set it. */
  segOc?: string;
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

/**
 * One thing a save changed inside the quote's options, as the history keeps
 * it: an option or item added or removed (with its amount), or one field of
 * an option or item from → to. `option` and `item` name them as people see
 * them ('Option 2 "Progressives"', 'Frame "Ray-Ban" (RB5154)').
 */
export interface QuotePartChange {
  option: string;
  item?: string;
  event?: "added" | "removed";
  /** For added or removed options, the option's total; for items, "price × qty". */
  amount?: string;
  field?: string;
  from?: unknown;
  to?: unknown;
}

/** The option fields a save records, in the builder's order; amounts compare in cents. */
const OPTION_FIELDS = [
  "label",
  "isChosen",
  "shipping",
  "adjustmentAmount",
  "adjustmentReason",
  "notes",
  "segOc",
] as const;
const ITEM_FIELDS = ["name", "sku", "unitPrice", "qty", "notes"] as const;
const MONEY_FIELDS = new Set(["shipping", "adjustmentAmount", "unitPrice"]);

function sameValue(field: string, a: unknown, b: unknown): boolean {
  if (MONEY_FIELDS.has(field)) return centsOrZero(a as string) === centsOrZero(b as string);
  const blank = (v: unknown) => v === null || v === undefined || v === "";
  return (blank(a) && blank(b)) || a === b;
}

/** Money as stored ("120.00"), anything else as it is; blanks as null. */
function recorded(field: string, value: unknown): unknown {
  if (value === undefined || value === "") return null;
  return MONEY_FIELDS.has(field) ? centsToDecimal(centsOrZero(value as string)) : value;
}

/** 'Option 2 "Progressives"': its place in the quote, and its label when it has one. */
export const optionName = (o: { label: string }, position: number) =>
  `Option ${position + 1}${o.label.trim() ? ` "${o.label.trim()}"` : ""}`;

type Item = OptionState["items"][number];
const itemName = (i: Item) =>
  `${KIND_LABELS[i.kind]} "${i.name.trim() || KIND_LABELS[i.kind]}"${i.sku ? ` (${i.sku})` : ""}`;
const itemAmount = (i: Item) => `${centsToDecimal(centsOrZero(i.unitPrice))} × ${i.qty}`;
/** Items are replaced on every save: the same kind, name, SKU and catalog entry is the same item. */
const itemKey = (i: Item) => JSON.stringify([i.kind, i.name.trim(), i.sku ?? "", i.catalogId]);

function fieldChanges(
  beforeRecord: object,
  afterRecord: object,
  fields: readonly string[],
): { field: string; from: unknown; to: unknown }[] {
  const before = beforeRecord as Record<string, unknown>;
  const after = afterRecord as Record<string, unknown>;
  return fields.filter((f) => f in after && after[f] !== undefined)
    .filter((f) => !sameValue(f, before[f], after[f]))
    .map((f) => ({ field: f, from: recorded(f, before[f]), to: recorded(f, after[f]) }));
}

/**
 * Every change a save made inside the options: options added and removed
 * (by id), each kept option's fields, and its items added, removed (matched
 * by kind, name, SKU and catalog entry) or changed field by field.
 */
export function describeOptionChanges(
  before: OptionState[],
  after: OptionState[],
): QuotePartChange[] {
  const old = new Map(before.map((o, i) => [o.id, { o, i }]));
  const kept = new Set(after.map((o) => o.id).filter((id) => old.has(id)));
  const out: QuotePartChange[] = [];
  before.forEach((o, i) => {
    if (!kept.has(o.id)) {
      out.push({
        option: optionName(o, i),
        event: "removed",
        amount: centsToDecimal(totalCents(o)),
      });
    }
  });
  after.forEach((o, position) => {
    const name = optionName(o, position);
    const was = old.get(o.id);
    if (!was) {
      out.push({ option: name, event: "added", amount: centsToDecimal(totalCents(o)) });
      return;
    }
    for (const change of fieldChanges(was.o, o, OPTION_FIELDS)) {
      out.push({ option: name, ...change });
    }
    const unmatched = [...was.o.items];
    const added: Item[] = [];
    for (const item of o.items) {
      const at = unmatched.findIndex((i) => itemKey(i) === itemKey(item));
      if (at < 0) {
        added.push(item);
        continue;
      }
      const [previous] = unmatched.splice(at, 1);
      for (const change of fieldChanges(previous, item, ITEM_FIELDS)) {
        out.push({ option: name, item: itemName(item), ...change });
      }
    }
    for (const item of unmatched) {
      out.push({ option: name, item: itemName(item), event: "removed", amount: itemAmount(item) });
    }
    for (const item of added) {
      out.push({ option: name, item: itemName(item), event: "added", amount: itemAmount(item) });
    }
  });
  return out;
}
