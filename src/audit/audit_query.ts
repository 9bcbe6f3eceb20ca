import { type AuditQuery, parseCursor } from "./audit_log.ts";
import type { AuditQueryInput } from "../schemas/audit.ts";
import { endOfDay, startOfDay } from "../schemas/date_range.ts";

/** The validated filters of the page or the API as the log query takes them. */
export function toAuditQuery(input: AuditQueryInput): AuditQuery {
  return {
    userId: input.user,
    storeId: input.store,
    kind: input.kind,
    from: input.from ? startOfDay(input.from) : undefined,
    to: input.to ? endOfDay(input.to) : undefined,
    before: parseCursor(input.before),
    after: parseCursor(input.after),
  };
}
