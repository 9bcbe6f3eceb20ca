// Returning clients: a new quote starts from the client's previous quote's
// measurements (PD, SEG/OC and extras), marked "carried over from Q-xxxx,
// date" until someone confirms them at the chair.
import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import { findMeasurements } from "../clients/measurements.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import { editBlocker } from "./rules.ts";
import { isUuid } from "../db/ids.ts";

/** What a quote took over, as the builder shows it. */
export interface CarryOverView {
  sourceQuoteId: string | null;
  sourceQuoteNumber: string;
  /** When the source quote was made (ISO). */
  sourceDate: string;
  pdBinocular: string;
  pdNear: string;
  segOc: string;
  extras: Record<string, string>;
  confirmedAt: string | null;
  confirmedBy: string | null;
}

/**
 * Called when a quote is created, inside its transaction: when the client has
 * an earlier quote, the new quote's first option gets that quote's SEG/OC
 * (of its chosen option, else its first), and the quote records what it took
 * over. PD and extras live with the client, so they are what the earlier
 * quote was made with; they are recorded too, for the mark. Nothing is
 * recorded when there was nothing to carry.
 */
export async function carryOverLastMeasurements(
  trx: DB,
  clientId: string,
  quoteId: string,
  optionId: string,
): Promise<CarryOverView | undefined> {
  const source = await trx.selectFrom("quotes").select(["id", "quoteNumber", "createdAt"])
    .where("clientId", "=", clientId).where("id", "<>", quoteId)
    .orderBy("createdAt", "desc").orderBy("id", "desc").executeTakeFirst();
  if (!source) return undefined;
  const [option, measurements] = await Promise.all([
    trx.selectFrom("quoteOptions")
      .leftJoin("optionFrameMeasurements as f", "f.optionId", "quoteOptions.id")
      .select(["f.segOc"])
      .where("quoteOptions.quoteId", "=", source.id)
      .orderBy("quoteOptions.isChosen", "desc").orderBy("quoteOptions.position")
      .executeTakeFirst(),
    findMeasurements(trx, clientId),
  ]);
  const segOc = option?.segOc?.trim() ?? "";
  const pdBinocular = measurements?.pdBinocular ?? "0";
  const pdNear = measurements?.pdNear ?? "0";
  const extras = (measurements?.extras as Record<string, string> | undefined) ?? {};
  const nothing = segOc === "" && Number(pdBinocular) === 0 && Number(pdNear) === 0 &&
    Object.keys(extras).length === 0;
  if (nothing) return undefined;
  if (segOc) {
    await trx.insertInto("optionFrameMeasurements")
      .values({ optionId, segOc, updatedAt: new Date() }).execute();
  }
  await trx.insertInto("quoteCarryOvers").values({
    quoteId,
    sourceQuoteId: source.id,
    sourceQuoteNumber: source.quoteNumber,
    sourceDate: source.createdAt,
    pdBinocular,
    pdNear,
    segOc,
    extras: sql`${JSON.stringify(extras)}::text::jsonb`,
  }).execute();
  return await findCarryOver(trx, quoteId);
}

/** The carry-over columns of a quote (findQuoteBundle nests the same ones as JSON). */
function carryOverQuery(db: DB) {
  return db.selectFrom("quoteCarryOvers as co").select([
    "co.sourceQuoteId",
    "co.sourceQuoteNumber",
    "co.sourceDate",
    sql<string>`trim_scale(co.pd_binocular)::text`.as("pdBinocular"),
    sql<string>`trim_scale(co.pd_near)::text`.as("pdNear"),
    "co.segOc",
    "co.extras",
    "co.confirmedAt",
    "co.confirmedBy",
  ]);
}

type CarryOverRow = {
  sourceQuoteId: string | null;
  sourceQuoteNumber: string;
  sourceDate: Date | string;
  pdBinocular: string;
  pdNear: string;
  segOc: string;
  extras: unknown;
  confirmedAt: Date | string | null;
  confirmedBy: string | null;
};

/** A row of carryOverQuery, read directly (Dates) or nested as JSON (ISO strings). */
export function carryOverView(row: CarryOverRow): CarryOverView {
  return {
    ...row,
    extras: (row.extras as Record<string, string>) ?? {},
    sourceDate: new Date(row.sourceDate).toISOString(),
    confirmedAt: row.confirmedAt === null ? null : new Date(row.confirmedAt).toISOString(),
  };
}

export async function findCarryOver(db: DB, quoteId: string): Promise<CarryOverView | undefined> {
  if (!isUuid(quoteId)) return undefined;
  const row = await carryOverQuery(db).where("co.quoteId", "=", quoteId).executeTakeFirst();
  return row ? carryOverView(row) : undefined;
}

export type ConfirmResult =
  | { ok: true; value: CarryOverView }
  | { ok: false; status: 404 | 409; message: string };

/** Staff checked the carried-over values at the chair: the mark becomes "confirmed". */
export async function confirmCarryOver(
  db: DB,
  quoteId: string,
  actor: AuditActor,
): Promise<ConfirmResult> {
  if (!isUuid(quoteId)) return { ok: false, status: 404, message: "Quote not found" };
  return await db.transaction().execute(async (trx): Promise<ConfirmResult> => {
    const quote = await trx.selectFrom("quotes").select("status").where("id", "=", quoteId)
      .forUpdate().executeTakeFirst();
    if (!quote) return { ok: false, status: 404, message: "Quote not found" };
    const blocker = editBlocker(quote.status);
    if (blocker) return { ok: false, status: 409, message: blocker };
    const updated = await trx.updateTable("quoteCarryOvers")
      .set({ confirmedAt: new Date(), confirmedBy: actor.label })
      .where("quoteId", "=", quoteId).where("confirmedAt", "is", null)
      .returning("sourceQuoteNumber").executeTakeFirst();
    if (updated) {
      await recordAudit(trx, actor, "quote.carry_over_confirm", "quote", quoteId, {
        from: updated.sourceQuoteNumber,
      });
    }
    const view = await findCarryOver(trx, quoteId);
    if (!view) {
      return { ok: false, status: 404, message: "This quote has no carried-over measurements" };
    }
    return { ok: true, value: view };
  });
}
