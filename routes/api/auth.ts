import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { auditActor } from "../../src/http/actor.ts";
import { HttpError, readJson, unauthorized } from "../../src/http/errors.ts";
import { safeReturnTo, staffLoginSchema } from "../../src/schemas/auth.ts";
import {
  availableUsername,
  findUserByExternalSubject,
  findUserByUsername,
  insertUser,
} from "../../src/users/users.ts";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import {
  beginSignIn,
  completeSignIn,
  OidcRejected,
  type PendingSignIn,
} from "../../src/auth/oidc.ts";
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
      auditActor(c),
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

const OIDC_COOKIE = "lensdesk_oidc";

/**
 * Owner sign-in through the OpenID Connect provider. Until one is configured,
 * it sends the visitor to the staff sign-in, which says owner sign-in is
 * unavailable, keeping returnTo so a lapsed session lands back where it was.
 */
authApi.get("/login", async (c) => {
  const returnTo = safeReturnTo(c.req.query("returnTo"), "");
  const { oidc, appUrl, secureCookies } = c.var.config;
  if (!oidc) {
    const params = new URLSearchParams({ owner: "unavailable" });
    if (returnTo) params.set("returnTo", returnTo);
    return c.redirect(`/staff?${params}`, 302);
  }
  let begun;
  try {
    begun = await beginSignIn(oidc, appUrl, returnTo || "/dashboard");
  } catch (err) {
    c.var.logger.log("error", "owner sign-in: provider unreachable", { error: String(err) });
    return c.redirect("/staff?owner=failed", 302);
  }
  setCookie(c, OIDC_COOKIE, btoa(JSON.stringify(begun.pending)), {
    httpOnly: true,
    sameSite: "Lax",
    secure: secureCookies,
    path: "/api/callback",
    maxAge: 600,
  });
  return c.redirect(begun.url.toString(), 302);
});

function readPending(c: Context<AppEnv>): PendingSignIn | undefined {
  const raw = getCookie(c, OIDC_COOKIE);
  deleteCookie(c, OIDC_COOKIE, { path: "/api/callback", secure: c.var.config.secureCookies });
  if (!raw) return undefined;
  try {
    const value = JSON.parse(atob(raw));
    return typeof value?.state === "string" && typeof value?.codeVerifier === "string"
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

authApi.get("/callback", async (c) => {
  const { oidc, appUrl } = c.var.config;
  const pending = readPending(c);
  const code = c.req.query("code");
  if (!oidc || !pending || !code || c.req.query("state") !== pending.state) {
    return c.redirect("/staff?owner=failed", 302);
  }
  let identity;
  try {
    identity = await completeSignIn(oidc, appUrl, code, pending);
  } catch (err) {
    const denied = err instanceof OidcRejected;
    c.var.logger.log("warn", "owner sign-in refused", { reason: String(err) });
    await recordAudit(c.var.db, { id: null, label: "oidc" }, "auth.login_failed", "user", null, {
      ip: c.var.clientIp,
      reason: denied ? err.message : "token exchange or verification failed",
    });
    return c.redirect(`/staff?owner=${denied ? "denied" : "failed"}`, 302);
  }
  const db = c.var.db;
  let user = await findUserByExternalSubject(db, identity.subject);
  if (!user) {
    user = await insertUser(db, {
      username: await availableUsername(db, identity.email),
      firstName: identity.firstName,
      lastName: identity.lastName,
      email: identity.email,
      role: "OWNER",
      isExternal: true,
      externalSubject: identity.subject,
      passwordHash: null,
    });
    await recordAudit(
      db,
      { id: user.id, label: user.username },
      "user.create_owner_oidc",
      "user",
      user.id,
      { email: identity.email },
    );
  }
  if (c.var.session) await invalidateSession(db, c.var.session.id);
  const token = generateSessionToken();
  const session = await createSession(db, token, user.id, {
    ip: c.var.clientIp,
    userAgent: c.req.header("user-agent"),
  });
  setSessionCookie(c, token, session, c.var.config.secureCookies);
  await recordAudit(db, { id: user.id, label: user.username }, "auth.login", "user", user.id, {
    ip: c.var.clientIp,
    via: "oidc",
  });
  return c.redirect(safeReturnTo(pending.returnTo), 302);
});
