import { describe, it } from "node:test";
import { expect } from "expect";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { call, createTestUser, sessionCookieFor, startTestApp } from "../helpers/test_app.ts";
import { assignableRoles, canSetChainAdmin, userPermissions } from "../../src/users/permissions.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp;
let owner: TestUser;
let admin: TestUser;
let staff: TestUser;
let ownerCookie: string;
let adminCookie: string;
let staffCookie: string;

useTestApp(async (started) => {
  ({ app } = started);
  owner = await createTestUser(app.db, { role: "OWNER", username: "olivia" });
  admin = await createTestUser(app.db, { role: "ADMIN", username: "adam" });
  staff = await createTestUser(app.db, { username: "sam" });
  ownerCookie = await sessionCookieFor(app.db, owner.id);
  adminCookie = await sessionCookieFor(app.db, admin.id);
  staffCookie = await sessionCookieFor(app.db, staff.id);
});

const login = (username: string, password: string) =>
  call(app, "POST", "/api/staff/login", { body: { username, password } });

const newUser = (over: Record<string, unknown> = {}) => ({
  email: "new@store.test",
  firstName: "Nia",
  lastName: "New",
  username: `nia${crypto.randomUUID().slice(0, 6)}`,
  password: "secret1",
  role: "AUTHORIZED_USER",
  ...over,
});

describe("permissions (pure)", () => {
  it("follow the spec's table", () => {
    const o = { id: "o", role: "OWNER" as const };
    const a = { id: "a", role: "ADMIN" as const, chainAdmin: true };
    const s = { id: "s", role: "AUTHORIZED_USER" as const, storeIds: ["B"] };
    expect(userPermissions(o, a)).toMatchObject({ canResetPassword: true, canDelete: true });
    expect(userPermissions(a, o)).toMatchObject({
      canResetPassword: false,
      canChangeRole: false,
      canDelete: false,
    });
    expect(userPermissions(a, { ...a, id: "a2" })).toMatchObject({
      canResetPassword: false,
      canDelete: false,
    });
    expect(userPermissions(a, s)).toMatchObject({
      canResetPassword: true,
      canChangeRole: true,
      canDelete: true,
    });
    expect(userPermissions(o, o).canDelete).toBe(false);
    // A store admin manages the staff of their own stores only.
    const storeAdmin = { id: "sa", role: "ADMIN" as const, chainAdmin: false, storeIds: ["A"] };
    expect(userPermissions(storeAdmin, s)).toMatchObject({
      canResetPassword: false,
      canChangeRole: false,
      canChangeStores: false,
      canDelete: false,
    });
    expect(userPermissions({ ...storeAdmin, storeIds: ["A", "B"] }, s)).toMatchObject({
      canResetPassword: true,
      canChangeStores: true,
      canDelete: true,
    });
    expect(canSetChainAdmin(storeAdmin)).toBe(false);
    expect(canSetChainAdmin(a) && canSetChainAdmin(o)).toBe(true);
    expect(assignableRoles("ADMIN")).toEqual(["AUTHORIZED_USER", "ADMIN"]);
    expect(assignableRoles("OWNER")).toContain("OWNER");
  });
});

describe("user management API", () => {
  it("lists users for ADMIN and OWNER only", async () => {
    const res = await call<Array<{ username: string }>>(app, "GET", "/api/admin/users", {
      cookie: adminCookie,
    });
    expect(res.status).toBe(200);
    expect(res.body.map((u) => u.username)).toEqual(
      expect.arrayContaining(["olivia", "adam", "sam"]),
    );
    expect(JSON.stringify(res.body)).not.toContain("argon2");
    expect((await call(app, "GET", "/api/admin/users", { cookie: staffCookie })).status).toBe(403);
    expect((await call(app, "GET", "/api/admin/users")).status).toBe(401);
  });

  it("creates a user who can then sign in; validates; refuses duplicates and owners from admins", async () => {
    const body = newUser();
    const res = await call(app, "POST", "/api/admin/users/invite", { body, cookie: adminCookie });
    expect(res.status).toBe(201);
    expect((await login(body.username, "secret1")).status).toBe(200);
    const dup = await call<{ message: string }>(app, "POST", "/api/admin/users/invite", {
      body: { ...body, username: body.username.toUpperCase() },
      cookie: adminCookie,
    });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe("That username is already taken");
    const ownerByAdmin = await call(app, "POST", "/api/admin/users/invite", {
      body: newUser({ role: "OWNER" }),
      cookie: adminCookie,
    });
    expect(ownerByAdmin.status).toBe(403);
    expect(
      (await call(app, "POST", "/api/admin/users/invite", {
        body: newUser({ role: "OWNER" }),
        cookie: ownerCookie,
      })).status,
    ).toBe(201);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ firstName: "" }, "Please fill in all required fields."],
      [{ username: "ab" }, "Username is required and must be at least 3 characters."],
      [{ password: "12345" }, "Password must be at least 6 characters long."],
      [{ email: "x" }, "Please enter a valid email address"],
    ];
    for (const [over, message] of cases) {
      const bad = await call<{ message: string }>(app, "POST", "/api/admin/users/invite", {
        body: newUser(over),
        cookie: ownerCookie,
      });
      expect([bad.status, bad.body.message]).toEqual([400, message]);
    }
  });

  it("four simultaneous creations of one username: one 201, three 409 with a clear message", async () => {
    const username = `race${crypto.randomUUID().slice(0, 6)}`;
    const answers = await Promise.all(
      [ownerCookie, adminCookie, ownerCookie, adminCookie].map((cookie, i) =>
        call<{ message: string; errors?: Record<string, string> }>(
          app,
          "POST",
          "/api/admin/users/invite",
          { body: newUser({ username, email: `race${i}@store.test` }), cookie },
        )
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.body).toEqual({
        message: "That username is already taken",
        errors: { username: "That username is already taken" },
      });
    }
    const rows = await app.db.selectFrom("users").select("id").where("username", "=", username)
      .execute();
    expect(rows.length).toBe(1);
    // Renaming two users to one free name at once: the same.
    const [a, b] = await Promise.all(
      [1, 2].map((n) =>
        createTestUser(app.db, { username: `ren${n}${crypto.randomUUID().slice(0, 4)}` })
      ),
    );
    const target = `ren${crypto.randomUUID().slice(0, 6)}`;
    const renames = await Promise.all(
      [a, b].map((u) =>
        call(app, "PUT", `/api/admin/users/${u.id}`, {
          body: { username: target },
          cookie: ownerCookie,
        })
      ),
    );
    expect(renames.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it("refuses whitespace-only passwords at creation, reset and own change", async () => {
    const message = "Password must not be only spaces or invisible characters.";
    const created = await call<{ errors: Record<string, string> }>(
      app,
      "POST",
      "/api/admin/users/invite",
      { body: newUser({ password: "       " }), cookie: ownerCookie },
    );
    expect([created.status, created.body.errors]).toEqual([400, { password: message }]);
    const victim = await createTestUser(app.db);
    const reset = await call<{ errors: Record<string, string> }>(
      app,
      "PUT",
      `/api/admin/users/${victim.id}/password`,
      { body: { newPassword: " \u00a0      \u3000 " }, cookie: ownerCookie },
    );
    expect([reset.status, reset.body.errors]).toEqual([400, { newPassword: message }]);
    const me = await createTestUser(app.db);
    const own = await call<{ errors: Record<string, string> }>(
      app,
      "PUT",
      "/api/auth/change-password",
      {
        body: { currentPassword: me.password, newPassword: "        " },
        cookie: await sessionCookieFor(app.db, me.id),
      },
    );
    expect([own.status, own.body.errors]).toEqual([400, { newPassword: message }]);
    // Zero-width spaces and Hangul fillers show nothing either.
    for (const invisible of ["\u200b".repeat(6), "\u3164".repeat(6)]) {
      const res = await call<{ errors: Record<string, string> }>(
        app,
        "PUT",
        `/api/admin/users/${victim.id}/password`,
        { body: { newPassword: invisible }, cookie: ownerCookie },
      );
      expect([res.status, res.body.errors]).toEqual([400, { newPassword: message }]);
    }
    // Spaces inside a password are fine.
    expect(
      (await call(app, "PUT", `/api/admin/users/${victim.id}/password`, {
        body: { newPassword: " two words " },
        cookie: ownerCookie,
      })).status,
    ).toBe(200);
    expect((await login(victim.username, " two words ")).status).toBe(200);
  });

  it("never gives an owner who signs in through the provider a local password", async () => {
    const external = await createTestUser(app.db, { role: "OWNER", external: true });
    const answer = {
      message:
        "This account signs in through the owner sign-in provider, so it has no password here to set or change.",
    };
    const reset = await call(app, "PUT", `/api/admin/users/${external.id}/password`, {
      body: { newPassword: "local-pass" },
      cookie: ownerCookie,
    });
    expect([reset.status, reset.body]).toEqual([409, answer]);
    // An admin may not touch an owner at all: still the role's 403.
    const byAdmin = await call(app, "PUT", `/api/admin/users/${external.id}/password`, {
      body: { newPassword: "local-pass" },
      cookie: adminCookie,
    });
    expect(byAdmin.status).toBe(403);
    const own = await call(app, "PUT", "/api/auth/change-password", {
      body: { currentPassword: "anything", newPassword: "local-pass" },
      cookie: await sessionCookieFor(app.db, external.id),
    });
    expect([own.status, own.body]).toEqual([409, answer]);
    const row = await app.db.selectFrom("users").select("passwordHash")
      .where("id", "=", external.id).executeTakeFirstOrThrow();
    expect(row.passwordHash).toBeNull();
    // So the staff sign-in cannot be used to enter as that owner.
    expect((await login(external.username, "local-pass")).status).toBe(401);
    expect(
      userPermissions({ id: owner.id, role: "OWNER" }, { ...external, isExternal: true })
        .canResetPassword,
    ).toBe(false);
  });

  it("resets another user's password and ends their sessions, within the role rules", async () => {
    const victim = await createTestUser(app.db, {
      username: `reset${crypto.randomUUID().slice(0, 4)}`,
    });
    const theirCookie = await sessionCookieFor(app.db, victim.id);
    const res = await call(app, "PUT", `/api/admin/users/${victim.id}/password`, {
      body: { newPassword: "fresh-pass" },
      cookie: adminCookie,
    });
    expect(res.status).toBe(200);
    expect((await login(victim.username, victim.password)).status).toBe(401);
    expect((await login(victim.username, "fresh-pass")).status).toBe(200);
    expect((await call(app, "GET", "/api/auth/user", { cookie: theirCookie })).status).toBe(401);
    expect(
      (await call(app, "PUT", `/api/admin/users/${owner.id}/password`, {
        body: { newPassword: "hijack!" },
        cookie: adminCookie,
      })).status,
    ).toBe(403);
    expect(
      (await call(app, "PUT", `/api/admin/users/${victim.id}/password`, {
        body: { newPassword: "123" },
        cookie: adminCookie,
      })).status,
    ).toBe(400);
  });

  it("changes roles and usernames within the rules", async () => {
    const u = await createTestUser(app.db, { username: `role${crypto.randomUUID().slice(0, 4)}` });
    const up = await call<{ role: string }>(app, "PUT", `/api/admin/users/${u.id}`, {
      body: { role: "ADMIN" },
      cookie: adminCookie,
    });
    expect([up.status, up.body.role]).toEqual([200, "ADMIN"]);
    // Now an ADMIN: another ADMIN may no longer change it.
    expect(
      (await call(app, "PUT", `/api/admin/users/${u.id}`, {
        body: { role: "AUTHORIZED_USER" },
        cookie: adminCookie,
      }))
        .status,
    ).toBe(403);
    const renamed = await call<{ username: string }>(app, "PUT", `/api/admin/users/${u.id}`, {
      body: { username: "renamed.user" },
      cookie: ownerCookie,
    });
    expect(renamed.body.username).toBe("renamed.user");
    expect(
      (await call(app, "PUT", `/api/admin/users/${u.id}`, {
        body: { username: "sam" },
        cookie: ownerCookie,
      }))
        .status,
    ).toBe(409);
    expect(
      (await call(app, "PUT", `/api/admin/users/${u.id}`, {
        body: { username: "ab" },
        cookie: ownerCookie,
      }))
        .status,
    ).toBe(400);
    expect(
      (await call(app, "PUT", `/api/admin/users/${u.id}`, {
        body: { role: "KING" },
        cookie: ownerCookie,
      }))
        .status,
    ).toBe(400);
  });

  it("deletes within the rules, never oneself", async () => {
    const s = await createTestUser(app.db, { username: `del${crypto.randomUUID().slice(0, 4)}` });
    expect(
      (await call(app, "DELETE", `/api/admin/users/${admin.id}`, { cookie: adminCookie })).status,
    )
      .toBe(403);
    expect(
      (await call(app, "DELETE", `/api/admin/users/${owner.id}`, { cookie: adminCookie })).status,
    )
      .toBe(403);
    expect((await call(app, "DELETE", `/api/admin/users/${s.id}`, { cookie: adminCookie })).status)
      .toBe(200);
    expect((await call(app, "DELETE", `/api/admin/users/${s.id}`, { cookie: adminCookie })).status)
      .toBe(404);
    expect(
      (await call(app, "DELETE", `/api/admin/users/${owner.id}`, { cookie: ownerCookie })).status,
    )
      .toBe(403);
  });
});

describe("PUT /api/auth/change-password", () => {
  it("needs the current password, keeps this session and ends the others", async () => {
    const me = await createTestUser(app.db, { username: `me${crypto.randomUUID().slice(0, 4)}` });
    const here = await sessionCookieFor(app.db, me.id);
    const elsewhere = await sessionCookieFor(app.db, me.id);
    const wrong = await call<{ message: string }>(app, "PUT", "/api/auth/change-password", {
      body: { currentPassword: "nope", newPassword: "brand-new" },
      cookie: here,
    });
    expect(wrong.status).toBe(400);
    const short = await call(app, "PUT", "/api/auth/change-password", {
      body: { currentPassword: me.password, newPassword: "12" },
      cookie: here,
    });
    expect(short.status).toBe(400);
    const ok = await call(app, "PUT", "/api/auth/change-password", {
      body: { currentPassword: me.password, newPassword: "brand-new" },
      cookie: here,
    });
    expect(ok.status).toBe(200);
    expect((await call(app, "GET", "/api/auth/user", { cookie: here })).status).toBe(200);
    expect((await call(app, "GET", "/api/auth/user", { cookie: elsewhere })).status).toBe(401);
    expect((await login(me.username, "brand-new")).status).toBe(200);
    expect((await call(app, "PUT", "/api/auth/change-password", { body: {} })).status).toBe(401);
  });
});

describe("an owner on anyone, themselves included", () => {
  it("resets their own password and changes their own role; the last owner stays one (409)", async () => {
    // A store of its own: the count of owners must be this test's.
    const store = await startTestApp();
    try {
      const olga = await createTestUser(store.db, { role: "OWNER" });
      const here = await sessionCookieFor(store.db, olga.id);
      const elsewhere = await sessionCookieFor(store.db, olga.id);
      const own = await call(store, "PUT", `/api/admin/users/${olga.id}/password`, {
        cookie: here,
        body: { newPassword: "my new pass" },
      });
      expect(own.status).toBe(200);
      // This session stays, the others end, the new password signs in.
      expect((await call(store, "GET", "/api/auth/user", { cookie: here })).status).toBe(200);
      expect((await call(store, "GET", "/api/auth/user", { cookie: elsewhere })).status).toBe(401);
      expect(
        (await call(store, "POST", "/api/staff/login", {
          body: { username: olga.username, password: "my new pass" },
        })).status,
      ).toBe(200);

      // The only owner cannot stop being one.
      const alone = await call<{ message: string; errors: Record<string, string> }>(
        store,
        "PUT",
        `/api/admin/users/${olga.id}`,
        { cookie: here, body: { role: "ADMIN" } },
      );
      expect(alone.status).toBe(409);
      expect(alone.body.message).toBe(
        "The store's last owner cannot stop being an owner. Make another user an owner first.",
      );
      expect(alone.body.errors.role).toBe(alone.body.message);

      // With a second owner, either may step down, but not both at once.
      const peter = await createTestUser(store.db, { role: "OWNER" });
      const peterCookie = await sessionCookieFor(store.db, peter.id);
      const both = await Promise.all([
        call(store, "PUT", `/api/admin/users/${olga.id}`, {
          cookie: peterCookie,
          body: { role: "ADMIN" },
        }),
        call(store, "PUT", `/api/admin/users/${peter.id}`, {
          cookie: here,
          body: { role: "ADMIN" },
        }),
      ]);
      // One steps down; the other is refused, as the last owner (409) or, when the
      // first change landed before its request was read, as an owner no more (403).
      const statuses = both.map((r) => r.status).sort();
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      const owners = await store.db.selectFrom("users").select("id").where("role", "=", "OWNER")
        .execute();
      expect(owners).toHaveLength(1);
      const remaining = owners[0].id;
      const remainingCookie = remaining === olga.id ? here : peterCookie;
      const other = remaining === olga.id ? peter : olga;
      // Nor may the last owner be deleted (by someone demoted a moment ago, say).
      await store.db.updateTable("users").set({ role: "OWNER" }).where("id", "=", other.id)
        .execute();
      const [demoted, removed] = await Promise.all([
        call(store, "PUT", `/api/admin/users/${remaining}`, {
          cookie: remaining === olga.id ? peterCookie : here,
          body: { role: "AUTHORIZED_USER" },
        }),
        call(store, "DELETE", `/api/admin/users/${other.id}`, { cookie: remainingCookie }),
      ]);
      // The one that lands second is refused: the demotion's sender deleted a
      // moment ago has no session left (401); the deletion's sender is no owner
      // any more (403), or its target is the last owner (409).
      const [first, second] = [demoted.status, removed.status].sort();
      expect(first).toBe(200);
      expect([401, 403, 409]).toContain(second);
      expect(
        await store.db.selectFrom("users").select("id").where("role", "=", "OWNER").execute(),
      ).toHaveLength(1);
      // Stepping down with another owner left is audited like any role change.
      const changes = await store.db.selectFrom("auditLog").select("details")
        .where("action", "=", "user.change_role").execute();
      expect(changes.length).toBeGreaterThanOrEqual(1);
    } finally {
      await store.close();
    }
  });

  it("lists every user's id", async () => {
    const res = await call<Array<{ id: string; twoFactorEnabled: boolean }>>(
      app,
      "GET",
      "/api/admin/users",
      { cookie: ownerCookie },
    );
    expect(res.body.find((u) => u.id === owner.id)).toMatchObject({ twoFactorEnabled: false });
    const page = await call(app, "GET", "/admin/users", {
      cookie: ownerCookie,
      headers: { accept: "text/html" },
    });
    expect(page.text).toContain(`<th scope="col">ID</th>`);
    expect(page.text).toContain(`title="${owner.id}">${owner.id.slice(0, 8)}</code>`);
  });
});
