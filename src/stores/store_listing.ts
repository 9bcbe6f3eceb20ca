// What a list page needs to show stores: the store select of its filters and
// each row's store code. Nothing at all in a chain of one store, whose lists
// look as they always did (no select, no store column).
import type { Context } from "hono";
import type { AppEnv } from "../http/app_env.ts";
import { isChainWide } from "./chain_wide.ts";
import { readThrough } from "../db/read_through.ts";
import { pageSettings } from "../http/page_settings.ts";
import type { DB } from "../db/database.ts";

/** A store as a list names it: its code, and its name (the chain's when it has none). */
export interface ListedStore {
  id: string;
  code: string;
  name: string;
  active: boolean;
}

export interface StoreListing {
  /** Every store of the chain by code, inactive ones too (their old rows still name them). */
  stores: ListedStore[];
  /** The store listed: a store's id, or "all". */
  selected: string;
  /** Whether "All stores" is offered (owners and admins of the chain). */
  allowAll: boolean;
}

/** Every store of the chain, active or not, by code. */
export function findStores(db: DB) {
  return db.selectFrom("stores").select(["id", "code", "name", "active"]).orderBy("code")
    .execute();
}

/**
 * The listing of a page that shows `listed` (listedStoreId's answer:
 * undefined is every store), or undefined in a chain of one active store.
 */
export async function storeListingOf(
  c: Context<AppEnv>,
  listed: string | undefined,
): Promise<StoreListing | undefined> {
  const db = c.var.db;
  const rows = await readThrough(db, {
    key: "all-stores",
    tables: ["stores"],
    maxAgeMs: 60_000,
    load: () => findStores(db),
  });
  if (rows.filter((s) => s.active).length <= 1) return undefined;
  const chainName = (await pageSettings(c, null)).branding.storeName;
  return {
    stores: rows.map((s) => ({ ...s, name: s.name ?? chainName })),
    selected: listed ?? "all",
    allowAll: isChainWide(c.var.user!),
  };
}
