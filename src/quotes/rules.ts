// Pure quote rules shared by the builder, the tablet and the server: no I/O
// here, so the browser and the API apply exactly the same logic.
import type { ItemKind, QuoteStatus, Role } from "../../db/schema.ts";
import { centsOrZero, centsToDecimal, formatMoney, parseCents } from "../money/amounts.ts";

export interface DraftItem {
  id?: string;
  kind: ItemKind;
  name: string;
  sku: string | null;
  unitPrice: string;
  qty: number;
  notes: string;
  catalogId: string | null;
}

export interface DraftOption {
  /** A saved option's id, or "temp-…" for one not saved yet. */
  id: string;
  label: string;
  notes: string;
  isChosen: boolean;
  shipping: string;
  adjustmentAmount: string;
  adjustmentReason: string;
  items: DraftItem[];
  segOc: string;
}

export interface CatalogEntry {
  id: string;
  name: string;
  price: string;
  description?: string;
}

export const CUSTOM_PACKAGE_NAME = "Custom Package";
export const LENS_KINDS: ItemKind[] = ["PACKAGE", "LENS", "MATERIAL", "AR"];

export const isTempId = (id: string) => id.startsWith("temp-");
export const newTempId = () => `temp-${crypto.randomUUID()}`;

export function emptyItem(kind: ItemKind, init: Partial<DraftItem> = {}): DraftItem {
  return {
    kind,
    name: "",
    sku: kind === "FRAME" ? "" : null,
    unitPrice: "0",
    qty: 1,
    notes: "",
    catalogId: null,
    ...init,
  };
}

export function emptyOption(): DraftOption {
  return {
    id: newTempId(),
    label: "",
    notes: "",
    isChosen: false,
    shipping: "0",
    adjustmentAmount: "0",
    adjustmentReason: "",
    items: [emptyItem("FRAME")],
    segOc: "",
  };
}

// ---- Totals (integer cents) ----

export function lineCents(item: Pick<DraftItem, "unitPrice" | "qty">): number {
  return centsOrZero(item.unitPrice) * Math.max(1, Math.trunc(item.qty) || 1);
}

/** Sum of unit price × quantity over every item of the option. */
export function subtotalCents(items: Pick<DraftItem, "unitPrice" | "qty">[]): number {
  return items.reduce((sum, item) => sum + lineCents(item), 0);
}

/** Subtotal + shipping + adjustment (the adjustment is zero or negative). */
export function totalCents(
  option: Pick<DraftOption, "items" | "shipping" | "adjustmentAmount">,
): number {
  return subtotalCents(option.items) + centsOrZero(option.shipping) +
    centsOrZero(option.adjustmentAmount);
}

export const subtotalDecimal = (items: Pick<DraftItem, "unitPrice" | "qty">[]) =>
  centsToDecimal(subtotalCents(items));

/** Kinds grouped as the price breakdown shows them. */
export function breakdownCents(items: DraftItem[]) {
  const sum = (kinds: ItemKind[]) => subtotalCents(items.filter((i) => kinds.includes(i.kind)));
  return {
    frame: sum(["FRAME"]),
    lenses: sum(["PACKAGE", "LENS", "MATERIAL", "AR", "ADDON"]),
    other: sum(["OTHER"]),
  };
}

// ---- Entry rules ----

/** A positive adjustment is a discount typed without its sign: make it negative. */
export function normalizeAdjustment(text: string): string {
  const cents = parseCents(text);
  if (cents === undefined) return "0";
  return centsToDecimal(-Math.abs(cents));
}

/** Quantity of an item: a whole number of at least 1; anything unreadable becomes 1. */
export function parseQty(text: string | number): number {
  const n = typeof text === "number" ? text : Number.parseInt(String(text).trim(), 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(Math.trunc(n), MAX_QTY) : 1;
}

export const MAX_QTY = 999;
const NUMBER_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)$/;

/**
 * Why a quantity is refused, or null. Text that is no number at all counts
 * as 1 (the spec's rule), but a number is taken at its word: a fraction, 0
 * or more than the limit is said, never silently turned into 2 or 999.
 */
export function qtyProblem(value: string | number): string | null {
  const text = String(value).trim();
  if (typeof value === "string" && !NUMBER_TEXT.test(text)) return null;
  const n = Number(text);
  if (!Number.isFinite(n)) return null;
  if (!Number.isInteger(n)) return "Quantity must be a whole number";
  if (n < 1) return "Quantity must be at least 1";
  if (n > MAX_QTY) return `Quantity can be at most ${MAX_QTY}`;
  return null;
}

/** What an item holds for typed text: a number as typed (qtyProblem judges it), else 1. */
export function qtyValue(text: string): number {
  const t = text.trim();
  return NUMBER_TEXT.test(t) ? Number(t) : 1;
}

// ---- Live summary ----

/** The largest price, shipping or adjustment one field takes ($999,999.99). */
export const MAX_FIELD_CENTS = 99_999_999;

/** A price or shipping as the save reads it ("" is 0), or undefined when it would be refused. */
export function readAmountCents(text: string, signed = false): number | undefined {
  if (text.trim() === "") return 0;
  const cents = parseCents(text);
  if (cents === undefined || Math.abs(cents) > MAX_FIELD_CENTS) return undefined;
  if (!signed && cents < 0) return undefined;
  return cents;
}

/** Amounts of the live summary; null where an amount cannot be read, and every sum it is in. */
export interface SummaryAmounts {
  frame: number | null;
  lenses: number | null;
  other: number | null;
  subtotal: number | null;
  shipping: number | null;
  adjustment: number | null;
  total: number | null;
  /** What cannot be read, in words ("Frame price", "Shipping"…). */
  unreadable: string[];
}

const GROUP_OF: Record<ItemKind, "frame" | "lenses" | "other"> = {
  FRAME: "frame",
  PACKAGE: "lenses",
  LENS: "lenses",
  MATERIAL: "lenses",
  AR: "lenses",
  ADDON: "lenses",
  OTHER: "other",
};

/**
 * The summary the builder shows while typing. An amount it cannot read is
 * marked (null) rather than counted as $0.00, which would show a total the
 * save would never store.
 */
export function summaryAmounts(
  option: Pick<DraftOption, "items" | "shipping" | "adjustmentAmount">,
): SummaryAmounts {
  const unreadable: string[] = [];
  const groups: Record<"frame" | "lenses" | "other", number | null> = {
    frame: 0,
    lenses: 0,
    other: 0,
  };
  let otherRow = 0;
  for (const item of option.items) {
    const group = GROUP_OF[item.kind];
    const what = item.kind === "FRAME"
      ? "Frame"
      : item.kind === "OTHER"
      ? `Other item ${++otherRow}`
      : item.name.trim() || "Lens item";
    const price = readAmountCents(item.unitPrice);
    const qtyBad = qtyProblem(item.qty) !== null;
    if (price === undefined) unreadable.push(`${what} price`);
    if (qtyBad) unreadable.push(`${what} quantity`);
    const current = groups[group];
    groups[group] = price === undefined || qtyBad || current === null
      ? null
      : current + price * item.qty;
  }
  const shipping = readAmountCents(option.shipping) ?? null;
  if (shipping === null) unreadable.push("Shipping");
  const adjustment = readAmountCents(option.adjustmentAmount, true) ?? null;
  if (adjustment === null) unreadable.push("Price adjustment");
  const { frame, lenses, other } = groups;
  const subtotal = frame === null || lenses === null || other === null
    ? null
    : frame + lenses + other;
  const total = subtotal === null || shipping === null || adjustment === null
    ? null
    : subtotal + shipping + adjustment;
  return { frame, lenses, other, subtotal, shipping, adjustment, total, unreadable };
}

// ---- Package choice ----

export type PackageChoice =
  | { type: "none" }
  | { type: "catalog"; pkg: CatalogEntry }
  | { type: "custom" };

/** What the package selector shows for an option's items. */
export function currentPackageChoice(items: DraftItem[]): "none" | "custom" | string {
  const pkg = items.find((i) => i.kind === "PACKAGE");
  if (!pkg) return "none";
  return pkg.catalogId ?? "custom";
}

export const isCustomPackage = (items: DraftItem[]) => currentPackageChoice(items) === "custom";

/**
 * None removes the package, lens, material and AR items. A catalog package
 * replaces them with one item taking the package's price and description.
 * Custom Package replaces only the package item, with a zero-priced one, and
 * keeps any lens, material and AR already chosen.
 */
export function applyPackageChoice(items: DraftItem[], choice: PackageChoice): DraftItem[] {
  if (choice.type === "custom") {
    const rest = items.filter((i) => i.kind !== "PACKAGE");
    return [...rest, emptyItem("PACKAGE", { name: CUSTOM_PACKAGE_NAME, unitPrice: "0" })];
  }
  const rest = items.filter((i) => !LENS_KINDS.includes(i.kind));
  if (choice.type === "none") return rest;
  return [
    ...rest,
    emptyItem("PACKAGE", {
      name: choice.pkg.name,
      unitPrice: choice.pkg.price,
      notes: choice.pkg.description ?? "",
      catalogId: choice.pkg.id,
    }),
  ];
}

/** Sets the lens type, material or coating of a custom package (null clears it). */
export function setCatalogItem(
  items: DraftItem[],
  kind: "LENS" | "MATERIAL" | "AR",
  entry: CatalogEntry | null,
): DraftItem[] {
  const rest = items.filter((i) => i.kind !== kind);
  if (!entry) return rest;
  return [
    ...rest,
    emptyItem(kind, { name: entry.name, unitPrice: entry.price, catalogId: entry.id }),
  ];
}

export function toggleAddOn(items: DraftItem[], addOn: CatalogEntry, checked: boolean) {
  const rest = items.filter((i) => !(i.kind === "ADDON" && i.catalogId === addOn.id));
  if (!checked) return rest;
  return [
    ...rest,
    emptyItem("ADDON", { name: addOn.name, unitPrice: addOn.price, catalogId: addOn.id }),
  ];
}

// ---- Labels ----

const frameSku = (items: DraftItem[]) => items.find((i) => i.kind === "FRAME")?.sku?.trim() ?? "";

/** Builder tabs: the label, else the frame SKU, else "Option {n}". */
export function optionTabLabel(option: Pick<DraftOption, "label" | "items">, index: number) {
  return option.label.trim() || frameSku(option.items) || `Option ${index + 1}`;
}

/** Tablet and print titles: the frame SKU, else the label, else "Option N". */
/**
 * An option's title for the client holding the tablet: its label, else
 * "Option N" (a frame SKU, the staff's title, means nothing to a client).
 */
export function clientOptionTitle(option: Pick<DraftOption, "label">, index: number) {
  return option.label.trim() || `Option ${index + 1}`;
}

export function optionTitle(option: Pick<DraftOption, "label" | "items">, index: number) {
  return frameSku(option.items) || option.label.trim() || `Option ${index + 1}`;
}

// ---- Save check (spec section 5) ----

export interface SaveProblem {
  field: string;
  message: string;
}

type CheckedOption =
  & Pick<DraftOption, "label" | "items">
  & Partial<Pick<DraftOption, "shipping" | "adjustmentAmount">>;

export function saveProblems(
  quote: { opticianName: string; options: CheckedOption[] },
): SaveProblem[] {
  const problems: SaveProblem[] = [];
  if (!quote.opticianName.trim()) {
    problems.push({ field: "opticianName", message: "Optician's Name is required" });
  }
  quote.options.forEach((option, index) => {
    const label = optionTabLabel(option, index);
    const frame = option.items.find((i) => i.kind === "FRAME");
    if (!frame || !frame.sku?.trim()) {
      problems.push({
        field: `options.${index}.frame`,
        message: `${label} must have a frame with SKU`,
      });
    }
    if (isCustomPackage(option.items)) {
      if (!option.items.some((i) => i.kind === "LENS")) {
        problems.push({
          field: `options.${index}.lens`,
          message: `${label} requires a lens type to be selected`,
        });
      }
      if (!option.items.some((i) => i.kind === "MATERIAL")) {
        problems.push({
          field: `options.${index}.material`,
          message: `${label} requires a material to be selected`,
        });
      }
    }
  });
  problems.push(...totalProblems(quote.options));
  return problems;
}

// ---- Bounds on computed amounts ----

/**
 * The largest amount a NUMERIC(12,2) column holds ($9,999,999,999.99). Each
 * price is bounded on entry, but 50 items × 999 at the largest price are
 * not, nor is the sum the lists show over several options.
 */
export const MAX_AMOUNT_CENTS = 999_999_999_999;

export const BELOW_ZERO = "the total cannot go below $0.00";

const tooLarge = (what: string) =>
  `${what} is more than the largest amount a quote can hold (${formatMoney(MAX_AMOUNT_CENTS)})`;

/**
 * Subtotal and total of each option, and all options together (the lists add
 * up the chosen ones, and any may be chosen), must fit: checked here, so the
 * builder says so before saving and the API refuses with the same field.
 */
export function totalProblems(options: CheckedOption[]): SaveProblem[] {
  const problems: SaveProblem[] = [];
  let together = 0;
  options.forEach((option, index) => {
    const label = optionTabLabel(option, index);
    const subtotal = subtotalCents(option.items);
    const total = subtotal + centsOrZero(option.shipping) + centsOrZero(option.adjustmentAmount);
    together += Math.abs(total);
    if (subtotal > MAX_AMOUNT_CENTS) {
      problems.push({
        field: `options.${index}.subtotal`,
        message: tooLarge(`${label}: the subtotal`),
      });
    } else if (Math.abs(total) > MAX_AMOUNT_CENTS) {
      problems.push({ field: `options.${index}.total`, message: tooLarge(`${label}: the total`) });
    } else if (total < 0) {
      // A discount takes off at most what the option costs: a negative
      // total would print as money owed to the client.
      const before = subtotal + centsOrZero(option.shipping);
      problems.push({
        field: `options.${index}.adjustmentAmount`,
        message: `${label}: the discount is more than the subtotal and shipping ` +
          `(${formatMoney(before)}); ${BELOW_ZERO}`,
      });
    }
  });
  if (!problems.length && together > MAX_AMOUNT_CENTS) {
    problems.push({ field: "total", message: tooLarge("All options together") });
  }
  return problems;
}

// ---- Status ----

export const QUOTE_STATUSES: QuoteStatus[] = [
  "DRAFT",
  "ACTIVE",
  "PENDING_MEASUREMENTS",
  "FINALIZED",
  "EMAILED",
  "ACCEPTED",
  "CLOSED",
];

/** Expired is derived: a past expiry on a quote that is not closed. */
export function isExpired(
  quote: { status: QuoteStatus; expiresAt: string | Date | null },
  now = new Date(),
): boolean {
  if (quote.status === "CLOSED" || !quote.expiresAt) return false;
  return new Date(quote.expiresAt).getTime() < now.getTime();
}

/** Why a quote may not be edited, or null when it may. */
export function editBlocker(status: QuoteStatus): string | null {
  if (status === "CLOSED") return "This quote is closed and can no longer be changed.";
  if (status === "FINALIZED") return "This quote is finalized and can no longer be changed.";
  return null;
}

/**
 * An expired quote goes out again only after Reactivate Quote gives it a new
 * expiry: e-mailing it would send prices the store no longer holds to, and a
 * tablet confirmation would accept them. The API answers these (409) and the
 * builder shows the hint beside the actions it disables.
 */
export const EXPIRED_EMAIL_MESSAGE =
  "This quote has expired. Use Reactivate Quote to give it a new expiry date before e-mailing it.";
export const EXPIRED_CONFIRM_MESSAGE = "This quote has expired and can no longer be confirmed. " +
  "Use Reactivate Quote to give it a new expiry date first.";
export const EXPIRED_ACTIONS_HINT =
  "Use Reactivate Quote first: an expired quote cannot be e-mailed or confirmed on the tablet.";

/**
 * Whether an expired quote's e-mail and tablet confirmation wait for Reactivate
 * Quote. A finalized one keeps its dates (its prices are agreed and it cannot
 * be reactivated), so a copy of it may still be sent.
 */
export const heldBackByExpiry = (status: QuoteStatus, expired: boolean) =>
  expired && status !== "FINALIZED";

/** Why a quote may not be e-mailed or confirmed on the tablet now, or null when it may. */
export function expiredBlocker(
  quote: { status: QuoteStatus; expiresAt: string | Date | null },
  action: "email" | "confirm",
  now = new Date(),
): string | null {
  if (!heldBackByExpiry(quote.status, isExpired(quote, now))) return null;
  return action === "email" ? EXPIRED_EMAIL_MESSAGE : EXPIRED_CONFIRM_MESSAGE;
}

/** What close and reactivate answer on a finalized quote (staff-facing; the tablet keeps editBlocker's). */
export const FINALIZED_IS_FINAL =
  "This quote is finalized and can no longer be changed. Only an owner can reopen it.";

/** Why a quote may not be closed, or null: an open quote may; a finalized one is final. */
export function closeBlocker(status: QuoteStatus): string | null {
  if (status === "CLOSED") return "This quote is already closed.";
  if (status === "FINALIZED") return FINALIZED_IS_FINAL;
  return null;
}

/** Why a quote may not be reactivated, or null (it must be expired or closed, and not finalized). */
export function reactivateBlocker(
  quote: { status: QuoteStatus; expiresAt: string | Date | null },
  now = new Date(),
): string | null {
  if (quote.status === "FINALIZED") return FINALIZED_IS_FINAL;
  if (quote.status !== "CLOSED" && !isExpired(quote, now)) {
    return "Only an expired or closed quote can be reactivated.";
  }
  return null;
}

/** Only an owner takes a finalized quote back to work, and says why (it is audited). */
export const mayReopen = (role: Role, status: QuoteStatus) =>
  role === "OWNER" && status === "FINALIZED";

/** Saving puts a quote to work: ACTIVE, or waiting while measurements are incomplete. */
export function statusAfterSave(measurementsComplete: boolean): QuoteStatus {
  return measurementsComplete ? "ACTIVE" : "PENDING_MEASUREMENTS";
}

export const FINALIZABLE: QuoteStatus[] = ["ACTIVE", "EMAILED", "ACCEPTED"];

/** Dashboard text: the first underscore becomes a space, then lowercase. */
export const statusText = (status: QuoteStatus) => status.replace("_", " ").toLowerCase();
