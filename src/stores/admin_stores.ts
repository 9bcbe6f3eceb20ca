// The stores of the chain as admins keep them: each store's code and what it
// sets of its own (null: the chain's setting). An owner adds stores; an owner,
// a chain admin or a store admin of that store changes one (src/stores/scope.ts),
// its code and whether it is active only the owner or a chain admin. A store
// is never deleted (its quotes, orders and payments keep pointing at it): it
// is made inactive.
import type { DB } from "../db/database.ts";
import type { Selectable } from "kysely";
import type { Role, StoresTable } from "../../db/schema.ts";
import { isUuid } from "../db/ids.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import { recordChanges } from "../audit/describe.ts";
import { inTransaction } from "../db/transaction.ts";
import type { NewStoreInput, StoreUpdateInput } from "../schemas/store.ts";
import { administeredStoreIds, isChainWide, type Scoped } from "./scope.ts";
import type { Outcome } from "../http/outcome.ts";

export const STORE_COLUMNS = [
  "id",
  "code",
  "name",
  "phone",
  "email",
  "address",
  "website",
  "openingDays",
  "closedDates",
  "openingTime",
  "closingTime",
  "timeZone",
  "readyEmailSubject",
  "readyEmailBody",
  "active",
  "logoUrl",
] as const;

/** The fields the history shows old → new (the logo has its own route: routes/api/uploads.ts). */
const FIELDS = STORE_COLUMNS.filter((c) => c !== "id" && c !== "logoUrl");

/**
 * A store as its admins see it: its code, state and overrides
 * (db/schema/stores.ts), and the labs it uses (none: every active lab).
 */
export type StoreView = Pick<Selectable<StoresTable>, (typeof STORE_COLUMNS)[number]> & {
  labIds: string[];
};

export const UNKNOWN_LAB = "labIds must be labs of the chain";

/** Thrown inside a store's transaction so that nothing of it is written. */
class UnknownLab extends Error {}

/** Each store's lab ids, by store id. */
async function labIdsOf(db: DB, storeIds: string[]): Promise<Map<string, string[]>> {
  const rows = storeIds.length
    ? await db.selectFrom("storeLabs").innerJoin("labs", "labs.id", "storeLabs.labId")
      .select(["storeLabs.storeId", "storeLabs.labId"]).where("storeLabs.storeId", "in", storeIds)
      .orderBy("labs.name").execute()
    : [];
  const byStore = new Map<string, string[]>();
  for (const r of rows) byStore.set(r.storeId, [...byStore.get(r.storeId) ?? [], r.labId]);
  return byStore;
}

const withLabs = async <T extends { id: string }>(db: DB, stores: T[]) => {
  const labs = await labIdsOf(db, stores.map((s) => s.id));
  return stores.map((s) => ({ ...s, labIds: labs.get(s.id) ?? [] }));
};

/**
 * Replaces the labs a store uses; the names before and after for its history,
 * or undefined when `labIds` names a lab the chain does not have.
 */
async function replaceStoreLabs(trx: DB, storeId: string, labIds: string[]) {
  const named = async () =>
    (await trx.selectFrom("storeLabs").innerJoin("labs", "labs.id", "storeLabs.labId")
      .select("labs.name").where("storeLabs.storeId", "=", storeId).orderBy("labs.name")
      .execute()).map((r) => r.name);
  if (labIds.length) {
    const known = await trx.selectFrom("labs").select("id").where("id", "in", labIds).execute();
    if (known.length !== labIds.length) return undefined;
  }
  const from = await named();
  await trx.deleteFrom("storeLabs").where("storeId", "=", storeId).execute();
  if (labIds.length) {
    await trx.insertInto("storeLabs").values(labIds.map((labId) => ({ storeId, labId })))
      .execute();
  }
  const to = await named();
  // "Every lab" when it names none.
  const text = (names: string[]) => names.length ? names.join(", ") : "Every lab";
  return text(from) === text(to) ? [] : [{ field: "labs", from: text(from), to: text(to) }];
}

export const STORE_CODE_TAKEN = "Another store already has this code";
export const LAST_ACTIVE_STORE =
  "This is the chain's only active store: it cannot be made inactive.";
export const NOT_YOUR_STORE = "You can only change the stores you work in.";
export const CHAIN_LEVEL_FIELDS =
  "Only the owner or a chain admin can change a store's code or make it active or inactive.";

const fail = (status: 400 | 403 | 404 | 409, message: string, field?: string) =>
  ({ ok: false, status, message, field }) as const;

/**
 * The stores `user` administers, by code, with what each sets of its own:
 * every store of the chain for the owner and chain admins, a store admin's
 * own stores (active ones) otherwise.
 */
export async function listStores(db: DB, user: Scoped): Promise<StoreView[]> {
  const mine = await administeredStoreIds(db, user);
  if (mine?.size === 0) return [];
  let query = db.selectFrom("stores").select(STORE_COLUMNS);
  if (mine) query = query.where("id", "in", [...mine]);
  return await withLabs(db, await query.orderBy("code").execute());
}

export async function createStore(
  db: DB,
  input: NewStoreInput,
  actor: AuditActor,
): Promise<Outcome<StoreView>> {
  const { labIds, ...fields } = input;
  return await inTransaction(db, async (trx) => {
    const store = await trx.insertInto("stores").values(fields)
      .onConflict((oc) => oc.column("code").doNothing())
      .returning(STORE_COLUMNS).executeTakeFirst();
    if (!store) return fail(409, STORE_CODE_TAKEN, "code");
    const labs = await replaceStoreLabs(trx, store.id, labIds ?? []);
    if (!labs) throw new UnknownLab();
    await recordAudit(trx, actor, "settings.store_create", "store", store.id, {
      code: store.code,
      changes: [...recordChanges({}, store, FIELDS), ...labs],
    }, store.id);
    return { ok: true, value: (await withLabs(trx, [store]))[0] } as const;
  }).catch((err) => {
    if (err instanceof UnknownLab) return fail(400, UNKNOWN_LAB, "labIds");
    throw err;
  });
}

/**
 * Changes what `input` names; null clears an override (the chain's setting
 * shows again). The last active store cannot be made inactive.
 */
export async function updateStore(
  db: DB,
  id: string,
  input: StoreUpdateInput,
  actor: AuditActor & { role: Role; chainAdmin?: boolean },
): Promise<Outcome<StoreView>> {
  if (!isUuid(id)) return fail(404, "Store not found");
  const mine = await administeredStoreIds(db, actor);
  if (mine && !mine.has(id)) return fail(403, NOT_YOUR_STORE);

  try {
    return await inTransaction(db, async (trx) => {
      const before = await trx.selectFrom("stores").select(STORE_COLUMNS).where("id", "=", id)
        .forUpdate().executeTakeFirst();
      if (!before) return fail(404, "Store not found");
      // A store admin keeps their store's own settings; its code (its
      // numbers' prefix) and whether it is open at all are the chain's.
      const code = input.code !== undefined && input.code !== before.code;
      if (!isChainWide(actor) && (code || (input.active ?? before.active) !== before.active)) {
        return fail(403, CHAIN_LEVEL_FIELDS, code ? "code" : "active");
      }
      if (input.active === false && before.active) {
        // Locked in one order by every such change, so two cannot both pass.
        const active = await trx.selectFrom("stores").select("id").where("active", "=", true)
          .orderBy("id").forUpdate().execute();
        if (active.length <= 1) return fail(409, LAST_ACTIVE_STORE, "active");
      }
      const { labIds, ...fields } = input;
      const store = await trx.updateTable("stores").set({ ...fields, updatedAt: new Date() })
        .where("id", "=", id).returning(STORE_COLUMNS).executeTakeFirstOrThrow();
      const labs = labIds === undefined ? [] : await replaceStoreLabs(trx, id, labIds);
      if (!labs) throw new UnknownLab();
      await recordAudit(trx, actor, "settings.store_update", "store", id, {
        code: store.code,
        changes: [...recordChanges(before, store, FIELDS), ...labs],
      }, id);
      return { ok: true, value: (await withLabs(trx, [store]))[0] } as const;
    });
  } catch (err) {
    if (err instanceof UnknownLab) return fail(400, UNKNOWN_LAB, "labIds");
    if (isUniqueViolation(err)) return fail(409, STORE_CODE_TAKEN, "code");
    throw err;
  }
}
