// Which store a request's writes belong to: the kiosk's, the signed-in user's
// current store, or (signed out: the intake page) the chain's first.
import type { Context } from "hono";
import type { AppEnv } from "../http/app_env.ts";
import { appCookie } from "../http/app_cookie.ts";
import { HttpError } from "../http/errors.ts";
import type { Role } from "../../db/schema.ts";
import { findFirstStore, findUserStores, pickCurrentStore, type StoreRef } from "./stores.ts";

/**
 * The store this device works in, remembered across sign-ins (a shared
 * counter PC stays in its store whoever signs in). It is only a preference:
 * it is honoured for a user who works in that store, and ignored otherwise.
 */
const storeCookie = appCookie("lensdesk_store", "Lax");

/** Remembers `storeId` as this device's store for a year (a preference, checked on every use). */
export function rememberStore(c: Context<AppEnv>, storeId: string) {
  storeCookie.set(
    c,
    storeId,
    new Date(Date.now() + 365 * 24 * 60 * 60 * 1000),
    c.var.config.secureCookies,
  );
}

export const NOT_A_STORE_OF_YOURS = "Choose one of the stores you work in";

export const NO_STORE_MESSAGE =
  "You do not work in any store yet. Please ask an admin to add you to a store.";

/** A kiosk's store id; a signed-in user's current store; else the chain's first store. */
export async function currentStoreId(c: Context<AppEnv>): Promise<string> {
  if (c.var.kiosk) return c.var.kiosk.storeId;
  const user = c.var.user;
  if (!user) return (await findFirstStore(c.var.db)).id;
  return (await currentStore(c, user)).id;
}

/**
 * The store a page shows itself as (currentStoreId's), or null, the chain's
 * own settings, for a user who works in no store: showing is never refused.
 */
export async function shownStoreId(c: Context<AppEnv>): Promise<string | null> {
  const user = c.var.user;
  if (c.var.kiosk || !user) return await currentStoreId(c);
  return (await pickFor(c, user))?.id ?? null;
}

/** The signed-in user's current store; 403 when they work in no active store. */
export async function currentStore(
  c: Context<AppEnv>,
  user: { id: string; role: Role },
): Promise<StoreRef> {
  const store = await pickFor(c, user);
  if (!store) throw new HttpError(403, NO_STORE_MESSAGE);
  return store;
}

async function pickFor(c: Context<AppEnv>, user: { id: string; role: Role }) {
  const stores = await findUserStores(c.var.db, user);
  return pickCurrentStore(stores, storeCookie.read(c, c.var.config.secureCookies));
}
