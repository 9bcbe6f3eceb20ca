// Chain admins and store admins (issue 48, migration 0037): the owner and a
// chain admin administer the whole chain; a store admin the users, own
// settings and lists of the stores they work in, and makes no owner and no
// chain admin. Every refusal is the server's, every change audited.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Context } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { call, createTestUser, sessionCookieFor, signedInUser } from "../helpers/test_app.ts";
import { useTestApp } from "../helpers/suite.ts";
import { findFirstStore } from "../../src/stores/stores.ts";
import type { StoreView } from "../../src/stores/admin_stores.ts";
import {
  assertWorksIn,
  CHAIN_ADMINS_ONLY,
  isChainWide,
  NOT_YOUR_STORE_TO_ADMINISTER,
} from "../../src/stores/scope.ts";
import { ALL_STORES_FORBIDDEN } from "../../src/stores/current_store.ts";
import {
  CHAIN_ADMIN_MESSAGE,
  NOT_YOUR_STORES_TO_GIVE,
  OUTSIDE_YOUR_STORES,
  type UserRow,
} from "../../src/users/admin_users.ts";
import { HttpError } from "../../src/http/errors.ts";

let app: TestApp;
let main: string;
let uptown: string;
let ownerCookie: string;
let chainCookie: string;
/** An admin of MAIN only. */
let storeAdmin: TestUser;
let storeCookie: string;
let chainAdmin: TestUser;
let staffUp: TestUser;
let staffBoth: TestUser;
let adminUp: TestUser;

type Answer = { message?: string; errors?: Record<string, string> };

useTestApp(async (started) => {
  ({ app } = started);
  main = (await findFirstStore(app.db)).id;
  ownerCookie = (await signedInUser(app.db, { role: "OWNER" })).cookie;
  const up = await call<StoreView>(app, "POST", "/api/admin/stores", {
    cookie: ownerCookie,
    body: { code: "UP", name: "Uptown" },
  });
  uptown = up.body.id;
  chainAdmin = await createTestUser(app.db, { role: "ADMIN", username: "chloe" });
  chainCookie = await sessionCookieFor(app.db, chainAdmin.id);
  storeAdmin = await createTestUser(app.db, {
    role: "ADMIN",
    username: "stella",
    chainAdmin: false,
  });
  storeCookie = await sessionCookieFor(app.db, storeAdmin.id);
  await createTestUser(app.db, { username: "mona" });
  staffUp = await createTestUser(app.db, { username: "uma", storeIds: [uptown] });
  staffBoth = await createTestUser(app.db, { username: "bea", storeIds: [main, uptown] });
  adminUp = await createTestUser(app.db, {
    role: "ADMIN",
    username: "ursula",
    chainAdmin: false,
    storeIds: [uptown],
  });
});

const users = (cookie: string) =>
  call<UserRow[]>(app, "GET", "/api/admin/users", { cookie }).then((r) => r.body);
const invite = (cookie: string, over: Record<string, unknown>) =>
  call<UserRow & Answer>(app, "POST", "/api/admin/users/invite", {
    cookie,
    body: {
      email: "new@store.test",
      firstName: "Nia",
      lastName: "New",
      username: `nia${crypto.randomUUID().slice(0, 8)}`,
      password: "secret1",
      role: "AUTHORIZED_USER",
      ...over,
    },
  });
const change = (cookie: string, user: { id: string }, body: Record<string, unknown>) =>
  call<UserRow & Answer>(app, "PUT", `/api/admin/users/${user.id}`, { cookie, body });
const lastAudit = (entityId: string, action: string) =>
  app.db.selectFrom("auditLog").select(["details", "actor"]).where("entityId", "=", entityId)
    .where("action", "=", action).orderBy("at", "desc").executeTakeFirstOrThrow();

describe("who is chain-wide", () => {
  it("the owner and chain admins; a store admin and staff are not", () => {
    expect(isChainWide({ role: "OWNER" })).toBe(true);
    expect(isChainWide({ role: "ADMIN", chainAdmin: true })).toBe(true);
    expect(isChainWide({ role: "ADMIN", chainAdmin: false })).toBe(false);
    expect(isChainWide({ role: "AUTHORIZED_USER", chainAdmin: true })).toBe(false);
  });

  it("assertWorksIn lets a store admin through for their store only", async () => {
    const ctx = (user: unknown) => ({ var: { db: app.db, user } }) as unknown as Context<AppEnv>;
    const sa = { id: storeAdmin.id, role: "ADMIN", chainAdmin: false };
    await assertWorksIn(ctx(sa), main);
    const refused = await assertWorksIn(ctx(sa), uptown).catch((e) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 403, message: NOT_YOUR_STORE_TO_ADMINISTER });
    await assertWorksIn(ctx({ id: chainAdmin.id, role: "ADMIN", chainAdmin: true }), uptown);
  });
});

describe("a store admin's users", () => {
  it("lists the users of their stores and the owners; a chain admin lists everyone", async () => {
    const theirs = (await users(storeCookie)).map((u) => u.username);
    expect(theirs).toEqual(expect.arrayContaining(["stella", "chloe", "mona", "bea"]));
    expect(theirs).not.toContain("uma");
    expect(theirs).not.toContain("ursula");
    const all = await users(chainCookie);
    expect(all.map((u) => u.username)).toEqual(
      expect.arrayContaining(["stella", "chloe", "mona", "bea", "uma", "ursula"]),
    );
    const stella = all.find((u) => u.username === "stella")!;
    expect(stella).toMatchObject({ chainAdmin: false, storeIds: [main] });
    expect(all.find((u) => u.username === "chloe")!.chainAdmin).toBe(true);
    expect(all.find((u) => u.username === "mona")!.chainAdmin).toBe(false);
  });

  it("adds users to their own stores only, never an owner or a chain admin", async () => {
    const ok = await invite(storeCookie, { storeIds: [main] });
    expect(ok.status).toBe(201);
    expect(ok.body.storeIds).toEqual([main]);
    const other = await invite(storeCookie, { storeIds: [main, uptown] });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({
      message: NOT_YOUR_STORES_TO_GIVE,
      errors: { storeIds: NOT_YOUR_STORES_TO_GIVE },
    });
    expect((await invite(storeCookie, { role: "OWNER" })).status).toBe(403);
    const chain = await invite(storeCookie, { role: "ADMIN", chainAdmin: true });
    expect(chain.status).toBe(403);
    expect(chain.body.errors?.chainAdmin).toBe(CHAIN_ADMIN_MESSAGE);
    // Their new admin administers their store, no more.
    const admin = await invite(storeCookie, { role: "ADMIN" });
    expect(admin.status).toBe(201);
    expect(admin.body).toMatchObject({ role: "ADMIN", chainAdmin: false, storeIds: [main] });
    const bad = await invite(storeCookie, { storeIds: [crypto.randomUUID()] });
    expect(bad.status).toBe(400);
    expect((await invite(storeCookie, { storeIds: [] })).status).toBe(400);
    const entry = await lastAudit(admin.body.id, "user.create");
    expect(entry.actor).toBe("stella");
    expect(entry.details.changes).toEqual(expect.arrayContaining([
      { field: "role", from: null, to: "ADMIN" },
      { field: "stores", from: "", to: "MAIN" },
    ]));
  });

  it("the owner and chain admins add to any store, and make chain or store admins", async () => {
    const both = await invite(chainCookie, { storeIds: [main, uptown] });
    expect(both.status).toBe(201);
    expect(both.body.storeIds.sort()).toEqual([main, uptown].sort());
    const chain = await invite(chainCookie, { role: "ADMIN", chainAdmin: true });
    expect(chain.body.chainAdmin).toBe(true);
    // Absent, as every admin was before: a chain admin.
    expect((await invite(ownerCookie, { role: "ADMIN" })).body.chainAdmin).toBe(true);
    const narrow = await invite(ownerCookie, { role: "ADMIN", chainAdmin: false });
    expect(narrow.body.chainAdmin).toBe(false);
    const entry = await lastAudit(chain.body.id, "user.create");
    expect(entry.details.changes).toEqual(
      expect.arrayContaining([{ field: "chainAdmin", from: null, to: true }]),
    );
  });

  it("changes only the staff of their stores", async () => {
    const path = (u: TestUser, more = "") => `/api/admin/users/${u.id}${more}`;
    const refusals = [
      await change(storeCookie, staffUp, { role: "ADMIN" }),
      await change(storeCookie, staffUp, { username: "uma2" }),
      await call<Answer>(app, "PUT", path(staffUp, "/password"), {
        cookie: storeCookie,
        body: { newPassword: "another1" },
      }),
      await call<Answer>(app, "PUT", path(staffUp, "/stores"), {
        cookie: storeCookie,
        body: { storeIds: [main] },
      }),
      await call<Answer>(app, "POST", path(staffUp, "/reset-email"), { cookie: storeCookie }),
      await call<Answer>(app, "DELETE", path(staffUp), { cookie: storeCookie }),
    ];
    for (const r of refusals) {
      expect(r.status).toBe(403);
      expect(r.body.message).toBe(OUTSIDE_YOUR_STORES);
    }
    expect((await users(ownerCookie)).find((u) => u.id === staffUp.id)).toMatchObject({
      username: "uma",
      role: "AUTHORIZED_USER",
      storeIds: [uptown],
    });
    // Staff of both stores are theirs: what they give or take is MAIN only.
    const renamed = await change(storeCookie, staffBoth, { username: "beatrix" });
    expect(renamed.status).toBe(200);
    const taken = await call<UserRow & Answer>(app, "PUT", path(staffBoth, "/stores"), {
      cookie: storeCookie,
      body: { storeIds: [] },
    });
    expect(taken.status).toBe(200);
    expect(taken.body.storeIds).toEqual([uptown]);
    // Now no longer theirs.
    expect((await change(storeCookie, staffBoth, { username: "beata" })).status).toBe(403);
  });

  it("never changes an owner, a chain admin or another admin", async () => {
    const owner = await createTestUser(app.db, { role: "OWNER" });
    const peer = await createTestUser(app.db, { role: "ADMIN", chainAdmin: false });
    for (const target of [owner, chainAdmin, peer]) {
      expect((await change(storeCookie, target, { role: "AUTHORIZED_USER" })).status).toBe(403);
      const reset = await call(app, "PUT", `/api/admin/users/${target.id}/password`, {
        cookie: storeCookie,
        body: { newPassword: "another1" },
      });
      expect(reset.status).toBe(403);
      expect(
        (await call(app, "DELETE", `/api/admin/users/${target.id}`, { cookie: storeCookie }))
          .status,
      ).toBe(403);
    }
  });

  it("makes their staff store admins, never chain admins", async () => {
    const staff = await createTestUser(app.db);
    const chain = await change(storeCookie, staff, { role: "ADMIN", chainAdmin: true });
    expect(chain.status).toBe(403);
    expect(chain.body.message).toBe(CHAIN_ADMIN_MESSAGE);
    const made = await change(storeCookie, staff, { role: "ADMIN" });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ role: "ADMIN", chainAdmin: false });
    const entry = await lastAudit(staff.id, "user.change_role");
    expect(entry.details.changes).toEqual([{
      field: "role",
      from: "AUTHORIZED_USER",
      to: "ADMIN",
    }]);
  });

  it("the owner turns a chain admin into a store admin; it holds from their next request", async () => {
    const { user, cookie } = await signedInUser(app.db, { role: "ADMIN" });
    const settings = { storeName: "Scope Optical" };
    expect((await call(app, "PUT", "/api/admin/settings", { cookie, body: settings })).status)
      .toBe(200);
    // A chain admin promoting staff makes a chain admin by default, as before.
    const staff = await createTestUser(app.db);
    expect((await change(chainCookie, staff, { role: "ADMIN" })).body.chainAdmin).toBe(true);
    const narrowed = await change(ownerCookie, user, { role: "ADMIN", chainAdmin: false });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.chainAdmin).toBe(false);
    const entry = await lastAudit(user.id, "user.change_role");
    expect(entry.details.changes).toEqual([{ field: "chainAdmin", from: true, to: false }]);
    // Only the owner manages an admin: a chain admin may not narrow another.
    expect((await change(chainCookie, user, { role: "ADMIN", chainAdmin: true })).status)
      .toBe(403);
    const refused = await call<Answer>(app, "PUT", "/api/admin/settings", {
      cookie,
      body: settings,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(CHAIN_ADMINS_ONLY);
  });
});

describe("a store admin's settings and lists", () => {
  it("reads the chain's settings but changes them only as the owner or a chain admin", async () => {
    expect((await call(app, "GET", "/api/admin/settings", { cookie: storeCookie })).status)
      .toBe(200);
    const body = { storeName: "Chain Optical" };
    const refused = await call<Answer>(app, "PUT", "/api/admin/settings", {
      cookie: storeCookie,
      body,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(CHAIN_ADMINS_ONLY);
    expect((await call(app, "PUT", "/api/admin/settings", { cookie: chainCookie, body })).status)
      .toBe(200);
  });

  it("lists every store at once only as the owner or a chain admin", async () => {
    const all = await call<Answer>(app, "GET", "/api/quotes?store=all", { cookie: storeCookie });
    expect(all.status).toBe(403);
    expect(all.body.message).toBe(ALL_STORES_FORBIDDEN);
    expect((await call(app, "GET", `/api/quotes?store=${main}`, { cookie: storeCookie })).status)
      .toBe(200);
    expect((await call(app, "GET", "/api/quotes?store=all", { cookie: chainCookie })).status)
      .toBe(200);
  });

  it("keeps their store's own settings, and no other store's", async () => {
    const mine = await call<StoreView>(app, "PUT", `/api/admin/stores/${main}`, {
      cookie: storeCookie,
      body: { openingTime: "08:30" },
    });
    expect(mine.status).toBe(200);
    expect(mine.body.openingTime).toBe("08:30");
    const other = await call(app, "PUT", `/api/admin/stores/${uptown}`, {
      cookie: storeCookie,
      body: { openingTime: "08:30" },
    });
    expect(other.status).toBe(403);
    const ursula = await sessionCookieFor(app.db, adminUp.id);
    const list = await call<StoreView[]>(app, "GET", "/api/admin/stores", { cookie: ursula });
    expect(list.body.map((s) => s.code)).toEqual(["UP"]);
  });
});
