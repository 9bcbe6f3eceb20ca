import * as z from "zod";
import { amountMessage, centsToDecimal, parseCents } from "../money/amounts.ts";
import { multilineText, safeText } from "./text.ts";

/** The catalog form (spec): name and price required, sort order an integer defaulting to 0. */
export const catalogItemSchema = z.object({
  name: safeText({ error: "Name is required", trim: true }).min(1, "Name is required").max(120),
  description: multilineText({ trim: true }).max(1000).nullish().transform((v) => v ?? ""),
  // Read as people type it: "129,00" is 129.00 (readAmount), here and in the CSV import.
  price: z.union([z.number(), safeText()], { error: "Price is required" }).transform((v, ctx) => {
    const text = String(v).trim();
    if (text === "") {
      ctx.addIssue({ code: "custom", message: "Price is required" });
      return z.NEVER;
    }
    const cents = parseCents(typeof v === "number" ? v : text);
    if (cents === undefined || cents < 0 || cents > 99_999_999) {
      ctx.addIssue({ code: "custom", message: amountMessage("Price", v, "129.00") });
      return z.NEVER;
    }
    return centsToDecimal(cents);
  }),
  active: z.boolean().optional().default(true),
  sortOrder: z.union([z.number(), safeText()]).optional().transform((v, ctx) => {
    if (v === undefined || String(v).trim() === "") return 0;
    const n = Number(v);
    if (!Number.isInteger(n) || Math.abs(n) > 1_000_000) {
      ctx.addIssue({ code: "custom", message: "Sort order must be a whole number" });
      return z.NEVER;
    }
    return n;
  }),
});
export type CatalogItemInput = z.infer<typeof catalogItemSchema>;

/** PUT takes the whole item, or {active} alone to toggle it. */
export const catalogUpdateSchema = z.union([
  z.object({ active: z.boolean() }).strict(),
  catalogItemSchema,
]);

/** Catalog CSV files up to 5 MiB: checked in the browser before sending, and by the server. */
export const CATALOG_CSV_MAX_BYTES = 5 * 1024 * 1024;
export const CATALOG_CSV_TOO_LARGE =
  "The file is larger than 5 MB. Split it into smaller files and import each.";

/** The import call's query: the fingerprint its preview answered with, if any. */
export const catalogImportQuerySchema = z.object({
  fingerprint: z.string().regex(
    /^[0-9a-f]{32}$/,
    "fingerprint must be the one the preview answered with",
  )
    .optional().or(z.literal("").transform(() => undefined)),
});
