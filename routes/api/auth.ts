import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { HttpError, readJson, unauthorized } from "../../src/http/errors.ts";
import { safeReturnTo, staffLoginSchema } from "../../src/schemas/auth.ts";
import { findUserByUsername } from "../../src/users/users.ts";
import { verifyPassword } from "../../src/auth/password.ts";
import {
  createSession,
  deleteSessionCookie,
  generateSessionToken,
  invalidateSession,
  setSessionCookie,
} from "../../src/auth/session.ts";
import { throttleMessage } from "../../src/auth/throttle.ts";
import { recordAudit } from "../../src/audit/audit_log.ts";

export const authApi = new Hono<AppEnv>();

authApi.post("/staff/login", async (c) => {
  const input = await readJson(c, staffLoginSchema);
  const { db, loginThrottle, clientIp } = c.var;
  const accountKey = input.username.toLowerCase();
  const wait = Math.max(
    loginThrottle.account.retryAfterMs(accountKey),
    loginThrottle.address.retryAfterMs(clientIp),
  );
  if (wait > 0) {
    throw new HttpError(429, throttleMessage(wait), undefined, {
      "Retry-After": String(Math.ceil(wait / 1000)),
    });
  }
  const user = await findUserByUsername(db, input.username);
  const ok = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !ok) {
    loginThrottle.account.record(accountKey);
    loginThrottle.address.record(clientIp);
    await recordAudit(
      db,
      { id: user?.id ?? null, label: input.username },
      "auth.login_failed",
      "user",
      user?.id ?? null,
      { ip: clientIp },
    );
    throw new HttpError(401, "Invalid username or password");
  }
  loginThrottle.account.reset(accountKey);
  // A new session at every sign-in; the one the browser came with (if any) ends.
  if (c.var.session) await invalidateSession(db, c.var.session.id);
  const token = generateSessionToken();
  const session = await createSession(db, token, user.id, {
    ip: clientIp,
    userAgent: c.req.header("user-agent"),
  });
  setSessionCookie(c, token, session, c.var.config.secureCookies);
  await recordAudit(db, { id: user.id, label: user.username }, "auth.login", "user", user.id, {
    ip: clientIp,
  });
  return c.json({ returnTo: safeReturnTo(input.returnTo) });
});

authApi.get("/auth/user", (c) => {
  const user = c.var.user;
  if (!user) throw unauthorized();
  return c.json({
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    username: user.username,
    email: user.email,
    role: user.role,
    // Named as the spec names it: "signed in through the external provider".
    isReplitUser: user.isExternal,
  });
});

async function signOut(c: Context<AppEnv>) {
  if (c.var.session) {
    await invalidateSession(c.var.db, c.var.session.id);
    await recordAudit(
      c.var.db,
      { id: c.var.user!.id, label: c.var.user!.username },
      "auth.logout",
      "user",
      c.var.user!.id,
    );
  }
  deleteSessionCookie(c, c.var.config.secureCookies);
}

authApi.get("/staff/logout", async (c) => {
  await signOut(c);
  return c.redirect("/staff", 302);
});

authApi.get("/logout", async (c) => {
  await signOut(c);
  return c.redirect("/", 302);
});

/**
 * Owner sign-in through an external provider. Until it is configured, it sends
 * the visitor to the staff sign-in, which says owner sign-in is unavailable,
 * keeping returnTo so a lapsed session lands back where it was.
 */
authApi.get("/login", (c) => {
  const returnTo = safeReturnTo(c.req.query("returnTo"), "");
  const params = new URLSearchParams({ owner: "unavailable" });
  if (returnTo) params.set("returnTo", returnTo);
  return c.redirect(`/staff?${params}`, 302);
});
