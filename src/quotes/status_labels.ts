import type { QuoteStatus } from "../../db/schema.ts";

/**
 * How each quote status reads (spec section 4): on screens, in search
 * results and on printed copies alike. The badge style of each lives with
 * the components (components/quote_status.ts).
 */
export const QUOTE_STATUS_LABELS: Record<QuoteStatus, string> = {
  DRAFT: "Draft",
  ACTIVE: "Active",
  PENDING_MEASUREMENTS: "Pending Measurements",
  FINALIZED: "Finalized",
  EMAILED: "Emailed",
  ACCEPTED: "Accepted",
  CLOSED: "Closed",
};
