import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/app_env.ts";
import { kioskMayRequest } from "./scope.ts";

/** What an API call outside the kiosk's scope answers (no "Unauthorized": nothing to sign in to). */
export const KIOSK_FORBIDDEN =
  "Forbidden: this tablet is in client mode. Please hand it back to your optician.";

/**
 * Runs after the session is loaded, before every route. A kiosk session
 * reaches only what kioskMayRequest lists: other API calls get a 403, other
 * pages the kiosk notice (never the staff sign-in, which would lead into
 * staff screens). Nothing a kiosk sees is kept by the browser's cache.
 */
export function kioskGate(
  renderNotice: (c: Context<AppEnv>) => Response | Promise<Response>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const kiosk = c.var.kiosk;
    if (!kiosk) return await next();
    const path = c.req.path;
    if (kioskMayRequest(kiosk, c.req.method, path)) await next();
    // A JSON call outside /api (the online quote page's accept) is answered in JSON too.
    else if (
      path === "/api" || path.startsWith("/api/") ||
      (c.req.header("accept") ?? "").includes("application/json")
    ) {
      c.res = c.json({ message: KIOSK_FORBIDDEN }, 403);
    } else {
      c.res = await renderNotice(c);
    }
    // On the answer itself: c.header() would copy it around a stream (routes/app.ts).
    c.res.headers.set("Cache-Control", "no-store");
  };
}
