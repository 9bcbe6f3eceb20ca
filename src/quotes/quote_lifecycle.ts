// A quote's moves after saving: close, reactivate, finalize, reopen and
// delete, each in one transaction with its history entry (spec section 4).
import type { DB } from "../db/database.ts";
import { isUuid } from "../db/ids.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import { closeBlocker, FINALIZABLE, reactivateBlocker, statusAfterSave } from "./rules.ts";
import { quoteExpiry } from "./quotes.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import { notFound, statusChange, type WriteResult } from "./quote_writes.ts";

/** Moves a quote to a new status when `allowed` says it may, bumping its version. */
async function transition(
  db: DB,
  id: string,
  actor: AuditActor,
  action: string,
  decide: (
    trx: DB,
    status: QuoteStatus,
    quote: {
      clientId: string;
      expiresAt: Date | null;
      saved: boolean;
    },
  ) => Promise<{ set: Record<string, unknown>; details?: Record<string, unknown> } | string>,
): Promise<WriteResult<null>> {
  if (!isUuid(id)) return notFound;
  return await db.transaction().execute(async (trx) => {
    const quote = await trx.selectFrom("quotes")
      .select(["id", "status", "version", "clientId", "expiresAt", "opticianName"])
      .where("id", "=", id).forUpdate().executeTakeFirst();
    if (!quote) return notFound;
    // Reads inside the decision use the transaction: PGlite has a single
    // connection, so a query outside it would wait forever.
    const decision = await decide(trx, quote.status, {
      clientId: quote.clientId,
      expiresAt: quote.expiresAt,
      saved: quote.opticianName.trim() !== "",
    });
    if (typeof decision === "string") return { ok: false, status: 409, message: decision };
    await trx.updateTable("quotes")
      .set({ ...decision.set, version: quote.version + 1, updatedAt: new Date() })
      .where("id", "=", id).execute();
    await recordAudit(trx, actor, action, "quote", id, decision.details ?? {});
    return { ok: true, value: null };
  });
}

export function closeQuote(db: DB, id: string, reason: string, actor: AuditActor) {
  return transition(db, id, actor, "quote.close", (_trx, status) =>
    Promise.resolve(
      closeBlocker(status) ?? {
        set: { status: "CLOSED", closureReason: reason, closedAt: new Date() },
        details: { ...statusChange(status, "CLOSED"), reason },
      },
    ));
}

/** Back to work with a fresh expiry from the settings: for expired or closed quotes. */
export function reactivateQuote(db: DB, id: string, actor: AuditActor) {
  return transition(db, id, actor, "quote.reactivate", async (trx, status, quote) => {
    const blocker = reactivateBlocker({ status, expiresAt: quote.expiresAt });
    if (blocker) return blocker;
    const settings = await trx.selectFrom("settings")
      .select(["quoteExpirationEnabled", "quoteExpirationDays"]).where("id", "=", 1)
      .executeTakeFirstOrThrow();
    const m = await trx.selectFrom("clientMeasurements").select("measurementsComplete")
      .where("clientId", "=", quote.clientId).executeTakeFirst();
    // An expired quote keeps its status; a closed one goes back to open work,
    // or to DRAFT when it was never saved (no optician yet).
    const next = status !== "CLOSED"
      ? status
      : quote.saved
      ? statusAfterSave(m?.measurementsComplete ?? false)
      : "DRAFT";
    const expiresAt = quoteExpiry(settings, new Date());
    return {
      set: { status: next, expiresAt, closureReason: null, closedAt: null },
      details: {
        ...statusChange(status, next),
        changes: [{
          field: "expiresAt",
          from: quote.expiresAt?.toISOString() ?? null,
          to: expiresAt?.toISOString() ?? null,
        }],
      },
    };
  });
}

export function finalizeQuote(db: DB, id: string, actor: AuditActor) {
  return transition(db, id, actor, "quote.finalize", (_trx, status) =>
    Promise.resolve(
      FINALIZABLE.includes(status)
        ? {
          set: { status: "FINALIZED", finalizedAt: new Date() },
          details: statusChange(status, "FINALIZED"),
        }
        : status === "FINALIZED"
        ? "This quote is already finalized."
        : "Only an active, emailed or accepted quote can be finalized. Save it first.",
    ));
}

/**
 * An owner takes a finalized quote back to work: ACTIVE, or PENDING_MEASUREMENTS
 * while the client's measurements are incomplete. The reason is audited.
 * (The role is checked by the route; this checks the quote.)
 */
export function reopenQuote(db: DB, id: string, reason: string, actor: AuditActor) {
  return transition(db, id, actor, "quote.reopen", async (trx, status, quote) => {
    if (status !== "FINALIZED") return "Only a finalized quote can be reopened.";
    const m = await trx.selectFrom("clientMeasurements").select("measurementsComplete")
      .where("clientId", "=", quote.clientId).executeTakeFirst();
    const next = statusAfterSave(m?.measurementsComplete ?? false);
    return { set: { status: next }, details: { ...statusChange(status, next), reason } };
  });
}

/** Deletes a quote with its options and items (they cascade), and records who did it. */
export async function deleteQuote(db: DB, id: string, actor: AuditActor): Promise<boolean> {
  if (!isUuid(id)) return false;
  return await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("quotes")
      .select(["quoteNumber", "clientId", "status", "storeId"])
      .where("id", "=", id).forUpdate().executeTakeFirst();
    if (!row) return false;
    const { storeId, ...quote } = row;
    await trx.deleteFrom("quotes").where("id", "=", id).execute();
    // Named here: once the quote is gone its store cannot be read.
    await recordAudit(trx, actor, "quote.delete", "quote", id, quote, storeId);
    return true;
  });
}
