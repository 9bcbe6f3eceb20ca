// The chain's stores (migration 0036): which a user works in, and which one a
// write of theirs belongs to. The SQL of the stores domain lives here.
import type { DB } from "../db/database.ts";
import type { Role } from "../../db/schema.ts";
import { isUuid } from "../db/ids.ts";

/** A store as a picker and a row's "which store" need it. */
export interface StoreRef {
  id: string;
  code: string;
  /** The store's own name, else null: it goes by the chain's (Settings). */
  name: string | null;
}

/** Every active store of the chain, by code. */
export function findActiveStores(db: DB): Promise<StoreRef[]> {
  return db.selectFrom("stores").select(["id", "code", "name"]).where("active", "=", true)
    .orderBy("code").execute();
}

/**
 * The stores a user works in, by code: an OWNER every active store, anyone
 * else the active stores they were given (user_stores).
 */
export async function findUserStores(
  db: DB,
  user: { id: string; role: Role },
): Promise<StoreRef[]> {
  if (user.role === "OWNER") return await findActiveStores(db);
  return await db.selectFrom("stores").innerJoin("userStores", "userStores.storeId", "stores.id")
    .select(["stores.id", "stores.code", "stores.name"])
    .where("stores.active", "=", true).where("userStores.userId", "=", user.id)
    .orderBy("stores.code").execute();
}

/**
 * The store a signed-in user's writes belong to: the one this device
 * remembers (its store cookie) when the user works there, else the first of
 * theirs by code. Undefined when they work in no active store.
 */
export function pickCurrentStore(
  stores: StoreRef[],
  remembered: string | undefined,
): StoreRef | undefined {
  return (remembered && stores.find((s) => s.id === remembered)) || stores[0];
}

/**
 * The store a write made without a staff member (the signed-out intake)
 * belongs to: the chain's first active store by code.
 */
export async function findFirstStore(db: DB): Promise<StoreRef> {
  return await db.selectFrom("stores").select(["id", "code", "name"])
    .where("active", "=", true).orderBy("code").limit(1).executeTakeFirstOrThrow();
}

/** An active store by its code (any case), or undefined. */
export async function findActiveStoreByCode(db: DB, code: string): Promise<StoreRef | undefined> {
  const upper = code.toUpperCase();
  if (!/^[A-Z0-9]{1,8}$/.test(upper)) return undefined;
  return await db.selectFrom("stores").select(["id", "code", "name"])
    .where("code", "=", upper).where("active", "=", true).executeTakeFirst();
}

/** The ids of the stores each user was given (user_stores), by user id; one user's with `userId`. */
export async function findStoreIdsByUser(db: DB, userId?: string): Promise<Map<string, string[]>> {
  let query = db.selectFrom("userStores").innerJoin("stores", "stores.id", "userStores.storeId")
    .select(["userStores.userId", "userStores.storeId"]);
  if (userId) query = query.where("userStores.userId", "=", userId);
  const rows = await query.orderBy("stores.code").execute();
  const byUser = new Map<string, string[]>();
  for (const r of rows) byUser.set(r.userId, [...byUser.get(r.userId) ?? [], r.storeId]);
  return byUser;
}

/** Replaces the stores a user works in; returns the store codes before and after. */
export async function replaceUserStores(
  db: DB,
  userId: string,
  storeIds: string[],
): Promise<{ from: string[]; to: string[] }> {
  const codes = async () =>
    (await db.selectFrom("userStores").innerJoin("stores", "stores.id", "userStores.storeId")
      .select("stores.code").where("userStores.userId", "=", userId).orderBy("stores.code")
      .execute()).map((r) => r.code);
  const from = await codes();
  await db.deleteFrom("userStores").where("userId", "=", userId).execute();
  await addUserStores(db, userId, storeIds);
  return { from, to: await codes() };
}

/** Gives a user these stores to work in (those they already have are kept). */
export async function addUserStores(db: DB, userId: string, storeIds: string[]): Promise<void> {
  const ids = storeIds.filter(isUuid);
  if (ids.length === 0) return;
  await db.insertInto("userStores").values(ids.map((storeId) => ({ userId, storeId })))
    .onConflict((oc) => oc.doNothing()).execute();
}
