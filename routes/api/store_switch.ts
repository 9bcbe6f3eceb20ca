// The staff bar's store picker (components/StaffNav.tsx StorePicker): a plain
// form post, so switching stores works before (or without) any script.
import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { HttpError } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { safeReturnTo } from "../../src/http/return_to.ts";
import {
  NOT_A_STORE_OF_YOURS,
  rememberStore,
  userStoresOf,
} from "../../src/stores/current_store.ts";

export const storeSwitchApi = new Hono<AppEnv>();

/**
 * This device works in the chosen store from now on; back to the page it was
 * chosen on, without that page's own `store` (a list then shows the new store).
 */
storeSwitchApi.post("/stores/switch", requireUser(), async (c) => {
  const form = await c.req.parseBody().catch(() => ({} as Record<string, unknown>));
  const stores = await userStoresOf(c, c.var.user!);
  const store = stores.find((s) => s.id === form.storeId);
  if (!store) throw new HttpError(403, NOT_A_STORE_OF_YOURS, { storeId: NOT_A_STORE_OF_YOURS });
  rememberStore(c, store.id);
  const back = new URL(safeReturnTo(form.returnTo, c.var.config.appUrl), "http://x");
  back.searchParams.delete("store");
  return c.redirect(back.pathname + back.search + back.hash, 303);
});
