import type { Context } from "hono";
import type { AppEnv } from "./app_env.ts";
import { findPageSettings, type PageSettings } from "../settings/settings.ts";
import { readThrough } from "../db/read_through.ts";

/*
 * The settings every page shows (branding, whether mail is configured), as a
 * store shows them (null: the chain's).
 *
 * Kept between requests and dropped as soon as the settings row is written, by
 * this process or, through migration 0017's notifications, by another: an
 * admin's save shows on the very next page. The age limit only covers a
 * notification that never arrived. Within a request it is read once however
 * many parts of the page ask (the route's content and renderPage's chrome),
 * also where nothing is kept (a database handle wrapped by a test).
 */
const perRequest = new WeakMap<Request, Map<string, Promise<PageSettings>>>();

export function pageSettings(
  c: Context<AppEnv>,
  storeId: string | null = null,
): Promise<PageSettings> {
  const key = `page-settings:${storeId ?? "chain"}`;
  let mine = perRequest.get(c.req.raw);
  if (!mine) perRequest.set(c.req.raw, mine = new Map());
  let settings = mine.get(key);
  if (!settings) {
    const db = c.var.db;
    settings = readThrough(db, {
      key,
      tables: ["settings", "stores"],
      maxAgeMs: 5_000,
      load: () => findPageSettings(db, storeId),
    });
    mine.set(key, settings);
  }
  return settings;
}
