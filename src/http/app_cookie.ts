import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";

/**
 * One of the app's own cookies, HttpOnly on the whole site. Over HTTPS its
 * name takes the __Host- prefix, which pins it to this exact origin; browsers
 * refuse that prefix over plain HTTP, so local installs use the bare name.
 */
export function appCookie(name: string, sameSite: "Lax" | "Strict") {
  const nameFor = (secure: boolean) => secure ? `__Host-${name}` : name;
  return {
    read: (c: Context, secure: boolean): string | undefined => getCookie(c, nameFor(secure)),
    set(c: Context, value: string, expires: Date, secure: boolean) {
      setCookie(c, nameFor(secure), value, {
        httpOnly: true,
        sameSite,
        secure,
        path: "/",
        expires,
      });
    },
    delete(c: Context, secure: boolean) {
      deleteCookie(c, nameFor(secure), { path: "/", secure, httpOnly: true, sameSite });
    },
  };
}
