// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
import { describe, it } from "node:test";
import { expect } from "expect";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { call, createTestUser, sessionCookieFor, startTestApp } from "../helpers/test_app.ts";
import { hashToken } from "../../src/auth/session.ts";
import { hasControlChar, HOSTILE_RETURN_TO } from "../helpers/hostile_return_to.ts";
import { useTestApp } from "../helpers/suite.ts";
import { ON_SERVER } from "../helpers/database.ts";
import { sql } from "kysely";

let app: TestApp, maria: TestUser;

useTestApp(async (started) => {
  ({ app } = started);
  maria = await createTestUser(app.db, {
    username: "maria",
    firstName: "Maria",
    email: "maria@store.test",
  });
});

function sessionToken(setCookie: string | null): string {
  const match = /lensdesk_session=([^;]*)/.exec(setCookie ?? "");
  if (!match) throw new Error(`no session cookie in ${setCookie}`);
  return match[1];
}

describe("POST /api/staff/login", () => {
  it("signs in, stores only the token's hash, and sets a locked-down cookie", async () => {
    const res = await call(app, "POST", "/api/staff/login", {
      body: { username: "maria", password: maria.password },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ returnTo: "/dashboard" });
    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/i);
    const token = sessionToken(setCookie);
    expect(token.length).toBeGreaterThanOrEqual(26); // 160 bits in base32
    const rows = await app.db.selectFrom("sessions").select("id").where("userId", "=", maria.id)
      .execute();
    expect(rows.map((r) => r.id)).toContain(hashToken(token));
    expect(rows.map((r) => r.id)).not.toContain(token);
  });

  it("matches the username regardless of case and surrounding spaces", async () => {
    const res = await call(app, "POST", "/api/staff/login", {
      body: { username: "  MARIA ", password: maria.password },
    });
    expect(res.status).toBe(200);
  });

  it("echoes a local returnTo; one that would leave the site falls back to the dashboard", async () => {
    const ok = await call(app, "POST", "/api/staff/login", {
      body: { username: "maria", password: maria.password, returnTo: "/clients?filter=missing" },
    });
    expect(ok.body).toEqual({ returnTo: "/clients?filter=missing" });
    for (const returnTo of HOSTILE_RETURN_TO) {
      const res = await call(app, "POST", "/api/staff/login", {
        body: { username: "maria", password: maria.password, returnTo },
      });
      expect([returnTo, res.status, res.body]).toEqual([returnTo, 200, { returnTo: "/dashboard" }]);
    }
  });

  it("starts a new session at every sign-in and ends the one the browser came with", async () => {
    const first = await call(app, "POST", "/api/staff/login", {
      body: { username: "maria", password: maria.password },
    });
    const oldToken = sessionToken(first.headers.get("set-cookie"));
    const second = await call(app, "POST", "/api/staff/login", {
      body: { username: "maria", password: maria.password },
      cookie: `lensdesk_session=${oldToken}`,
    });
    const newToken = sessionToken(second.headers.get("set-cookie"));
    expect(newToken).not.toBe(oldToken);
    const old = await call(app, "GET", "/api/auth/user", {
      cookie: `lensdesk_session=${oldToken}`,
    });
    expect(old.status).toBe(401);
    const fresh = await call(app, "GET", "/api/auth/user", {
      cookie: `lensdesk_session=${newToken}`,
    });
    expect(fresh.status).toBe(200);
  });

  it("answers a wrong password and an unknown user the same way", async () => {
    const wrong = await call(app, "POST", "/api/staff/login", {
      body: { username: "maria", password: "nope" },
    });
    const unknown = await call(app, "POST", "/api/staff/login", {
      body: { username: "nobody-here", password: "nope" },
    });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: "Invalid username or password" });
      expect(res.headers.get("set-cookie")).toBeNull();
    }
  });

  it("gives bad input a 400 with a message, never a 500", async () => {
    const cases: Array<[unknown, string]> = [
      [{ username: "maria" }, "password"],
      [{ password: "x" }, "username"],
      [{ username: "  ", password: "x" }, "username"],
      [{ username: 42, password: ["x"] }, "username"],
      [[], "_"],
    ];
    for (const [body, field] of cases) {
      const res = await call<{ message: string; errors: Record<string, string> }>(
        app,
        "POST",
        "/api/staff/login",
        { body },
      );
      expect(res.status).toBe(400);
      expect(res.body.message.length).toBeGreaterThan(0);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    const broken = await call(app, "POST", "/api/staff/login", { body: "{not json" });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ message: "The request body is not valid JSON" });
    const form = await call(app, "POST", "/api/staff/login", {
      body: "username=a&password=b",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
  });
});

describe("GET /api/auth/user", () => {
  it("is a 401 containing Unauthorized without a session", async () => {
    const res = await call<{ message: string }>(app, "GET", "/api/auth/user");
    expect(res.status).toBe(401);
    expect(res.body.message).toContain("Unauthorized");
  });

  it("returns the signed-in user with the isReplitUser flag", async () => {
    const cookie = await sessionCookieFor(app.db, maria.id);
    const res = await call(app, "GET", "/api/auth/user", { cookie });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: maria.id,
      firstName: "Maria",
      lastName: "",
      username: "maria",
      email: "maria@store.test",
      role: "AUTHORIZED_USER",
      isReplitUser: false,
    });
  });

  it("rejects a forged or garbage cookie and clears it", async () => {
    const res = await call(app, "GET", "/api/auth/user", { cookie: "lensdesk_session=forged" });
    expect(res.status).toBe(401);
    expect(res.headers.get("set-cookie")).toMatch(/lensdesk_session=;/);
  });
});

describe("the session lookup", () => {
  it("is prepared once per connection on a server, while ordinary statements stay unnamed", async () => {
    const cookie = await sessionCookieFor(app.db, maria.id);
    for (let i = 0; i < 3; i++) {
      expect((await call(app, "GET", "/api/auth/user", { cookie })).status).toBe(200);
    }
    // One request at a time: the pool hands back the connection it took last.
    const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`
      .execute(app.db);
    const statements = prepared.rows.map((r) => r.statement);
    if (ON_SERVER) {
      expect(statements.filter((s) => s.includes('from "sessions"'))).toHaveLength(1);
      expect(statements.some((s) => s.includes("pg_prepared_statements"))).toBe(false);
    } else {
      // PGlite runs every statement as it comes.
      expect(statements).toEqual([]);
    }
  });
});

describe("session expiry", () => {
  it("ends a session idle for 30 minutes", async () => {
    const cookie = await sessionCookieFor(app.db, maria.id);
    const id = hashToken(cookie.split("=")[1]);
    await app.db.updateTable("sessions").set({ expiresAt: new Date(Date.now() - 1000) })
      .where("id", "=", id).execute();
    expect((await call(app, "GET", "/api/auth/user", { cookie })).status).toBe(401);
    const left = await app.db.selectFrom("sessions").select("id").where("id", "=", id).execute();
    expect(left).toEqual([]);
  });

  it("ends a session after 12 hours however busy", async () => {
    const cookie = await sessionCookieFor(app.db, maria.id);
    const id = hashToken(cookie.split("=")[1]);
    await app.db.updateTable("sessions").set({ absoluteExpiresAt: new Date(Date.now() - 1000) })
      .where("id", "=", id).execute();
    expect((await call(app, "GET", "/api/auth/user", { cookie })).status).toBe(401);
  });

  it("slides the idle deadline forward when used", async () => {
    const cookie = await sessionCookieFor(app.db, maria.id);
    const id = hashToken(cookie.split("=")[1]);
    const soon = new Date(Date.now() + 5 * 60 * 1000);
    await app.db.updateTable("sessions").set({ expiresAt: soon }).where("id", "=", id).execute();
    expect((await call(app, "GET", "/api/auth/user", { cookie })).status).toBe(200);
    const row = await app.db.selectFrom("sessions").select("expiresAt").where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 60 * 1000);
  });
});

describe("logout", () => {
  it("GET /api/staff/logout ends the session and goes to the staff sign-in", async () => {
    const cookie = await sessionCookieFor(app.db, maria.id);
    const res = await call(app, "GET", "/api/staff/logout", { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/staff");
    expect(res.headers.get("set-cookie")).toMatch(/lensdesk_session=;/);
    expect((await call(app, "GET", "/api/auth/user", { cookie })).status).toBe(401);
  });

  it("GET /api/logout ends the session and goes home", async () => {
    const cookie = await sessionCookieFor(app.db, maria.id);
    const res = await call(app, "GET", "/api/logout", { cookie });
    expect(res.headers.get("location")).toBe("/");
    expect((await call(app, "GET", "/api/auth/user", { cookie })).status).toBe(401);
  });

  it("refuses a sign-out another site sent the browser to, and keeps the session", async () => {
    for (const path of ["/api/staff/logout", "/api/logout"]) {
      for (const site of ["cross-site", "same-site"]) {
        const cookie = await sessionCookieFor(app.db, maria.id);
        const res = await call(app, "GET", path, {
          cookie,
          headers: { "sec-fetch-site": site, "sec-fetch-mode": "navigate" },
        });
        expect([path, site, res.status, res.headers.get("location")]).toEqual([
          path,
          site,
          303,
          "/",
        ]);
        expect(res.headers.get("set-cookie")).toBeNull();
        expect((await call(app, "GET", "/api/auth/user", { cookie })).status).toBe(200);
      }
    }
  });

  it("signs out from the staff bar (same-origin) and from a typed address (none)", async () => {
    for (const path of ["/api/staff/logout", "/api/logout"]) {
      for (const site of ["same-origin", "none"]) {
        const cookie = await sessionCookieFor(app.db, maria.id);
        const res = await call(app, "GET", path, {
          cookie,
          headers: { "sec-fetch-site": site, "sec-fetch-mode": "navigate" },
        });
        expect(res.status).toBe(302);
        expect(res.headers.get("location")).toBe(path === "/api/logout" ? "/" : "/staff");
        expect((await call(app, "GET", "/api/auth/user", { cookie })).status).toBe(401);
      }
    }
  });

  it("records sign-ins and sign-outs in the audit log", async () => {
    const rows = await app.db.selectFrom("auditLog").select(["action"]).where(
      "userId",
      "=",
      maria.id,
    )
      .execute();
    const actions = new Set(rows.map((r) => r.action));
    expect(actions.has("auth.login")).toBe(true);
    expect(actions.has("auth.login_failed")).toBe(true);
    expect(actions.has("auth.logout")).toBe(true);
  });
});

describe("GET /api/login without an owner sign-in provider", () => {
  it("sends a lapsed session (no intent) to the staff sign-in, keeping returnTo", async () => {
    const res = await call(app, "GET", "/api/login?returnTo=%2Fquotes");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/staff?returnTo=%2Fquotes");
    const bare = await call(app, "GET", "/api/login");
    expect(bare.headers.get("location")).toBe("/staff");
  });

  it("tells the Owner Login button's visitor that owner sign-in is not configured", async () => {
    const res = await call(app, "GET", "/api/login?intent=owner&returnTo=%2Fquotes");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/staff?owner=unavailable&returnTo=%2Fquotes");
  });

  it("drops a returnTo that would leave the site", async () => {
    for (const returnTo of HOSTILE_RETURN_TO) {
      const res = await call(app, "GET", `/api/login?returnTo=${encodeURIComponent(returnTo)}`);
      expect([returnTo, res.status, res.headers.get("location")]).toEqual(
        hasControlChar(returnTo) ? [returnTo, 400, null] : [returnTo, 302, "/staff"],
      );
    }
  });
});

describe("secure cookies", () => {
  it("marks the cookie Secure with the __Host- prefix behind an https APP_URL", async () => {
    const secure = await startTestApp({ APP_URL: "https://store.example" });
    try {
      const user = await createTestUser(secure.db);
      const res = await call(secure, "POST", "/api/staff/login", {
        body: { username: user.username, password: user.password },
      });
      const setCookie = res.headers.get("set-cookie")!;
      expect(setCookie).toMatch(/^__Host-lensdesk_session=/);
      expect(setCookie).toMatch(/Secure/);
      // The known-device cookie too: pinned to this origin, out of reach of scripts.
      const device = res.headers.getSetCookie().find((h) => h.includes("lensdesk_device="))!;
      expect(device).toMatch(/^__Host-lensdesk_device=/);
      expect(device).toMatch(/; Secure/);
      expect(device).toMatch(/; HttpOnly/);
      expect(device).toMatch(/; Path=\//);
    } finally {
      await secure.close();
    }
  });
});
