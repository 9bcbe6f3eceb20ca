// Saving a quote: the builder's save (options and items replaced in one
// transaction, from the version it was loaded at), the tablet's selection and
// the SEG/OC of one option. The lifecycle's moves are quote_lifecycle.ts.
import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import { isUuid } from "../db/ids.ts";
import { inTransaction } from "../db/transaction.ts";
import type { ItemInput, SaveQuoteInput, SelectionInput } from "../schemas/quote.ts";
import {
  editBlocker,
  expiredBlocker,
  saveProblems,
  statusAfterSave,
  subtotalDecimal,
} from "./rules.ts";
import type { SaveResult } from "./views.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import { diffFields } from "../audit/describe.ts";
import {
  describeOptionChanges,
  optionName,
  type OptionState,
  type QuotePartChange,
  quoteTotalDecimal,
  summarizeOptionChanges,
} from "./history.ts";
import { notFound, STALE_MESSAGE, statusChange, type WriteResult } from "./quote_writes.ts";

const money = (col: string) => sql<string>`${sql.ref(col)}::text`;

async function lockQuote(db: DB, id: string) {
  return await db.selectFrom("quotes")
    .select([
      "id",
      "status",
      "version",
      "clientId",
      "opticianName",
      "internalNotes",
      "expiresAt",
    ])
    .where("id", "=", id).forUpdate().executeTakeFirst();
}

/** A quote's options with their items as stored, for the history's before/after. */
async function loadOptionStates(db: DB, quoteId: string): Promise<OptionState[]> {
  const [options, items] = await Promise.all([
    db.selectFrom("quoteOptions")
      .leftJoin("optionFrameMeasurements as f", "f.optionId", "quoteOptions.id")
      .select([
        "quoteOptions.id",
        "quoteOptions.label",
        "quoteOptions.notes",
        "quoteOptions.isChosen",
        money("quoteOptions.shipping").as("shipping"),
        money("quoteOptions.adjustmentAmount").as("adjustmentAmount"),
        "quoteOptions.adjustmentReason",
        sql<string>`coalesce(f.seg_oc, '')`.as("segOc"),
      ]).where("quoteOptions.quoteId", "=", quoteId).orderBy("quoteOptions.position").execute(),
    db.selectFrom("optionItems")
      .innerJoin("quoteOptions", "quoteOptions.id", "optionItems.optionId")
      .select([
        "optionItems.optionId",
        "optionItems.kind",
        "optionItems.name",
        "optionItems.sku",
        money("optionItems.unitPrice").as("unitPrice"),
        "optionItems.qty",
        "optionItems.notes",
        "optionItems.catalogId",
      ])
      .where("quoteOptions.quoteId", "=", quoteId).orderBy("optionItems.position").execute(),
  ]);
  return options.map((o) => ({
    ...o,
    items: items.filter((i) => i.optionId === o.id).map(({ optionId: _, ...i }) => i),
  }));
}

/**
 * The builder's save, in one transaction: options and items are replaced by
 * what the builder sent (temp- ids get real ones), subtotals are recomputed
 * here, and the status follows the save rule. A save made from an older
 * version than the stored one is refused and changes nothing.
 */
export async function saveQuote(
  db: DB,
  id: string,
  input: SaveQuoteInput,
  actor: AuditActor,
): Promise<WriteResult<{ idMap: Record<string, string> }>> {
  if (!isUuid(id)) return notFound;
  const problems = saveProblems(input);
  if (problems.length) return { ok: false, status: 400, message: problems[0].message, problems };
  return await inTransaction(db, async (trx) => {
    const quote = await lockQuote(trx, id);
    if (!quote) return notFound;
    if (quote.version !== input.version) return { ok: false, status: 409, message: STALE_MESSAGE };
    const blocker = editBlocker(quote.status);
    if (blocker) return { ok: false, status: 409, message: blocker };

    const beforeOptions = await loadOptionStates(trx, id);
    const existingIds = new Set(beforeOptions.map((o) => o.id));
    const keep = new Set(input.options.map((o) => o.id).filter((oid) => existingIds.has(oid)));
    const removed = [...existingIds].filter((oid) => !keep.has(oid));
    if (removed.length) await trx.deleteFrom("quoteOptions").where("id", "in", removed).execute();
    // Free the positions first so renumbering never trips the (quote, position) key.
    await trx.updateTable("quoteOptions").set((eb) => ({ position: eb("position", "+", 1000) }))
      .where("quoteId", "=", id).execute();

    const idMap: Record<string, string> = {};
    for (const [position, option] of input.options.entries()) {
      const values = {
        position,
        label: option.label,
        notes: option.notes,
        isChosen: option.isChosen,
        shipping: option.shipping,
        adjustmentAmount: option.adjustmentAmount,
        adjustmentReason: option.adjustmentReason,
        subtotal: subtotalDecimal(option.items),
      };
      let optionId: string;
      if (keep.has(option.id)) {
        optionId = option.id;
        await trx.updateTable("quoteOptions").set(values).where("id", "=", optionId).execute();
        await trx.deleteFrom("optionItems").where("optionId", "=", optionId).execute();
      } else {
        // Unknown ids (temp- or another quote's) always become new options of this quote.
        const inserted = await trx.insertInto("quoteOptions").values({ quoteId: id, ...values })
          .returning("id").executeTakeFirstOrThrow();
        optionId = inserted.id;
        idMap[option.id] = optionId;
      }
      await insertOptionItems(trx, optionId, option.items);
      if (option.segOc !== undefined) {
        await upsertSegOc(trx, optionId, option.segOc);
      }
    }

    const measurements = await trx.selectFrom("clientMeasurements")
      .select("measurementsComplete").where("clientId", "=", quote.clientId).executeTakeFirst();
    const status = statusAfterSave(measurements?.measurementsComplete ?? false);
    await trx.updateTable("quotes").set({
      opticianName: input.opticianName,
      internalNotes: input.internalNotes,
      status,
      version: quote.version + 1,
      updatedAt: new Date(),
    }).where("id", "=", id).execute();
    // Who changed what: status and optician old → new, whether the notes were
    // edited (never their text), the options as counts, every option's and
    // item's field old → new, and the totals.
    const afterOptions = input.options.map((o) => ({
      ...o,
      items: o.items.map((i) => ({ ...i, sku: i.kind === "FRAME" ? i.sku ?? "" : null })),
    }));
    const totalBefore = beforeOptions.length ? quoteTotalDecimal(beforeOptions) : "0.00";
    const totalAfter = quoteTotalDecimal(afterOptions);
    await recordAudit(trx, actor, "quote.save", "quote", id, {
      version: quote.version + 1,
      ...statusChange(quote.status, status),
      changes: diffFields(quote, input, ["opticianName"]),
      ...(quote.internalNotes !== input.internalNotes ? { notesChanged: true } : {}),
      options: summarizeOptionChanges(beforeOptions, afterOptions),
      parts: describeOptionChanges(beforeOptions, afterOptions),
      ...(totalBefore !== totalAfter ? { total: { from: totalBefore, to: totalAfter } } : {}),
    });
    return { ok: true, value: { idMap } };
  });
}

/** An option's items, in their order. */
export async function insertOptionItems(db: DB, optionId: string, items: readonly ItemInput[]) {
  if (!items.length) return;
  await db.insertInto("optionItems").values(
    items.map((item, i) => ({
      optionId,
      position: i,
      kind: item.kind,
      name: item.name,
      sku: item.kind === "FRAME" ? item.sku ?? "" : null,
      unitPrice: item.unitPrice,
      qty: item.qty,
      notes: item.notes,
      catalogId: item.catalogId,
    })),
  ).execute();
}

export async function upsertSegOc(db: DB, optionId: string, segOc: string) {
  const now = new Date();
  await db.insertInto("optionFrameMeasurements").values({ optionId, segOc, updatedAt: now })
    .onConflict((oc) => oc.column("optionId").doUpdateSet({ segOc, updatedAt: now })).execute();
}

/** The tablet's confirmation: the chosen options, and the quote is ACCEPTED. */
export async function saveSelection(
  db: DB,
  id: string,
  input: SelectionInput,
  actor: AuditActor,
): Promise<WriteResult<null>> {
  if (!isUuid(id)) return notFound;
  return await inTransaction(db, async (trx) => {
    const quote = await lockQuote(trx, id);
    if (!quote) return notFound;
    if (input.version !== quote.version) return { ok: false, status: 409, message: STALE_MESSAGE };
    const blocker = editBlocker(quote.status) ?? expiredBlocker(quote, "confirm");
    if (blocker) return { ok: false, status: 409, message: blocker };
    const options = await trx.selectFrom("quoteOptions").select("id").where("quoteId", "=", id)
      .execute();
    const own = new Set(options.map((o) => o.id));
    const sent = new Set(input.options.map((o) => o.id));
    if ([...sent].some((oid) => !own.has(oid))) {
      return { ok: false, status: 400, message: "An option does not belong to this quote" };
    }
    // The client answers for every option, so none keeps a stale choice.
    if (sent.size !== own.size) {
      return { ok: false, status: 400, message: "Send the choice for every option of the quote" };
    }
    for (const option of input.options) {
      await trx.updateTable("quoteOptions").set({ isChosen: option.isChosen })
        .where("id", "=", option.id).execute();
    }
    const now = new Date();
    await trx.updateTable("quotes").set({
      status: "ACCEPTED",
      // The first acceptance counts for the report, whatever happens after.
      acceptedAt: sql<Date>`coalesce(accepted_at, ${now})`,
      version: quote.version + 1,
      updatedAt: now,
    }).where("id", "=", id).execute();
    await recordAudit(trx, actor, "quote.accept", "quote", id, {
      ...statusChange(quote.status, "ACCEPTED"),
      chosen: input.options.filter((o) => o.isChosen).length,
    });
    return { ok: true, value: null };
  });
}

/** SEG/OC of one saved option, written on each edit in the builder, and its history. */
export async function updateOptionSegOc(
  db: DB,
  optionId: string,
  segOc: string,
  actor: AuditActor,
): Promise<WriteResult<null>> {
  if (!isUuid(optionId)) return { ok: false, status: 404, message: "Quote option not found" };
  return await db.transaction().execute(async (trx) => {
    const option = await trx.selectFrom("quoteOptions")
      .innerJoin("quotes", "quotes.id", "quoteOptions.quoteId")
      .leftJoin("optionFrameMeasurements as f", "f.optionId", "quoteOptions.id")
      .select([
        "quoteOptions.id",
        "quoteOptions.quoteId",
        "quoteOptions.position",
        "quoteOptions.label",
        "quotes.status",
        sql<string>`coalesce(f.seg_oc, '')`.as("segOc"),
      ])
      .where("quoteOptions.id", "=", optionId).forUpdate(["quoteOptions"]).executeTakeFirst();
    if (!option) return { ok: false, status: 404, message: "Quote option not found" };
    const blocker = editBlocker(option.status);
    if (blocker) return { ok: false, status: 409, message: blocker };
    await upsertSegOc(trx, optionId, segOc);
    if (option.segOc !== segOc) {
      const before = await trx.selectFrom("quoteOptions").select((eb) => eb.fn.countAll().as("n"))
        .where("quoteId", "=", option.quoteId).where("position", "<", option.position)
        .executeTakeFirstOrThrow();
      const part: QuotePartChange = {
        option: optionName(option, Number(before.n)),
        field: "segOc",
        from: option.segOc || null,
        to: segOc || null,
      };
      await recordAudit(trx, actor, "quote.seg_oc", "quote", option.quoteId, { parts: [part] });
    }
    return { ok: true, value: null };
  });
}

export type { SaveResult };
