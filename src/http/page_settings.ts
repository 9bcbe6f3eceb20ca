import type { Context } from "hono";
import type { AppEnv } from "./app_env.ts";
import { findPageSettings, type PageSettings } from "../settings/settings.ts";

/*
 * The settings a page shows (branding, whether mail is configured), read once
 * per request however many parts of the page ask: the route's own content and
 * renderPage's chrome share one statement.
 *
 * Not kept across requests: an admin's save, a restore or a second app
 * process may change the row at any time, and a stale store name or mail
 * banner after a save is a bug people see, while the read is one primary-key
 * lookup (see the README's Performance section for what it costs).
 */
const perRequest = new WeakMap<Request, Promise<PageSettings>>();

export function pageSettings(c: Context<AppEnv>): Promise<PageSettings> {
  let settings = perRequest.get(c.req.raw);
  if (!settings) {
    settings = findPageSettings(c.var.db);
    perRequest.set(c.req.raw, settings);
  }
  return settings;
}
