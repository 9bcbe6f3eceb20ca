import { type ExpressionBuilder, sql } from "kysely";
import { type DB, genericPlans } from "../db/database.ts";
import { clientMatches, searchWords } from "../search/match.ts";
import { CAPPED_MATCHES, cappedPage, matchCount } from "../search/capped.ts";
import { type HeadCounts, headRows, readHead, readInListOrder } from "../search/head.ts";
import type { Database } from "../../db/schema.ts";
import type {
  ClientDetail,
  ClientMeasurementsView,
  ClientSummary,
  CreatedClient,
  MeasurementStatus,
} from "./views.ts";
import { CLIENT_PAGE_SIZE } from "./views.ts";
import { type Page, pageOf } from "../db/paging.ts";
import type { CreateClientInput, MeasurementsInput, UpdateClientInput } from "../schemas/client.ts";
import { CLIENT_FORM_FIELDS } from "../schemas/client_form.ts";
import { insertDraftQuote } from "../quotes/quotes.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import { diffFields } from "../audit/describe.ts";
import { listPrescriptions } from "../prescriptions/prescriptions.ts";
import { listClientOrders } from "../orders/order_read.ts";
import { isUuid } from "../db/ids.ts";
import { inTransaction } from "../db/transaction.ts";
import { findMeasurements } from "./measurements.ts";
import { findActiveStores } from "../stores/stores.ts";

type ClientsEB = ExpressionBuilder<
  Database & { m: Database["clientMeasurements"] },
  "clients" | "m"
>;

function measurementStatusSql(eb: ClientsEB) {
  return sql<MeasurementStatus>`case
    when ${eb.ref("m.measurementsComplete")} then 'COMPLETE'
    when ${eb.ref("m.clientId")} is null
      or (${eb.ref("m.pdBinocular")} = 0 and ${eb.ref("m.pdNear")} = 0
          and ${eb.ref("m.extras")} = '{}'::jsonb) then 'NONE'
    else 'PENDING' end`;
}

function summaryQuery(db: DB) {
  return db.selectFrom("clients")
    .leftJoin("clientMeasurements as m", "m.clientId", "clients.id")
    .select((eb) => [
      "clients.id",
      "clients.firstName",
      "clients.middleName",
      "clients.lastName",
      "clients.email",
      "clients.mobilePhone",
      "clients.homePhone",
      "clients.address1",
      "clients.address2",
      "clients.city",
      "clients.state",
      "clients.zip",
      "clients.createdAt",
      measurementStatusSql(eb).as("measurementStatus"),
      // A visit is a quote made for the client; both come from the
      // (client_id, created_at) index, one probe per listed client.
      eb.selectFrom("quotes as qv").select("qv.createdAt").whereRef(
        "qv.clientId",
        "=",
        "clients.id",
      )
        .orderBy("qv.createdAt", "desc").limit(1).as("lastVisit"),
      eb.selectFrom("quotes as qc").select(sql<number>`count(*)::int`.as("n"))
        .whereRef("qc.clientId", "=", "clients.id").as("quoteCount"),
    ]);
}

type SummaryRow = Omit<ClientSummary, "createdAt" | "lastVisit" | "quoteCount"> & {
  createdAt: Date;
  lastVisit?: Date | null;
  quoteCount?: number | null;
};
const toSummary = (r: SummaryRow): ClientSummary => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  lastVisit: r.lastVisit ? new Date(r.lastVisit).toISOString() : null,
  quoteCount: Number(r.quoteCount ?? 0),
});

export type { Page };

/** The clients lists' page: CLIENT_PAGE_SIZE unless asked, at most 200. */
const clientPage = (page: Page) => pageOf(page, CLIENT_PAGE_SIZE, 200);

/** Newest clients first; `missing` keeps those whose measurements are not complete. */
export async function listClients(
  db: DB,
  options: Page & { filter?: "missing" } = {},
): Promise<ClientSummary[]> {
  const rows = await listClientsQuery(db, options).execute();
  return rows.map(toSummary);
}

/** The query of listClients, apart so tests can look at its plan. */
export function listClientsQuery(db: DB, options: Page & { filter?: "missing" } = {}) {
  const { limit, offset } = clientPage(options);
  let q = summaryQuery(db);
  if (options.filter === "missing") {
    q = q.where((eb) =>
      eb.or([eb("m.clientId", "is", null), eb("m.measurementsComplete", "=", false)])
    );
  }
  return q.orderBy("clients.createdAt", "desc").orderBy("clients.id", "desc")
    .limit(limit).offset(offset);
}

/**
 * Every word of the query must match a name or the e-mail (case-insensitive,
 * anywhere), or, when it holds 3+ digits, a phone number compared digits-only
 * (src/search/match.ts; served by trigram indexes).
 */
export async function searchClients(db: DB, query: string, page: Page = {}) {
  const words = searchWords(query);
  if (words.length === 0) return listClients(db, page);
  const { limit, offset } = clientPage(page);
  const { head, complete, filled } = await readHead(
    offset + limit,
    async (rows) =>
      (await headSearchClientsQuery(db, words, page, rows).execute(genericPlans(db))).rows,
  );
  if (complete || filled) {
    const ids = head.flatMap((r) => r.id ? [r.id] : []);
    if (ids.length === 0) return [];
    const rows = await summaryQuery(db).where("clients.id", "in", ids)
      .orderBy("clients.lastName").orderBy("clients.firstName").orderBy("clients.id").execute();
    return rows.map(toSummary);
  }
  const capped = await cappedPage(
    (firstRowOnly) =>
      cappedSearchClientsQuery(genericPlans(db), words, firstRowOnly ? { limit: 1 } : page)
        .execute(),
    clientPage(page).offset,
  );
  if (capped) return capped.rows.map(({ matches: _, ...r }) => toSummary(r));
  const rows = await readInListOrder(db, (db) => searchClientsQuery(db, words, page).execute());
  return rows.map(toSummary);
}

/**
 * The query of searchClients, apart so tests can look at its plan. It runs
 * only with more matches than the capped statement orders, so its words are
 * scanned for, in name order, not looked up (match.ts).
 */
export function searchClientsQuery(db: DB, words: string[], page: Page = {}) {
  const { limit, offset } = clientPage(page);
  return summaryQuery(db)
    .where(clientMatches(words, "scan"))
    .orderBy("clients.lastName").orderBy("clients.firstName").orderBy("clients.id")
    .limit(limit).offset(offset);
}

/**
 * searchClients' page from the list's head (src/search/head.ts): the first
 * clients in name order, the words tested on each. One row always comes
 * back, with how many clients were read and how many matched; the ids of
 * the page's clients are on it and the rows after it.
 */
export function headSearchClientsQuery(
  db: DB,
  words: string[],
  page: Page = {},
  rows = headRows(clientPage(page).offset + clientPage(page).limit),
) {
  const { limit, offset } = clientPage(page);
  const head = db.selectFrom("clients")
    .select([
      "clients.id",
      "clients.firstName",
      "clients.lastName",
      "clients.searchText",
      "clients.mobileDigits",
      "clients.homeDigits",
    ])
    .orderBy("clients.lastName").orderBy("clients.firstName").orderBy("clients.id")
    .limit(sql.lit(rows));
  // The head is named `clients` where the words are tested: match.ts's
  // expressions name that table's columns, and the head has them.
  const matched = clientMatches(words, "scan");
  return sql<HeadCounts & { id: string | null }>`with head as (${head}),
    found as (select clients.id, clients.last_name, clients.first_name
      from head as clients where ${matched})
    select counts.scanned, counts.matches, page.id
    from (select (select count(*) from head) as scanned, (select count(*) from found) as matches)
      counts
    left join lateral (select * from found order by found.last_name, found.first_name, found.id
      limit ${limit} offset ${offset}) page on true
    order by page.last_name, page.first_name, page.id`;
}

/**
 * searchClients' page from the first CAPPED_MATCHES + 1 clients the words
 * find, with how many that was (src/search/capped.ts): one plan for every
 * word; the summaries are read for the page's clients only.
 */
export function cappedSearchClientsQuery(db: DB, words: string[], page: Page = {}) {
  const { limit, offset } = clientPage(page);
  const found = db.selectFrom("clients")
    .select(["clients.id", "clients.lastName", "clients.firstName"])
    .where(clientMatches(words)).limit(CAPPED_MATCHES + 1).as("found");
  const ids = db.selectFrom(found)
    .select(["found.id", "found.lastName", "found.firstName", matchCount.as("matches")])
    .orderBy("found.lastName").orderBy("found.firstName").orderBy("found.id")
    .limit(limit).offset(offset).as("page");
  return summaryQuery(db).innerJoin(ids, "page.id", "clients.id").select("page.matches")
    .orderBy("clients.lastName").orderBy("clients.firstName").orderBy("clients.id");
}

function measurementsView(
  m:
    | { pdBinocular: string; pdNear: string; measurementsComplete: boolean; extras: unknown }
    | undefined,
): ClientMeasurementsView {
  return {
    pdBinocular: m?.pdBinocular ?? "0",
    pdNear: m?.pdNear ?? "0",
    measurementsComplete: m?.measurementsComplete ?? false,
    extras: (m?.extras as Record<string, string>) ?? {},
  };
}

export async function findClientDetail(db: DB, id: string): Promise<ClientDetail | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await summaryQuery(db)
    .leftJoin("heardHowOptions as h", "h.id", "clients.heardHowId")
    .select([
      sql<string | null>`to_char(clients.dob, 'YYYY-MM-DD')`.as("dob"),
      "clients.mailingAddress",
      "clients.heardHowId",
      "clients.heardHowText",
      "h.label as heardHowLabel",
      "clients.smsConsent",
      "clients.emailConsent",
      "clients.consentDate",
      "clients.homeStoreId",
    ])
    .where("clients.id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const [measurements, quotes, prescriptions, orders, stores] = await Promise.all([
    findMeasurements(db, id),
    db.selectFrom("quotes").innerJoin("stores", "stores.id", "quotes.storeId")
      .select([
        "quotes.id",
        "quotes.quoteNumber",
        "quotes.status",
        "quotes.createdAt",
        "quotes.expiresAt",
        "stores.code as storeCode",
      ])
      .where("quotes.clientId", "=", id)
      .orderBy("quotes.createdAt", "desc").orderBy("quotes.id", "desc").execute(),
    listPrescriptions(db, id),
    listClientOrders(db, id),
    findActiveStores(db),
  ]);
  const { heardHowLabel, consentDate, homeStoreId: _home, ...rest } = row;
  return {
    ...toSummary(rest),
    dob: rest.dob,
    mailingAddress: rest.mailingAddress,
    // Other is stored as text without an option ("" when nothing was typed),
    // and reads back as the spec's heardHowId "other".
    heardHowId: rest.heardHowId ?? (rest.heardHowText !== null ? "other" : null),
    heardHowText: rest.heardHowText,
    heardHow: heardHowLabel ??
      (rest.heardHowText
        ? `Other: ${rest.heardHowText}`
        : rest.heardHowText === ""
        ? "Other"
        : null),
    smsConsent: rest.smsConsent,
    emailConsent: rest.emailConsent,
    consentDate: consentDate ? consentDate.toISOString() : null,
    measurements: measurementsView(measurements),
    quotes: quotes.map((q) => ({
      id: q.id,
      quoteNumber: q.quoteNumber,
      status: q.status,
      createdAt: q.createdAt.toISOString(),
      expiresAt: q.expiresAt ? q.expiresAt.toISOString() : null,
      storeCode: q.storeCode,
    })),
    prescriptions,
    orders,
    homeStoreId: row.homeStoreId,
    stores: stores.length > 1 ? stores : null,
  };
}

export class UnknownHeardHowError extends Error {}

/**
 * A client, its empty measurements and a DRAFT quote, all or nothing: an
 * intake either produces a client with a quote to work on, or nothing. The
 * client's home store is the store the quote is made in.
 */
export async function insertClientWithQuote(
  db: DB,
  input: CreateClientInput,
  createdBy: string | null,
  storeId: string,
  now = new Date(),
): Promise<CreatedClient> {
  return await inTransaction(db, async (trx) => {
    let heardHowId: string | null = null;
    let heardHowText: string | null = null;
    if (input.heardHowId === "other") {
      // Kept as "" when nothing was typed, so the choice of Other is not lost.
      heardHowText = input.heardHowText ?? "";
    } else if (input.heardHowId) {
      const option = await trx.selectFrom("heardHowOptions").select("id")
        .where("id", "=", input.heardHowId).executeTakeFirst();
      if (!option) throw new UnknownHeardHowError("Please choose an option from the list");
      heardHowId = option.id;
    }
    const consented = input.smsConsent || input.emailConsent;
    const client = await trx.insertInto("clients").values({
      firstName: input.firstName,
      middleName: input.middleName,
      lastName: input.lastName,
      homeStoreId: storeId,
      dob: input.dob,
      email: input.email,
      homePhone: input.homePhone,
      mobilePhone: input.mobilePhone,
      address1: input.address1,
      address2: input.address2,
      city: input.city,
      state: input.state,
      zip: input.zip,
      mailingAddress: null,
      heardHowId,
      heardHowText,
      smsConsent: input.smsConsent,
      emailConsent: input.emailConsent,
      consentDate: consented ? now : null,
      createdAt: now,
      updatedAt: now,
    }).returning("id").executeTakeFirstOrThrow();
    await trx.insertInto("clientMeasurements").values({ clientId: client.id }).execute();
    const quote = await insertDraftQuote(trx, client.id, createdBy, storeId, now);
    return { client: { id: client.id }, quote: { id: quote.id } };
  });
}

/** The client fields whose edits the history shows old → new: every field of the form. */
export const CLIENT_HISTORY_FIELDS = CLIENT_FORM_FIELDS;

/**
 * Full edit or e-mail only; undefined when the client does not exist. The
 * history entry records each field that changed, from what to what, in the
 * same transaction as the change.
 */
export async function updateClient(
  db: DB,
  id: string,
  input: UpdateClientInput,
  actor: AuditActor,
): Promise<ClientDetail | undefined> {
  if (!isUuid(id)) return undefined;
  const updated = await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("clients")
      .select([
        ...CLIENT_HISTORY_FIELDS.filter((f) => f !== "dob"),
        sql<string | null>`to_char(dob, 'YYYY-MM-DD')`.as("dob"),
        "homeStoreId",
      ])
      .where("id", "=", id).forUpdate().executeTakeFirst();
    if (!before) return false;
    if ("homeStoreId" in input) {
      // Another store of the chain: the history names both stores by code.
      const codes = await trx.selectFrom("stores").select(["id", "code"])
        .where("id", "in", [before.homeStoreId, input.homeStoreId]).execute();
      const code = (storeId: string) => codes.find((s) => s.id === storeId)?.code ?? null;
      await trx.updateTable("clients").set({
        homeStoreId: input.homeStoreId,
        updatedAt: new Date(),
      })
        .where("id", "=", id).execute();
      const changes = before.homeStoreId === input.homeStoreId
        ? {}
        : { homeStore: { from: code(before.homeStoreId), to: code(input.homeStoreId) } };
      await recordAudit(trx, actor, "client.update", "client", id, { changes });
      return true;
    }
    await trx.updateTable("clients").set({ ...input, updatedAt: new Date() })
      .where("id", "=", id).execute();
    const changes = diffFields(before, input, CLIENT_HISTORY_FIELDS);
    await recordAudit(trx, actor, "client.update", "client", id, { changes });
    return true;
  });
  return updated ? findClientDetail(db, id) : undefined;
}

/**
 * Deletes a client with its quotes, options, items, measurements and consents
 * (the foreign keys cascade) and records who did it, in one transaction.
 */
export async function deleteClient(db: DB, id: string, actor: AuditActor): Promise<boolean> {
  if (!isUuid(id)) return false;
  return await db.transaction().execute(async (trx) => {
    const client = await trx.selectFrom("clients").select(["firstName", "lastName"])
      .where("id", "=", id).forUpdate().executeTakeFirst();
    if (!client) return false;
    const quotes = await trx.selectFrom("quotes").select("quoteNumber").where("clientId", "=", id)
      .execute();
    await trx.deleteFrom("clients").where("id", "=", id).execute();
    await recordAudit(trx, actor, "client.delete", "client", id, {
      name: `${client.firstName} ${client.lastName}`,
      quotes: quotes.map((q) => q.quoteNumber),
    });
    return true;
  });
}

/**
 * Records the baseline measurements. Marking them complete moves the client's
 * quotes that were waiting on measurements to ACTIVE.
 */
export async function updateMeasurements(
  db: DB,
  clientId: string,
  input: MeasurementsInput,
  actor: AuditActor,
): Promise<ClientMeasurementsView | undefined> {
  if (!isUuid(clientId)) return undefined;
  return await db.transaction().execute(async (trx) => {
    const exists = await trx.selectFrom("clients").select("id").where("id", "=", clientId)
      .forUpdate().executeTakeFirst();
    if (!exists) return undefined;
    const before = measurementsView(await findMeasurements(trx, clientId));
    const now = new Date();
    await trx.insertInto("clientMeasurements").values({
      clientId,
      pdBinocular: input.pdBinocular,
      pdNear: input.pdNear,
      measurementsComplete: input.measurementsComplete,
      updatedAt: now,
    }).onConflict((oc) =>
      oc.column("clientId").doUpdateSet({
        pdBinocular: input.pdBinocular,
        pdNear: input.pdNear,
        measurementsComplete: input.measurementsComplete,
        updatedAt: now,
      })
    ).execute();
    let moved: { id: string }[] = [];
    if (input.measurementsComplete) {
      moved = await trx.updateTable("quotes")
        .set((eb) => ({ status: "ACTIVE", version: eb("version", "+", 1), updatedAt: now }))
        .where("clientId", "=", clientId).where("status", "=", "PENDING_MEASUREMENTS")
        .returning("id").execute();
    }
    const after = measurementsView(await findMeasurements(trx, clientId));
    const changes = diffFields(before, after, ["pdBinocular", "pdNear", "measurementsComplete"]);
    if (changes.length) {
      await recordAudit(trx, actor, "client.measurements", "client", clientId, { changes });
    }
    // Each quote that was waiting on these measurements shows its own change.
    for (const quote of moved) {
      await recordAudit(trx, actor, "quote.status", "quote", quote.id, {
        status: { from: "PENDING_MEASUREMENTS", to: "ACTIVE" },
        reason: "measurements_complete",
      });
    }
    return after;
  });
}

export async function findClientContacts(db: DB, id: string) {
  if (!isUuid(id)) return undefined;
  return await db.selectFrom("clients")
    .select(["id", "email", "mobilePhone", "homePhone", "createdAt"])
    .where("id", "=", id).executeTakeFirst();
}
