import { type RawBuilder, sql } from "kysely";
import type { DB } from "../db/database.ts";
import { isUuid } from "../db/ids.ts";
import { describeEntry, type HistoryEntry } from "./describe.ts";
import type { AuditKind } from "./kinds.ts";

export interface AuditActor {
  id: string | null;
  /** Kept as text so the record still says who it was after the user is deleted. */
  label: string;
}

/**
 * The store an entry concerns when the write does not say: a store's own
 * entry is that store's, a quote's or an order's is the record's store (read
 * in the same statement, so no extra round trip), anything else the chain's.
 */
function storeOfEntity(entityType: string, entityId: string | null): RawBuilder<unknown> | null {
  if (!entityId || !isUuid(entityId)) return null;
  if (entityType === "store") return sql`${entityId}::uuid`;
  if (entityType === "quote") {
    return sql`(select store_id from quotes where id = ${entityId}::uuid)`;
  }
  if (entityType === "order") {
    return sql`(select store_id from orders where id = ${entityId}::uuid)`;
  }
  return null;
}

/**
 * Records who did what to which record. `storeId` names the store the entry
 * concerns where it is not the record's own (a payment is the store that took
 * it, a job's step the store its glasses go to); null is the chain's;
 * undefined lets storeOfEntity work it out.
 */
export async function recordAudit(
  db: DB,
  actor: AuditActor,
  action: string,
  entityType: string,
  entityId: string | null,
  details: Record<string, unknown> = {},
  storeId?: string | null,
): Promise<void> {
  await db.insertInto("auditLog").values({
    userId: actor.id,
    actor: actor.label,
    action,
    entityType,
    entityId,
    // Bound as text and cast: postgres.js would otherwise store a JSON *string*
    // scalar in the jsonb column, while PGlite stores the object.
    details: sql`${JSON.stringify(details)}::text::jsonb`,
    storeId: storeId === undefined ? storeOfEntity(entityType, entityId) : storeId,
  }).execute();
}

/**
 * `at` with its microseconds, as text: a JavaScript Date keeps only
 * milliseconds, and a keyset cursor rounded to them would skip or repeat rows.
 */
const atText = sql<string>`to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The columns of an entry. `id` and `at` go out as text under their own
 * names, so ORDER BY must name the table's columns (audit_log.at), or
 * PostgreSQL would sort by the text aliases and leave the index unused.
 */
function entryColumns(db: DB) {
  return db.selectFrom("auditLog").select([
    sql<string>`id::text`.as("id"),
    atText.as("at"),
    "actor",
    "action",
    "kind",
    "entityType",
    "entityId",
    "details",
    "storeId",
  ]);
}

export function listAuditEntries(db: DB, entityType: string, entityId: string) {
  return db.selectFrom("auditLog").selectAll()
    .where("entityType", "=", entityType).where("entityId", "=", entityId)
    .orderBy("at", "desc").orderBy("id", "desc").execute();
}

export const ENTITY_HISTORY_LIMIT = 200;

/**
 * Details the owner's audit page shows but a History tab does not: every
 * optician reads a client's or quote's history, and where a colleague (or the
 * tablet) was when they did something is for the owner only.
 */
const OWNER_ONLY_DETAILS = new Set(["ip", "userAgent"]);

const withoutOwnerOnly = (details: Record<string, unknown> | null) =>
  Object.fromEntries(
    Object.entries(details ?? {}).filter(([key]) => !OWNER_ONLY_DETAILS.has(key)),
  );

/** One client's or quote's history, newest first, described for people. */
export async function listEntityHistory(
  db: DB,
  entityType: "client" | "quote",
  entityId: string,
  limit = ENTITY_HISTORY_LIMIT,
): Promise<HistoryEntry[]> {
  const rows = await entryColumns(db)
    .where("entityType", "=", entityType).where("entityId", "=", entityId)
    .orderBy("auditLog.at", "desc").orderBy("auditLog.id", "desc").limit(limit).execute();
  return rows.map((row) => describeEntry({ ...row, details: withoutOwnerOnly(row.details) }));
}

// ---- The audit page: filters and keyset paging ----

export const AUDIT_PAGE_SIZE = 50;

/** The store filter's value for the chain's own entries (no store). */
export const AUDIT_CHAIN = "chain";

/** A position in the log: the (at, id) of an entry, as the cursor text "at~id". */
export interface AuditCursor {
  at: string;
  id: string;
}

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)~(\d{1,19})$/;

export function parseCursor(text: string | undefined): AuditCursor | undefined {
  const m = text ? CURSOR.exec(text) : null;
  return m ? { at: m[1], id: m[2] } : undefined;
}

export const cursorText = (c: { at: string; id: string }) => `${c.at}~${c.id}`;

export interface AuditQuery {
  userId?: string;
  /** One store's entries, or "chain": the entries of no one store (clients, catalog, users). */
  storeId?: string;
  kind?: AuditKind;
  /** Inclusive start and exclusive end instants. */
  from?: Date;
  to?: Date;
  /** Entries older than this one (the next page), or newer (the previous page). */
  before?: AuditCursor;
  after?: AuditCursor;
  limit?: number;
}

export interface AuditPage {
  entries: HistoryEntry[];
  /** Cursor for the page of newer entries, when there are any. */
  newer: string | null;
  /** Cursor for the page of older entries, when there are any. */
  older: string | null;
}

/**
 * One page of the log, newest first. Keyset paging on (at, id): each page
 * starts where the last one ended, read from an index in order, so page 1 and
 * page 20,000 cost the same; OFFSET would read and drop every row before it.
 */
export function auditPageQuery(db: DB, query: AuditQuery) {
  const limit = Math.min(Math.max(query.limit ?? AUDIT_PAGE_SIZE, 1), 200);
  let q = entryColumns(db);
  if (query.kind) q = q.where("kind", "=", query.kind);
  if (query.userId) q = q.where("userId", "=", query.userId);
  if (query.storeId === AUDIT_CHAIN) q = q.where("storeId", "is", null);
  else if (query.storeId) q = q.where("storeId", "=", query.storeId);
  if (query.from) q = q.where("at", ">=", query.from);
  if (query.to) q = q.where("at", "<", query.to);
  if (query.after) {
    return q.where(
      sql<boolean>`(at, id) > (${query.after.at}::text::timestamptz, ${query.after.id}::bigint)`,
    )
      .orderBy("auditLog.at", "asc").orderBy("auditLog.id", "asc").limit(limit + 1);
  }
  if (query.before) {
    q = q.where(
      sql<boolean>`(at, id) < (${query.before.at}::text::timestamptz, ${query.before.id}::bigint)`,
    );
  }
  return q.orderBy("auditLog.at", "desc").orderBy("auditLog.id", "desc").limit(limit + 1);
}

// Cursor times are bound as text and cast in SQL: postgres.js would turn a
// parameter it knows is a timestamptz into a JavaScript Date first, dropping
// the microseconds the cursor exists to keep.

export async function listAuditPage(db: DB, query: AuditQuery): Promise<AuditPage> {
  const limit = Math.min(Math.max(query.limit ?? AUDIT_PAGE_SIZE, 1), 200);
  const rows = await auditPageQuery(db, query).execute();
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (query.after) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  // Going back (after): more rows means newer ones exist, and we came from
  // older ones. Going forward (before): the reverse. The first page has no newer.
  const newer = query.after
    ? (more && first ? cursorText(first) : null)
    : query.before && first
    ? cursorText(first)
    : null;
  const older = query.after
    ? (last ? cursorText(last) : null)
    : more && last
    ? cursorText(last)
    : null;
  return { entries: page.map(describeEntry), newer, older };
}

/** Who may be picked in the user filter: every account, by username. */
export function listAuditUsers(db: DB) {
  return db.selectFrom("users").select(["id", "username", "firstName", "lastName"])
    .orderBy(sql`lower(username)`).execute();
}

/**
 * The stores the store filter offers and the Store column names, inactive
 * ones too: their entries stay in the log.
 */
export function listAuditStores(db: DB) {
  return db.selectFrom("stores").select(["id", "code", "name", "active"]).orderBy("code")
    .execute();
}
