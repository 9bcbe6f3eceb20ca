// Rows of the route table: health checks, signing in and out, passwords and the second factor.
import { get, ok, send } from "./build.ts";
import type { RouteEntry } from "./expectations.ts";
import { forgetResetCounts, freshUser, TEST_PASSWORD } from "./fixtures.ts";
import { issueResetToken } from "../../../src/auth/password_reset.ts";

export const SIGN_IN_ROUTES: RouteEntry[] = [
  // ---- Health ----
  get("/healthz", "public", ok(200)),

  get("/readyz", "public", ok(200)),
  {
    // Off unless METRICS_TOKEN is set (it is not here): a 404 page for everyone.
    method: "GET",
    pattern: "/metrics",
    page: true,
    access: "public",
    ok: ok(404),
    request: () =>
      Promise.resolve({ path: "/metrics", headers: { authorization: "Bearer guess" } }),
  },
  {
    // Uploaded images are public: the logo shows on the sign-in page.
    method: "GET",
    pattern: "/uploads/:name",
    access: "public",
    ok: ok(200),
    request: async (fx) => ({ path: await fx.servedLogo() }),
  },

  // ---- Sign-in and session ----
  send("POST", "/api/staff/login", "public", ok(200), async (fx) => {
    const user = await freshUser(fx.app.db, "AUTHORIZED_USER");
    return {
      path: "/api/staff/login",
      body: { username: user.username, password: TEST_PASSWORD, returnTo: "/clients" },
    };
  }),
  get("/api/auth/user", "staff", ok(200)),
  send("PUT", "/api/auth/change-password", "staff", ok(200), () =>
    Promise.resolve({
      path: "/api/auth/change-password",
      body: { currentPassword: TEST_PASSWORD, newPassword: "a-new-password" },
    })),
  {
    method: "POST",
    pattern: "/api/auth/forgot-password",
    access: "public",
    ok: ok(200),
    // A fresh address each time, and the per-client count forgotten, so the
    // limits never answer instead (every caller comes from one address).
    request: async (fx) => {
      await forgetResetCounts(fx);
      return {
        path: "/api/auth/forgot-password",
        body: { email: `rt-${crypto.randomUUID().slice(0, 8)}@nowhere.test` },
      };
    },
  },
  send("POST", "/api/auth/reset-password", "public", ok(200), async (fx) => {
    const user = await freshUser(fx.app.db, "AUTHORIZED_USER");
    const token = await issueResetToken(fx.app.db, user.id);
    return { path: "/api/auth/reset-password", body: { token, newPassword: "reset-by-link" } };
  }),
  {
    method: "POST",
    pattern: "/api/auth/two-factor/verify",
    access: "public",
    // No sign-in step under way (no password given first): sign in again.
    ok: ok(401),
    request: () =>
      Promise.resolve({ path: "/api/auth/two-factor/verify", body: { code: "123456" } }),
  },
  send(
    "POST",
    "/api/auth/two-factor/setup",
    "admin",
    ok(200),
    () => Promise.resolve({ path: "/api/auth/two-factor/setup" }),
  ),
  {
    method: "POST",
    pattern: "/api/auth/two-factor/enable",
    access: "admin",
    // A fresh account has begun no enrolment, so no code can match.
    ok: ok(400),
    request: () =>
      Promise.resolve({ path: "/api/auth/two-factor/enable", body: { code: "123456" } }),
  },
  {
    method: "DELETE",
    pattern: "/api/auth/two-factor",
    access: "admin",
    // A fresh account has no second factor, so no code is right.
    ok: ok(400),
    request: () => Promise.resolve({ path: "/api/auth/two-factor", body: { code: "123456" } }),
  },
  send(
    "PUT",
    "/api/admin/two-factor-policy",
    "owner",
    ok(200),
    () => Promise.resolve({ path: "/api/admin/two-factor-policy", body: { required: false } }),
  ),
  get("/api/staff/logout", "public", ok(302, /^\/staff$/)),
  get("/api/logout", "public", ok(302, /^\/$/)),
  // Staff always sign in on /staff; the owner's provider only with intent=owner.
  get("/api/login", "public", ok(302, /^\/staff\?returnTo=%2Fquotes$/), {
    query: ["returnTo", "intent"],
    path: "/api/login?returnTo=%2Fquotes",
  }),
  get("/api/callback", "public", ok(302, /^\/staff\?owner=failed$/), {
    query: ["code", "state"],
    path: "/api/callback?code=x&state=y",
  }),
];
