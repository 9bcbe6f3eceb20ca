// What an admin administers (issue 48, migration 0037): an OWNER and a chain
// admin the whole chain; a store admin (an ADMIN whose chain_admin is false)
// the stores they work in only: those stores' users, own settings and reports.
// Reading stays chain-wide for everyone; these rules are about administering.
import type { Context } from "hono";
import type { AppEnv } from "../http/app_env.ts";
import type { DB } from "../db/database.ts";
import type { Role } from "../../db/schema.ts";
import { HttpError } from "../http/errors.ts";
import { findUserStores } from "./stores.ts";
import { isChainWide } from "./chain_wide.ts";

export { isChainWide, isStoreAdmin } from "./chain_wide.ts";

/** Who an admin rule looks at: the signed-in user (c.var.user) or a user row. */
export interface Scoped {
  id: string | null;
  role: Role;
  /** Users row's chain_admin; absent counts as false (a store admin), the narrower power. */
  chainAdmin?: boolean;
}

export const NOT_YOUR_STORE_TO_ADMINISTER = "You can only administer the stores you work in.";
export const CHAIN_ADMINS_ONLY = "Only the owner or a chain admin can change the chain's settings.";

/**
 * The stores `user` administers: undefined for the whole chain (owner, chain
 * admin), else the ids of the active stores they work in.
 */
export async function administeredStoreIds(
  db: DB,
  user: Scoped,
): Promise<Set<string> | undefined> {
  if (isChainWide(user)) return undefined;
  if (!user.id) return new Set();
  return new Set((await findUserStores(db, { id: user.id, role: user.role })).map((s) => s.id));
}

/** Whether `user` administers `storeId` (chain-wide users administer every store). */
export async function administers(db: DB, user: Scoped, storeId: string): Promise<boolean> {
  const mine = await administeredStoreIds(db, user);
  return mine === undefined || mine.has(storeId);
}

/**
 * 403 unless the signed-in user is chain-wide or works in `storeId`: a store
 * admin asking for another store's report, users or settings.
 */
export async function assertWorksIn(c: Context<AppEnv>, storeId: string): Promise<void> {
  const user = c.var.user;
  if (!user) throw new HttpError(401, "Not signed in");
  if (!(await administers(c.var.db, user, storeId))) {
    throw new HttpError(403, NOT_YOUR_STORE_TO_ADMINISTER);
  }
}

/** 403 unless the signed-in user is the owner or a chain admin. */
export function assertChainWide(c: Context<AppEnv>, message = CHAIN_ADMINS_ONLY): void {
  const user = c.var.user;
  if (!user) throw new HttpError(401, "Not signed in");
  if (!isChainWide(user)) throw new HttpError(403, message);
}
