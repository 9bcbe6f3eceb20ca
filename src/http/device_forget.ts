import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { FORGET_COOKIE } from "./forget_cookie.ts";

export { FORGET_COOKIE };

/**
 * What ends a staff session or a kiosk session asks of the browser
 * (docs/security.md, "What the device keeps, and when it forgets").
 *
 * Clear-Site-Data "cache": the browser's HTTP cache and its back/forward
 * cache, so Back cannot bring a client's page out of them. Not "storage": it
 * would also delete, all at once, the IndexedDB database holding an intake the
 * client submitted that is still waiting for the connection, and unregister
 * the tablets' service worker. The page clears the app's own stores instead,
 * and keeps that queue (components/offline/forget_device.ts), which also
 * covers the browsers and origins where Clear-Site-Data is not honoured (plain
 * http on anything but localhost).
 */
export const CLEAR_SITE_DATA = '"cache"';

/*
 * FORGET_COOKIE is set by the sign-out answers (redirects, which run no
 * script) and by the end of a kiosk session: the next page this browser is given carries the small script that
 * clears the device (islands/_forget.ts, see renderPage), which deletes the
 * cookie once done. Readable by that script for this reason; it holds no
 * secret, and a site that could set it could only make the device forget its
 * drafts.
 */

/** Long enough to outlive a browser closed right after signing out. */
const FORGET_COOKIE_MAX_AGE = 30 * 24 * 60 * 60;

/**
 * Sign-out, or the end of a kiosk session: the browser forgets its caches now,
 * and the app's stores on the next page.
 */
export function askDeviceToForget(c: Context, secure: boolean): void {
  c.header("Clear-Site-Data", CLEAR_SITE_DATA);
  setCookie(c, FORGET_COOKIE, "1", {
    path: "/",
    sameSite: "Lax",
    secure,
    maxAge: FORGET_COOKIE_MAX_AGE,
  });
}

/** The request comes from a browser that was signed out and has not yet cleared the device. */
export const deviceMustForget = (c: Context): boolean => getCookie(c, FORGET_COOKIE) === "1";
