import type { QuoteStatus } from "../db/schema.ts";
import type { BadgeVariant } from "./Badge.tsx";

/** The badge style of each quote status (spec section 4). */
export const QUOTE_STATUS_VARIANTS: Record<QuoteStatus, BadgeVariant> = {
  DRAFT: "secondary",
  ACTIVE: "default",
  PENDING_MEASUREMENTS: "warning",
  FINALIZED: "success",
  EMAILED: "info",
  ACCEPTED: "success",
  CLOSED: "destructive",
};
