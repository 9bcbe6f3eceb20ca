// Which stores a report (or the dashboard) shows (issue 48): the current
// store by default, one of the chain's stores, or "All stores" for those
// listedStoreId allows it, then store by store with the chain's total. The
// store select is the lists' (components/StoreSelect.tsx, storeListingOf).
import type { Context } from "hono";
import type { AppEnv } from "../http/app_env.ts";
import { listedStoreId, pageListedStoreId } from "../stores/current_store.ts";
import { type StoreListing, storeListingOf } from "../stores/store_listing.ts";
import type { ReportStores } from "./conversion.ts";

export interface StoreScope extends ReportStores {
  /** The store select's choices: undefined in a one-store chain, which looks as it always did. */
  listing: StoreListing | undefined;
}

/**
 * The stores to show for `asked` (a store's id, "all", or nothing: the
 * current store). The API refuses what may not be listed (400 an unknown
 * store, 403 "all" for those not allowed it); a page (`page`) shows the
 * default instead, as an old bookmark should.
 */
export async function reportScope(
  c: Context<AppEnv>,
  asked: string | undefined,
  { page }: { page: boolean },
): Promise<StoreScope> {
  const wanted = asked?.trim() || undefined;
  // The chain's stores first (one kept read): a one-store chain's page shows
  // its only store without asking more; its API still refuses a bad `store`.
  const listing = await storeListingOf(c, undefined);
  if (!listing) {
    if (!page && wanted !== undefined) await listedStoreId(c, wanted);
    return { listing };
  }
  const storeId = page ? await pageListedStoreId(c, wanted) : await listedStoreId(c, wanted);
  listing.selected = storeId ?? "all";
  // Every store, the inactive too: quotes made and money taken there still count.
  return { storeId, byStore: storeId === undefined ? listing.stores : undefined, listing };
}

/** " at Downtown (DT)", " in every store", or nothing (a one-store chain). */
export function storeWords(listing: StoreListing | undefined): string {
  if (!listing) return "";
  if (listing.selected === "all") return " in every store";
  const store = listing.stores.find((s) => s.id === listing.selected);
  return store ? ` at ${store.name} (${store.code})` : "";
}
