import type { BadgeVariant } from "../Badge.tsx";
import type { JobStatus } from "../../db/schema.ts";

/** The badge colour of each job status, on the order page and the /orders list. */
export const JOB_STATUS_VARIANTS: Record<JobStatus, BadgeVariant> = {
  ORDERED: "secondary",
  SENT_TO_LAB: "info",
  RECEIVED: "info",
  CHECKED: "info",
  READY: "success",
  PICKED_UP: "default",
  REMAKE: "warning",
  CANCELLED: "destructive",
};
