// Which store a request's writes belong to: the kiosk's, the signed-in user's
// current store, or (signed out: the intake page) the chain's first.
import type { Context } from "hono";
import type { AppEnv } from "../http/app_env.ts";
import { appCookie } from "../http/app_cookie.ts";
import { HttpError } from "../http/errors.ts";
import type { Role } from "../../db/schema.ts";
import {
  findActiveStoreByCode,
  findActiveStores,
  findFirstStore,
  findUserStores,
  pickCurrentStore,
  type StoreRef,
} from "./stores.ts";
import { readThrough } from "../db/read_through.ts";
import { isUuid } from "../db/ids.ts";
import { isChainWide } from "./scope.ts";

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

export const UNKNOWN_STORE_CODE = "store must be the code of one of the chain's active stores";

/**
 * The store a new client registers in: a kiosk's, a signed-in user's current
 * store; signed out, the store whose intake page sent it (`code`, from
 * /intake/{code}), else the chain's first store.
 */
export async function intakeStoreId(c: Context<AppEnv>, code: string | undefined) {
  if (c.var.kiosk || c.var.user || code === undefined) return await currentStoreId(c);
  const store = await findActiveStoreByCode(c.var.db, code);
  if (!store) throw new HttpError(400, UNKNOWN_STORE_CODE, { store: UNKNOWN_STORE_CODE });
  return store.id;
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

export const ALL_STORES_FORBIDDEN = "Only the owner and chain admins list every store at once.";
export const UNKNOWN_STORE = "store must be one of the chain's active stores";

/**
 * The store a list, the dashboard or a report shows: the one asked for
 * (`store`: a store's id, or "all" for the owner and chain admins), else the device's
 * current store; undefined is every store, which is also what a chain of one
 * store shows (no filter at all, so its lists read as they always did).
 */
export async function listedStoreId(
  c: Context<AppEnv>,
  asked: string | undefined,
): Promise<string | undefined> {
  const user = c.var.user!;
  if (asked === "all") {
    // A store admin administers their stores only (src/stores/scope.ts).
    if (!isChainWide(user)) throw new HttpError(403, ALL_STORES_FORBIDDEN);
    return undefined;
  }
  const stores = await readThrough(c.var.db, {
    key: "active-stores",
    tables: ["stores"],
    maxAgeMs: 60_000,
    load: () => findActiveStores(c.var.db),
  });
  if (asked !== undefined) {
    if (!stores.some((s) => s.id === asked)) {
      throw new HttpError(400, UNKNOWN_STORE, { store: UNKNOWN_STORE });
    }
    return stores.length > 1 ? asked : undefined;
  }
  if (stores.length <= 1) return undefined;
  return (await currentStore(c, user)).id;
}

/**
 * listedStoreId for a page's first rows: a `store` in the address that is not
 * one to list (an old bookmark, "all" for staff) shows the default instead
 * of an error page.
 */
export async function pageListedStoreId(
  c: Context<AppEnv>,
  asked: string | undefined,
): Promise<string | undefined> {
  const valid = asked === "all" || (asked !== undefined && isUuid(asked)) ? asked : undefined;
  try {
    return await listedStoreId(c, valid);
  } catch (err) {
    if (!(err instanceof HttpError) || valid === undefined) throw err;
    return await listedStoreId(c, undefined);
  }
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
  const stores = await userStoresOf(c, user);
  return pickCurrentStore(stores, storeCookie.read(c, c.var.config.secureCookies));
}

const perRequest = new WeakMap<Request, Promise<StoreRef[]>>();

/**
 * The stores a signed-in user works in (findUserStores), read once per
 * request however many parts of the page ask (the route's write, the staff
 * bar's picker), and kept between requests until a store or a user's stores
 * are written (migration 0036's notifications).
 */
export function userStoresOf(
  c: Context<AppEnv>,
  user: { id: string; role: Role },
): Promise<StoreRef[]> {
  let stores = perRequest.get(c.req.raw);
  if (!stores) {
    const db = c.var.db;
    stores = readThrough(db, {
      key: user.role === "OWNER" ? "owner-stores" : `user-stores:${user.id}`,
      tables: ["stores", "user_stores"],
      maxAgeMs: 60_000,
      load: () => findUserStores(db, user),
    });
    perRequest.set(c.req.raw, stores);
  }
  return stores;
}

/** What the staff bar's store picker shows: the user's stores and this device's current one. */
export interface StoreChoice {
  stores: StoreRef[];
  current: StoreRef | undefined;
}

export async function storeChoiceOf(
  c: Context<AppEnv>,
  user: { id: string; role: Role },
): Promise<StoreChoice> {
  const stores = await userStoresOf(c, user);
  return {
    stores,
    current: pickCurrentStore(stores, storeCookie.read(c, c.var.config.secureCookies)),
  };
}
