import { sql } from "kysely";
import { jsonArrayFrom, jsonObjectFrom } from "kysely/helpers/postgres";
import { type DB, genericPlans } from "../db/database.ts";
import { readThrough } from "../db/read_through.ts";
import { type Lookup, quoteMatches, searchWords } from "../search/match.ts";
import { CAPPED_MATCHES, cappedPage, matchCount } from "../search/capped.ts";
import { pageOf, totalFromPage } from "../db/paging.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import { isUuid } from "../clients/clients.ts";
import type { SaveQuoteInput, SelectionInput } from "../schemas/quote.ts";
import {
  closeBlocker,
  editBlocker,
  expiredBlocker,
  FINALIZABLE,
  isExpired,
  QUOTE_STATUSES,
  reactivateBlocker,
  type SaveProblem,
  saveProblems,
  statusAfterSave,
  subtotalDecimal,
} from "./rules.ts";
import { quoteExpiry } from "./quotes.ts";
import { carryOverView } from "./carry_over.ts";
import type { QuoteBundle, QuoteSummary, SaveResult, Stats } from "./views.ts";
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

const money = (col: string) => sql<string>`${sql.ref(col)}::text`;

/**
 * A quote with its client, options, items and the client's measurements, in
 * one statement (the options and their items as nested JSON arrays, in order):
 * the builder and GET /api/quotes/{id} are opened all day.
 */
export async function findQuoteBundle(db: DB, id: string): Promise<QuoteBundle | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db.selectFrom("quotes")
    .innerJoin("clients", "clients.id", "quotes.clientId")
    .leftJoin("heardHowOptions as h", "h.id", "clients.heardHowId")
    .leftJoin("clientMeasurements as m", "m.clientId", "quotes.clientId")
    .select((eb) => [
      "quotes.id",
      "quotes.quoteNumber",
      "quotes.clientId",
      "quotes.opticianName",
      "quotes.status",
      "quotes.internalNotes",
      "quotes.createdAt",
      "quotes.updatedAt",
      "quotes.expiresAt",
      "quotes.closureReason",
      "quotes.footerMessage",
      "quotes.version",
      "clients.firstName",
      "clients.middleName",
      "clients.lastName",
      "clients.email",
      "clients.mobilePhone",
      "clients.homePhone",
      sql<string | null>`to_char(clients.dob, 'YYYY-MM-DD')`.as("dob"),
      "clients.address1",
      "clients.address2",
      "clients.city",
      "clients.state",
      "clients.zip",
      "clients.smsConsent",
      "clients.emailConsent",
      "clients.heardHowText",
      "h.label as heardHowLabel",
      // trim_scale as findMeasurements: 62.0 reads "62".
      sql<string | null>`trim_scale(m.pd_binocular)::text`.as("pdBinocular"),
      sql<string | null>`trim_scale(m.pd_near)::text`.as("pdNear"),
      "m.measurementsComplete",
      "m.extras",
      jsonArrayFrom(
        eb.selectFrom("quoteOptions")
          .leftJoin("optionFrameMeasurements as f", "f.optionId", "quoteOptions.id")
          .select((oe) => [
            "quoteOptions.id",
            "quoteOptions.label",
            "quoteOptions.notes",
            "quoteOptions.isChosen",
            money("quoteOptions.shipping").as("shipping"),
            money("quoteOptions.adjustmentAmount").as("adjustmentAmount"),
            "quoteOptions.adjustmentReason",
            money("quoteOptions.subtotal").as("subtotal"),
            "f.segOc",
            jsonArrayFrom(
              oe.selectFrom("optionItems")
                .select([
                  "optionItems.id",
                  "optionItems.kind",
                  "optionItems.name",
                  "optionItems.sku",
                  money("optionItems.unitPrice").as("unitPrice"),
                  "optionItems.qty",
                  "optionItems.notes",
                  "optionItems.catalogId",
                ])
                .whereRef("optionItems.optionId", "=", "quoteOptions.id")
                .orderBy("optionItems.position"),
            ).as("items"),
          ])
          .whereRef("quoteOptions.quoteId", "=", "quotes.id")
          .orderBy("quoteOptions.position"),
      ).as("options"),
      // Only a returning client's new quote has one; same statement, by its key.
      // (The columns of carryOverQuery in src/quotes/carry_over.ts, nested as JSON.)
      jsonObjectFrom(
        eb.selectFrom("quoteCarryOvers as co").select([
          "co.sourceQuoteId",
          "co.sourceQuoteNumber",
          "co.sourceDate",
          sql<string>`trim_scale(co.pd_binocular)::text`.as("pdBinocular"),
          sql<string>`trim_scale(co.pd_near)::text`.as("pdNear"),
          "co.segOc",
          "co.extras",
          "co.confirmedAt",
          "co.confirmedBy",
        ]).whereRef("co.quoteId", "=", "quotes.id"),
      ).as("carryOver"),
    ])
    .where("quotes.id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const carryOver = row.carryOver ? carryOverView(row.carryOver) : undefined;
  const optionViews = row.options.map(({ segOc, ...o }) => ({
    ...o,
    frameMeasurements: { segOc: segOc ?? "" },
  }));
  const measurements = row.measurementsComplete === null ? undefined : {
    pdBinocular: row.pdBinocular ?? "0",
    pdNear: row.pdNear ?? "0",
    measurementsComplete: row.measurementsComplete,
    extras: row.extras,
  };
  return {
    quote: {
      id: row.id,
      quoteNumber: row.quoteNumber,
      clientId: row.clientId,
      clientName: `${row.firstName} ${row.lastName}`,
      opticianName: row.opticianName,
      status: row.status,
      internalNotes: row.internalNotes,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      expiresAt: row.expiresAt?.toISOString() ?? null,
      isExpired: isExpired(row),
      isClosed: row.status === "CLOSED",
      closureReason: row.closureReason,
      footerMessage: row.footerMessage,
      version: row.version,
    },
    client: {
      id: row.clientId,
      firstName: row.firstName,
      middleName: row.middleName,
      lastName: row.lastName,
      email: row.email,
      mobilePhone: row.mobilePhone,
      homePhone: row.homePhone,
      dob: row.dob,
      address1: row.address1,
      address2: row.address2,
      city: row.city,
      state: row.state,
      zip: row.zip,
      smsConsent: row.smsConsent,
      emailConsent: row.emailConsent,
      heardHow: row.heardHowLabel ??
        (row.heardHowText
          ? `Other: ${row.heardHowText}`
          : row.heardHowText === ""
          ? "Other"
          : null),
    },
    options: optionViews,
    clientMeasurements: {
      pdBinocular: measurements?.pdBinocular ?? "0",
      pdNear: measurements?.pdNear ?? "0",
      measurementsComplete: measurements?.measurementsComplete ?? false,
      extras: (measurements?.extras as Record<string, string>) ?? {},
    },
    frameMeasurements: Object.fromEntries(
      optionViews.map((o) => [o.id, o.frameMeasurements]),
    ),
    // Only when there is one: the answer keeps the spec's shape for every other quote.
    ...(carryOver ? { carryOver } : {}),
  };
}

/** What findQuoteBundle reads. */
const BUNDLE_TABLES = [
  "quotes",
  "clients",
  "heard_how_options",
  "client_measurements",
  "quote_options",
  "option_frame_measurements",
  "option_items",
  "quote_carry_overs",
];

/**
 * findQuoteBundle, kept while none of its tables is written (src/db/read_through.ts)
 * and for at most a second, the time `isExpired` may show late.
 */
export function readQuoteBundle(db: DB, id: string): Promise<QuoteBundle | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return readThrough(db, {
    key: `quote-bundle:${id.toLowerCase()}`,
    tables: BUNDLE_TABLES,
    maxAgeMs: 1_000,
    load: () => findQuoteBundle(db, id),
  });
}

export type WriteResult<T> =
  | { ok: true; value: T }
  | { ok: false; status: 400 | 404 | 409; message: string; problems?: SaveProblem[] };

const notFound = { ok: false, status: 404, message: "Quote not found" } as const;
export const STALE_MESSAGE =
  "This quote was changed elsewhere (for example on the tablet) since you opened it. " +
  "Reload the page to see the latest version; nothing you had saved before was lost.";

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

/** A status change as the history records it, or nothing when it stayed. */
const statusChange = (from: QuoteStatus, to: QuoteStatus) =>
  from === to ? {} : { status: { from, to } };

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
  return await db.transaction().execute(async (trx) => {
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
      if (option.items.length) {
        await trx.insertInto("optionItems").values(
          option.items.map((item, i) => ({
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

async function upsertSegOc(db: DB, optionId: string, segOc: string) {
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
  return await db.transaction().execute(async (trx) => {
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

// ---- Dashboard ----

/**
 * A quote's total for lists: the chosen options' totals added up when the
 * client chose any, else the first option's total.
 */
const quoteTotal = sql<string>`coalesce(
  (select sum(o.subtotal + o.shipping + o.adjustment_amount) from quote_options o
    where o.quote_id = quotes.id and o.is_chosen),
  (select o.subtotal + o.shipping + o.adjustment_amount from quote_options o
    where o.quote_id = quotes.id order by o.position limit 1),
  0)::numeric(12,2)::text`;

function summaries(db: DB) {
  return db.selectFrom("quotes").innerJoin("clients", "clients.id", "quotes.clientId").select([
    "quotes.id",
    "quotes.clientId",
    sql<string>`clients.first_name || ' ' || clients.last_name`.as("clientName"),
    "quotes.quoteNumber",
    "quotes.status",
    quoteTotal.as("total"),
    "quotes.createdAt",
    "quotes.expiresAt",
  ]);
}

type SummaryRow = Omit<QuoteSummary, "createdAt" | "expiresAt"> & {
  createdAt: Date;
  expiresAt: Date | null;
};
const toSummary = (r: SummaryRow): QuoteSummary => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  expiresAt: r.expiresAt?.toISOString() ?? null,
});

export const DASHBOARD_LIST_SIZE = 5;
/** Statuses counted as active work on the dashboard (when not expired). */
export const ACTIVE_STATUSES: QuoteStatus[] = [
  "ACTIVE",
  "PENDING_MEASUREMENTS",
  "EMAILED",
  "ACCEPTED",
];

const recentQuotes = (db: DB, limit: number) =>
  summaries(db).orderBy("quotes.updatedAt", "desc").orderBy("quotes.id", "desc").limit(limit);

const expiredQuotes = (db: DB, limit: number, now: Date) =>
  summaries(db).where("quotes.status", "!=", "CLOSED")
    .where("quotes.expiresAt", "<", now).orderBy("quotes.expiresAt", "desc")
    .orderBy("quotes.id", "desc").limit(limit);

/** Every status but CLOSED. */
const OPEN_STATUSES = QUOTE_STATUSES.filter((s) => s !== "CLOSED");

/** The UTC day of `now` and its first instant: the buckets of quote_expiry_counts. */
function utcDay(now: Date): { day: string; start: Date } {
  const start = new Date(now);
  start.setUTCHours(0, 0, 0, 0);
  return { day: start.toISOString().slice(0, 10), start };
}

/**
 * Open quotes past their expiry: the per-day counts of the days before today
 * (migration 0016 keeps them) plus today's expired quotes, read off the expiry
 * index. Constant work however many quotes expired over the years.
 */
const expiredCount = (db: DB, now: Date) => {
  const { day, start } = utcDay(now);
  // The statuses by name, not `<> 'CLOSED'`, so the counts' primary key can
  // serve the sum where that is cheaper than reading the small table whole
  // (for the days before today, most of its rows, the planner reads it whole).
  const before = db.selectFrom("quoteExpiryCounts").select(sql<string>`coalesce(sum(n), 0)`.as("n"))
    .where("status", "in", OPEN_STATUSES).where("expiresOn", "<", sql<string>`${day}::date`);
  const today = db.selectFrom("quotes").select((eb) => eb.fn.countAll<string>().as("n"))
    .where("status", "!=", "CLOSED").where("expiresAt", ">=", start).where("expiresAt", "<", now);
  return db.selectNoFrom(sql<string>`((${before}) + (${today}))::bigint`.as("n"));
};

export async function listRecentQuotes(db: DB, limit = DASHBOARD_LIST_SIZE) {
  const rows = await recentQuotes(db, limit).execute();
  return rows.map(toSummary);
}

export async function listExpiredQuotes(db: DB, limit = DASHBOARD_LIST_SIZE, now = new Date()) {
  const rows = await expiredQuotes(db, limit, now).execute();
  return rows.map(toSummary);
}

export async function countExpiredQuotes(db: DB, now = new Date()): Promise<number> {
  const row = await expiredCount(db, now).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Today starts at local midnight of the server's time zone (TZ). */
export function startOfToday(now = new Date()): Date {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d;
}

/**
 * Open work that has not expired: the per-day counts from today on (no expiry
 * is the day 'infinity') less today's quotes that already expired, read off
 * the active expiry index.
 */
const activeCount = (db: DB, now: Date) => {
  const { day, start } = utcDay(now);
  const fromToday = db.selectFrom("quoteExpiryCounts")
    .select(sql<string>`coalesce(sum(n), 0)`.as("n"))
    .where("status", "in", ACTIVE_STATUSES).where("expiresOn", ">=", sql<string>`${day}::date`);
  const expiredToday = db.selectFrom("quotes").select((eb) => eb.fn.countAll<string>().as("n"))
    .where("status", "in", ACTIVE_STATUSES)
    .where("expiresAt", ">=", start).where("expiresAt", "<", now);
  return db.selectNoFrom(sql<string>`((${fromToday}) - (${expiredToday}))::bigint`.as("n"));
};

// Bounded on both sides (no client is created tomorrow): a closed range is
// what the planner, without statistics yet, reads through the index.
const newClientsCount = (db: DB, now: Date) => {
  const today = startOfToday(now);
  const tomorrow = new Date(today);
  tomorrow.setDate(tomorrow.getDate() + 1);
  return db.selectFrom("clients").select((eb) => eb.fn.countAll<string>().as("n"))
    .where("createdAt", ">=", today).where("createdAt", "<", tomorrow);
};

export async function findStats(db: DB, now = new Date()): Promise<Stats> {
  const [active, clients] = await Promise.all([
    activeCount(db, now).executeTakeFirstOrThrow(),
    newClientsCount(db, now).executeTakeFirstOrThrow(),
  ]);
  return { activeQuotes: Number(active.n), newClients: Number(clients.n) };
}

/** Everything the dashboard shows. */
export interface Dashboard {
  stats: Stats;
  recent: QuoteSummary[];
  expired: QuoteSummary[];
  expiredCount: number;
}

/** JSON hands timestamps back as text; the summaries carry them as ISO strings. */
type JsonSummary = Omit<QuoteSummary, "createdAt" | "expiresAt"> & {
  createdAt: string;
  expiresAt: string | null;
};
const fromJson = (r: JsonSummary): QuoteSummary => ({
  ...r,
  createdAt: new Date(r.createdAt).toISOString(),
  expiresAt: r.expiresAt ? new Date(r.expiresAt).toISOString() : null,
});

/**
 * The dashboard in one round trip: the same counts and lists as findStats,
 * listRecentQuotes, listExpiredQuotes and countExpiredQuotes, as subqueries of
 * one statement. The lists are served by indexes of migration 0015, the two
 * counts by the per-day counts of migration 0016 and today's part of those
 * indexes (tests/api/hot_plan_test.ts checks the plans).
 */
export function dashboardParts(db: DB, now = new Date()) {
  return {
    activeQuotes: activeCount(db, now),
    newClients: newClientsCount(db, now),
    expiredCount: expiredCount(db, now),
    recent: recentQuotes(db, DASHBOARD_LIST_SIZE),
    expired: expiredQuotes(db, DASHBOARD_LIST_SIZE, now),
  };
}

export function dashboardQuery(db: DB, now = new Date()) {
  const parts = dashboardParts(db, now);
  return db.selectNoFrom([
    parts.activeQuotes.as("activeQuotes"),
    parts.newClients.as("newClients"),
    parts.expiredCount.as("expiredCount"),
    jsonArrayFrom(parts.recent).as("recent"),
    jsonArrayFrom(parts.expired).as("expired"),
  ]);
}

export async function loadDashboard(db: DB, now = new Date()): Promise<Dashboard> {
  const row = await dashboardQuery(db, now).executeTakeFirstOrThrow();
  return {
    stats: { activeQuotes: Number(row.activeQuotes), newClients: Number(row.newClients) },
    recent: (row.recent as JsonSummary[]).map(fromJson),
    expired: (row.expired as JsonSummary[]).map(fromJson),
    expiredCount: Number(row.expiredCount),
  };
}

/** What the dashboard reads (quote_expiry_counts is kept by triggers on quotes). */
const DASHBOARD_TABLES = ["quotes", "quote_options", "clients"];

/**
 * The dashboard as every staff member sees it, kept between views while no
 * quote, option or client is written (src/db/read_through.ts) and for at most
 * a second: quotes expire with time alone, and the counts show that at most a
 * second late.
 */
export function readDashboard(db: DB): Promise<Dashboard> {
  return readThrough(db, {
    key: "dashboard",
    tables: DASHBOARD_TABLES,
    maxAgeMs: 1_000,
    load: () => loadDashboard(db),
  });
}

export type { SaveResult };

// ---- Quote management list ----

export interface QuoteListQuery {
  /** Matches quote number, client name or optician name. */
  q?: string;
  status?: QuoteStatus;
  /** Only quotes past their expiry that are not closed. */
  expired?: boolean;
  limit?: number;
  offset?: number;
}

/** The quotes a list query keeps, its words looked up as `lookup` says (match.ts). */
function listFilter(db: DB, query: QuoteListQuery, now: Date, lookup: Lookup) {
  let q = db.selectFrom("quotes");
  const words = searchWords(query.q ?? "");
  if (words.length) q = q.where(quoteMatches(words, lookup));
  if (query.status) q = q.where("quotes.status", "=", query.status);
  if (query.expired) {
    q = q.where("quotes.status", "!=", "CLOSED").where("quotes.expiresAt", "<", now);
  }
  return q;
}

/** A quotes list row's own columns (the client's e-mail is joined to them). */
const LIST_COLUMNS = [
  "quotes.id",
  "quotes.quoteNumber",
  "quotes.clientId",
  "quotes.clientName",
  "quotes.opticianName",
  "quotes.status",
  "quotes.createdAt",
  "quotes.expiresAt",
  "quotes.footerMessage",
] as const;

/** The quotes list's page: 100 rows unless asked, at most 500. */
const quotePage = (query: QuoteListQuery) => pageOf(query, 100, 500);

/**
 * The page of rows of listQuotes, apart so tests can look at its plan. A
 * search runs it only with more matches than the capped statement orders,
 * so its words are scanned for, not looked up (match.ts).
 */
export function listQuotesQuery(db: DB, query: QuoteListQuery, now = new Date()) {
  const { limit, offset } = quotePage(query);
  return listFilter(db, query, now, "scan").innerJoin("clients", "clients.id", "quotes.clientId")
    .select(LIST_COLUMNS).select("clients.email as clientEmail")
    .orderBy("quotes.createdAt", "desc").orderBy("quotes.id", "desc")
    .limit(limit).offset(offset);
}

/**
 * How many quotes listQuotes matches in all. Without the page's join: every
 * quote has its client (client_id is NOT NULL and a foreign key), and at
 * 75,000 matches the join was half of the count's 80 ms.
 */
export function countQuotesQuery(db: DB, query: QuoteListQuery, now = new Date()) {
  // Every match is counted: found through the gram index, however many.
  return listFilter(db, query, now, "grams").select((eb) => eb.fn.countAll<string>().as("n"));
}

/**
 * A page of a searched quote list from the first CAPPED_MATCHES + 1 quotes
 * the words find, with how many that was (src/search/capped.ts): one plan
 * for every word. The client's e-mail is joined to the page's rows only.
 */
export function cappedListQuotesQuery(db: DB, query: QuoteListQuery, now = new Date()) {
  const { limit, offset } = quotePage(query);
  const found = listFilter(db, query, now, "grams").select(LIST_COLUMNS);
  const page = db.selectFrom(found.limit(CAPPED_MATCHES + 1).as("found"))
    .selectAll("found").select(matchCount.as("matches"))
    .orderBy("found.createdAt", "desc").orderBy("found.id", "desc")
    .limit(limit).offset(offset).as("page");
  return db.selectFrom(page).innerJoin("clients", "clients.id", "page.clientId")
    .selectAll("page").select("clients.email as clientEmail")
    .orderBy("page.createdAt", "desc").orderBy("page.id", "desc");
}

/*
 * A search runs the capped statement first, and its page tells the total.
 * Otherwise the count runs only when the page cannot tell the total: a page
 * shorter than its limit is the end of the list.
 */
export async function listQuotes(db: DB, query: QuoteListQuery, now = new Date()) {
  const { limit, offset } = quotePage(query);
  const view = (rows: Awaited<ReturnType<ReturnType<typeof listQuotesQuery>["execute"]>>) =>
    rows.map((r) => ({
      id: r.id,
      quoteNumber: r.quoteNumber,
      clientId: r.clientId,
      clientName: r.clientName,
      clientEmail: r.clientEmail,
      opticianName: r.opticianName,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
      expiresAt: r.expiresAt?.toISOString() ?? null,
      footerMessage: r.footerMessage,
      isExpired: isExpired(r, now),
    }));
  if (searchWords(query.q ?? "").length) {
    const capped = await cappedPage(
      (firstRowOnly) =>
        cappedListQuotesQuery(
          genericPlans(db),
          firstRowOnly ? { ...query, offset: 0, limit: 1 } : query,
          now,
        ).execute(),
      offset,
    );
    if (capped) return { total: capped.total, rows: view(capped.rows) };
  }
  const rows = await listQuotesQuery(db, query, now).execute();
  const total = totalFromPage(offset, limit, rows.length) ??
    Number((await countQuotesQuery(db, query, now).executeTakeFirstOrThrow()).n);
  return { total, rows: view(rows) };
}

/** Deletes a quote with its options and items (they cascade), and records who did it. */
export async function deleteQuote(db: DB, id: string, actor: AuditActor): Promise<boolean> {
  if (!isUuid(id)) return false;
  return await db.transaction().execute(async (trx) => {
    const quote = await trx.selectFrom("quotes").select(["quoteNumber", "clientId", "status"])
      .where("id", "=", id).forUpdate().executeTakeFirst();
    if (!quote) return false;
    await trx.deleteFrom("quotes").where("id", "=", id).execute();
    await recordAudit(trx, actor, "quote.delete", "quote", id, quote);
    return true;
  });
}
