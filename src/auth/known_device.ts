import type { Context } from "hono";
import { getSignedCookie, setSignedCookie } from "hono/cookie";
import { hmac } from "@oslojs/crypto/hmac";
import { SHA256 } from "@oslojs/crypto/sha2";
import type { AppEnv } from "../http/app_env.ts";

/**
 * OWASP's device cookie: after a successful sign-in the browser gets a signed
 * cookie naming it and the accounts that signed in on it. A password check for
 * one of those accounts from that browser is held only by its own failure
 * count (password_throttle.ts), so nobody can lock an owner out of their own
 * computer by guessing from elsewhere. Store computers are shared, so one
 * cookie remembers several accounts.
 */
export interface KnownDevice {
  id: string;
  userIds: string[];
}

const MAX_ACCOUNTS = 20;
const LIFETIME_S = 180 * 24 * 60 * 60;

const cookieName = (secure: boolean) => secure ? "__Host-lensdesk_device" : "lensdesk_device";

const keys = new WeakMap<Uint8Array, Uint8Array<ArrayBuffer>>();
/** A key of its own, derived from SECRET_KEY, used for nothing else. */
function deviceKey(secretKey: Uint8Array): Uint8Array<ArrayBuffer> {
  let key = keys.get(secretKey);
  if (!key) {
    const label = new TextEncoder().encode("lensdesk known-device cookie v1");
    key = new Uint8Array(hmac(SHA256, secretKey, label));
    keys.set(secretKey, key);
  }
  return key;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The browser's device cookie when its signature holds, else undefined. */
export async function readKnownDevice(c: Context<AppEnv>): Promise<KnownDevice | undefined> {
  const { secretKey, secureCookies } = c.var.config;
  const value = await getSignedCookie(c, deviceKey(secretKey), cookieName(secureCookies));
  if (!value) return undefined;
  const [version, id, users = ""] = value.split(":");
  if (version !== "v1" || !UUID.test(id ?? "")) return undefined;
  return { id, userIds: users.split(",").filter((u) => UUID.test(u)) };
}

/** Adds the user to this browser's known accounts (issuing the cookie if it has none). */
export async function rememberDevice(
  c: Context<AppEnv>,
  userId: string,
  current: KnownDevice | undefined,
): Promise<void> {
  const { secretKey, secureCookies } = c.var.config;
  const id = current?.id ?? crypto.randomUUID();
  const userIds = [userId, ...(current?.userIds ?? []).filter((u) => u !== userId)]
    .slice(0, MAX_ACCOUNTS);
  await setSignedCookie(
    c,
    cookieName(secureCookies),
    `v1:${id}:${userIds.join(",")}`,
    deviceKey(secretKey),
    { httpOnly: true, sameSite: "Lax", secure: secureCookies, path: "/", maxAge: LIFETIME_S },
  );
}
