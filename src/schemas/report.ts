import * as z from "zod";
import { dayField, rangeIsOrdered, rangeOrderMessage } from "./date_range.ts";

/** The conversion report's choices, from its query string (page, JSON and CSV alike). */
export const reportQuerySchema = z.object({
  from: dayField,
  to: dayField,
  optician: z.string().trim().max(100, "Optician must be at most 100 characters").optional()
    .transform((v) => v || undefined),
}).refine(rangeIsOrdered, rangeOrderMessage());
export type ReportQueryInput = z.infer<typeof reportQuerySchema>;
