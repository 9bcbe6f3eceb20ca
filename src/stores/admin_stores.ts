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
] as const;

/** The fields the history shows old → new. */
const FIELDS = STORE_COLUMNS.filter((c) => c !== "id");

/** A store as its admins see it: its code, state and overrides (db/schema/stores.ts). */
export type StoreView = Pick<Selectable<StoresTable>, (typeof STORE_COLUMNS)[number]>;

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
  return await query.orderBy("code").execute();
}

export async function createStore(
  db: DB,
  input: NewStoreInput,
  actor: AuditActor,
): Promise<Outcome<StoreView>> {
  return await inTransaction(db, async (trx) => {
    const store = await trx.insertInto("stores").values(input)
      .onConflict((oc) => oc.column("code").doNothing())
      .returning(STORE_COLUMNS).executeTakeFirst();
    if (!store) return fail(409, STORE_CODE_TAKEN, "code");
    await recordAudit(trx, actor, "settings.store_create", "store", store.id, {
      code: store.code,
      changes: recordChanges({}, store, FIELDS),
    }, store.id);
    return { ok: true, value: store } as const;
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
      const store = await trx.updateTable("stores").set({ ...input, updatedAt: new Date() })
        .where("id", "=", id).returning(STORE_COLUMNS).executeTakeFirstOrThrow();
      await recordAudit(trx, actor, "settings.store_update", "store", id, {
        code: store.code,
        changes: recordChanges(before, store, FIELDS),
      }, id);
      return { ok: true, value: store } as const;
    });
  } catch (err) {
    if (isUniqueViolation(err)) return fail(409, STORE_CODE_TAKEN, "code");
    throw err;
  }
}
