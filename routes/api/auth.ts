import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { auditActor } from "../../src/http/actor.ts";
import { readJson, unauthorized } from "../../src/http/errors.ts";
import { OWNER_INTENT, staffLoginSchema } from "../../src/schemas/auth.ts";
import { safeReturnTo } from "../../src/http/return_to.ts";
import {
  availableUsername,
  findExternalUserByEmail,
  findUserByExternalSubject,
  insertUser,
} from "../../src/users/users.ts";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import {
  beginSignIn,
  completeSignIn,
  OidcRejected,
  type PendingSignIn,
} from "../../src/auth/oidc.ts";
import { signInWithPassword } from "../../src/auth/staff_sign_in.ts";
import {
  createSession,
  deleteSessionCookie,
  generateSessionToken,
  invalidateSession,
  setSessionCookie,
} from "../../src/auth/session.ts";
import { recordAudit } from "../../src/audit/audit_log.ts";
import { askDeviceToForget } from "../../src/http/device_forget.ts";
import { passwordRecoveryApi } from "./password_recovery.ts";
import { twoFactorApi } from "./two_factor.ts";

export const authApi = new Hono<AppEnv>();
authApi.route("/", passwordRecoveryApi);
authApi.route("/", twoFactorApi);

authApi.post("/staff/login", async (c) => {
  const input = await readJson(c, staffLoginSchema);
  return c.json(await signInWithPassword(c, input));
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
  // What this browser kept of the clients it showed goes too (HTTP cache now,
  // the app's stores on the next page); a queued intake stays until sent.
  askDeviceToForget(c, c.var.config.secureCookies);
}

/**
 * Logout is a GET (the spec's links), so another site could sign a user out by
 * sending the browser here. A navigation the browser marks as coming from
 * another site (Sec-Fetch-Site other than same-origin or none, "none" being a
 * typed address or a bookmark) is sent to "/" with the session left alone.
 * Browsers that send no Sec-Fetch-Site are let through: nothing tells them apart.
 */
function fromAnotherSite(c: Context<AppEnv>): boolean {
  const site = c.req.header("sec-fetch-site");
  return site !== undefined && site !== "same-origin" && site !== "none";
}

authApi.get("/staff/logout", async (c) => {
  if (fromAnotherSite(c)) return c.redirect("/", 303);
  await signOut(c);
  return c.redirect("/staff", 302);
});

authApi.get("/logout", async (c) => {
  if (fromAnotherSite(c)) return c.redirect("/", 303);
  await signOut(c);
  return c.redirect("/", 302);
});

const OIDC_COOKIE = "lensdesk_oidc";

/**
 * `/api/login` is where the Owner Login button and the spec's "Unauthorized →
 * /api/login" rule both navigate. Only the button's `intent=owner` goes on to
 * the OpenID Connect provider; everything else (a lapsed session of anyone) is
 * sent to the staff sign-in with its returnTo. So a staff member whose session
 * ran out on a computer where the owner once signed in at the provider never
 * comes back signed in as the owner: reaching the provider takes a click on
 * Owner Login, and the provider is then told to ask for the password again
 * (prompt=login, max_age) and the callback checks that it did (auth_time).
 */
authApi.get("/login", async (c) => {
  const { oidc, appUrl, secureCookies } = c.var.config;
  const returnTo = safeReturnTo(c.req.query("returnTo"), appUrl, "");
  const staffSignIn = (owner?: string) => {
    const params = new URLSearchParams();
    if (owner) params.set("owner", owner);
    if (returnTo) params.set("returnTo", returnTo);
    return c.redirect(params.size ? `/staff?${params}` : "/staff", 302);
  };
  if (c.req.query("intent") !== OWNER_INTENT) return staffSignIn();
  if (!oidc) return staffSignIn("unavailable");
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
    const rejected = err instanceof OidcRejected ? err : undefined;
    c.var.logger.log("warn", "owner sign-in refused", { reason: String(err) });
    await recordAudit(c.var.db, { id: null, label: "oidc" }, "auth.login_failed", "user", null, {
      ip: c.var.clientIp,
      reason: rejected ? rejected.message : "token exchange or verification failed",
    });
    return c.redirect(`/staff?owner=${rejected?.notice ?? "failed"}`, 302);
  }
  const db = c.var.db;
  let user = await findUserByExternalSubject(db, identity.subject);
  // A listed e-mail belongs to one provider account: another subject with the
  // same address (a second account at the provider, or another provider that
  // lets people claim any address) does not become another owner.
  if (!user && await findExternalUserByEmail(db, identity.email)) {
    c.var.logger.log("warn", "owner sign-in refused", {
      reason: "e-mail already bound to another subject",
    });
    await recordAudit(db, { id: null, label: "oidc" }, "auth.login_failed", "user", null, {
      ip: c.var.clientIp,
      reason: "e-mail already bound to another provider account",
      email: identity.email,
    });
    return c.redirect("/staff?owner=denied", 302);
  }
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
  return c.redirect(safeReturnTo(pending.returnTo, appUrl), 302);
});
