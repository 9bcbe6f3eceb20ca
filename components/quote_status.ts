import type { QuoteStatus } from "../db/schema.ts";
import type { BadgeVariant } from "./Badge.tsx";

/** How each quote status reads on screen (spec section 4). */
export const QUOTE_STATUS_LABELS: Record<QuoteStatus, string> = {
  DRAFT: "Draft",
  ACTIVE: "Active",
  PENDING_MEASUREMENTS: "Pending Measurements",
  FINALIZED: "Finalized",
  EMAILED: "Emailed",
  ACCEPTED: "Accepted",
  CLOSED: "Closed",
};

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
