import * as z from "zod";
import { amountMessage, centsToDecimal, parseCents } from "../money/amounts.ts";
import { parseQty, qtyProblem } from "../quotes/rules.ts";
import { multilineText, safeText, uuidField } from "./text.ts";

/** A non-negative amount as a decimal string ("" reads as 0; "9,95" as "9.95", see readAmount). */
const amount = (what: string) =>
  z.union([safeText(), z.number()]).transform((v, ctx) => {
    const text = String(v).trim();
    const cents = text === "" ? 0 : parseCents(typeof v === "number" ? v : text);
    if (cents === undefined || cents < 0 || cents > 99_999_999) {
      ctx.addIssue({ code: "custom", message: amountMessage(what, v) });
      return z.NEVER;
    }
    return centsToDecimal(cents);
  });

/** The price adjustment: a positive entry is made negative (a discount). */
const adjustment = z.union([safeText(), z.number()]).transform((v, ctx) => {
  const text = String(v).trim();
  const cents = text === "" ? 0 : parseCents(typeof v === "number" ? v : text);
  if (cents === undefined || Math.abs(cents) > 99_999_999) {
    ctx.addIssue({ code: "custom", message: amountMessage("Adjustment", v, "25.00") });
    return z.NEVER;
  }
  return centsToDecimal(-Math.abs(cents));
});

const text = (max: number, multiline = false) =>
  safeText({ multiline, trim: true }).max(max).optional().default("");

export const itemSchema = z.object({
  kind: z.enum(["FRAME", "PACKAGE", "LENS", "MATERIAL", "AR", "ADDON", "OTHER"]),
  name: text(200),
  sku: safeText({ trim: true }).max(100).nullable().optional().transform((s) => s ?? null),
  unitPrice: amount("Price"),
  // Text that is no number counts as 1 (the spec); a fraction, 0 or over 999 is refused.
  qty: z.union([z.number(), safeText()]).optional().default(1).transform((q, ctx) => {
    const problem = qtyProblem(q);
    if (problem) {
      ctx.addIssue({ code: "custom", message: problem });
      return z.NEVER;
    }
    return parseQty(q);
  }),
  // A package item carries the package's description, which may span lines.
  notes: text(1000, true),
  catalogId: uuidField().nullable().optional().transform((v) => v ?? null),
});
export type ItemInput = z.infer<typeof itemSchema>;

export const optionSchema = z.object({
  id: safeText().max(64).refine(
    (id) => id.startsWith("temp-") || uuidField().safeParse(id).success,
    "Option id must be a saved id or start with temp-",
  ),
  label: text(100),
  notes: text(2000, true),
  isChosen: z.boolean().optional().default(false),
  shipping: amount("Shipping").optional().default("0.00"),
  adjustmentAmount: adjustment.optional().default("0.00"),
  adjustmentReason: text(200),
  /** Sent by the builder for display; the server always recomputes it. */
  subtotal: z.unknown().optional(),
  items: z.array(itemSchema).max(50, "An option can hold at most 50 items"),
  segOc: safeText({ trim: true }).max(50).optional(),
});
export type OptionInput = z.infer<typeof optionSchema>;

/** The builder's save: everything, from the version it was loaded at. */
export const saveQuoteSchema = z.object({
  version: z.number().int().min(1),
  opticianName: safeText({ trim: true }).max(100),
  internalNotes: multilineText().max(10_000).optional().default(""),
  options: z.array(optionSchema).min(1, "A quote needs at least one option").max(20),
});
export type SaveQuoteInput = z.infer<typeof saveQuoteSchema>;

/** The tablet's save: which options the client chose. */
export const selectionSchema = z.object({
  version: z.number().int().min(1),
  options: z.array(z.object({ id: uuidField(), isChosen: z.boolean() })).min(1).max(20),
}).refine((s) => s.options.some((o) => o.isChosen), {
  message: "Please select at least one option",
  path: ["options"],
});
export type SelectionInput = z.infer<typeof selectionSchema>;

export const closeQuoteSchema = z.object({
  reason: multilineText({ error: "Please provide a reason for closing the quote.", trim: true })
    .min(1, "Please provide a reason for closing the quote.").max(1000),
});

export const segOcSchema = z.object({
  segOc: safeText({ error: "segOc is required", trim: true })
    .max(50, "SEG/OC must be at most 50 characters"),
});

export const REOPEN_REASON_REQUIRED = "Please provide a reason for reopening the quote.";

/** An owner reopening a finalized quote says why; the reason goes to the audit log. */
export const reopenQuoteSchema = z.object({
  reason: multilineText({ error: REOPEN_REASON_REQUIRED, trim: true }).min(
    1,
    REOPEN_REASON_REQUIRED,
  ).max(1000),
});
