import * as z from "zod";
import { AUDIT_KINDS } from "../audit/kinds.ts";
import { dayField, rangeIsOrdered, rangeOrderMessage } from "./date_range.ts";

const blankToUndefined = (v: unknown) => (v === "" ? undefined : v);

/** The audit page's filters and paging, from its query string (page and API alike). */
export const auditQuerySchema = z.object({
  from: dayField,
  to: dayField,
  user: z.preprocess(blankToUndefined, z.uuid("Pick a user from the list").optional()),
  store: z.preprocess(
    blankToUndefined,
    z.union([z.uuid("Pick a store from the list"), z.literal("chain")], {
      error: "Pick a store from the list",
    }).optional(),
  ),
  kind: z.preprocess(blankToUndefined, z.enum(AUDIT_KINDS, "Pick a kind from the list").optional()),
  before: z.preprocess(
    blankToUndefined,
    z.string().max(60).regex(/^[0-9TZ:.~-]+$/, "Bad page link").optional(),
  ),
  after: z.preprocess(
    blankToUndefined,
    z.string().max(60).regex(/^[0-9TZ:.~-]+$/, "Bad page link").optional(),
  ),
}).refine(rangeIsOrdered, rangeOrderMessage());
export type AuditQueryInput = z.infer<typeof auditQuerySchema>;
