// Keeping the chain's stores over HTTP: an owner adds a store, an owner, a
// chain admin or a store admin of that store changes what it sets of its own
// (null: the chain's), the last active store stays active; who works where;
// and the store a device works in, remembered by its store cookie.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { call, createTestUser, signedInUser } from "../helpers/test_app.ts";
import { useTestApp } from "../helpers/suite.ts";
import { findFirstStore } from "../../src/stores/stores.ts";
import {
  CHAIN_LEVEL_FIELDS,
  LAST_ACTIVE_STORE,
  NOT_YOUR_STORE,
  STORE_CODE_TAKEN,
  type StoreView,
} from "../../src/stores/admin_stores.ts";
import { STORE_CODE_MESSAGE } from "../../src/schemas/store.ts";
import { NOT_A_STORE_OF_YOURS } from "../../src/stores/current_store.ts";
import {
  NO_STORES_MESSAGE,
  OWNER_STORES_MESSAGE,
  type UserRow,
} from "../../src/users/admin_users.ts";
import { putFile, realPng, requestUploadUrl } from "../helpers/images.ts";
import { findBranding } from "../../src/settings/settings.ts";

let app: TestApp;
let main: string;
let ownerCookie: string;
/** A store admin who works in the install's store only. */
let adminCookie: string;
/** A chain admin who works in the install's store only. */
let chainAdminCookie: string;
let staffCookie: string;

useTestApp(async (started) => {
  ({ app } = started);
  main = (await findFirstStore(app.db)).id;
  ownerCookie = (await signedInUser(app.db, { role: "OWNER" })).cookie;
  adminCookie = (await signedInUser(app.db, { role: "ADMIN", chainAdmin: false })).cookie;
  chainAdminCookie = (await signedInUser(app.db, { role: "ADMIN" })).cookie;
  staffCookie = (await signedInUser(app.db)).cookie;
});

type Answer = { message?: string; errors?: Record<string, string> };
const addStore = (body: Record<string, unknown>, cookie = ownerCookie) =>
  call<StoreView & Answer>(app, "POST", "/api/admin/stores", { cookie, body });
const changeStore = (id: string, body: Record<string, unknown>, cookie = ownerCookie) =>
  call<StoreView & Answer>(app, "PUT", `/api/admin/stores/${id}`, { cookie, body });
const giveStores = (user: TestUser, storeIds: string[], cookie = ownerCookie) =>
  call<UserRow & Answer>(app, "PUT", `/api/admin/users/${user.id}/stores`, {
    cookie,
    body: { storeIds },
  });

describe("the chain's stores", () => {
  let uptown: StoreView;

  it("an owner adds a store with a code of its own; its settings start as the chain's", async () => {
    const res = await addStore({ code: " up ", name: "Uptown Optical", phone: "" });
    expect(res.status).toBe(201);
    uptown = res.body;
    expect(uptown).toMatchObject({ code: "UP", name: "Uptown Optical", phone: null, active: true });
    expect(uptown.timeZone).toBeNull();
    expect((await addStore({ code: "up" })).body).toMatchObject({
      message: STORE_CODE_TAKEN,
      errors: { code: STORE_CODE_TAKEN },
    });
    for (const code of ["", "UP-2", "TOOLONGCODE", 7]) {
      const bad = await addStore({ code });
      expect(bad.status).toBe(400);
      expect(bad.body.errors?.code).toBe(STORE_CODE_MESSAGE);
    }
    const hours = await addStore({ code: "NT", openingTime: "18:00", closingTime: "09:00" });
    expect(hours.status).toBe(400);
    expect(hours.body.errors?.closingTime).toBe("Closing time must be after opening time");
    expect((await addStore({ code: "AD" }, adminCookie)).status).toBe(403);
    expect((await addStore({ code: "ST" }, staffCookie)).status).toBe(403);
    expect((await addStore({ code: "CA" }, chainAdminCookie)).status).toBe(403);
    const list = await call<StoreView[]>(app, "GET", "/api/admin/stores", {
      cookie: chainAdminCookie,
    });
    expect(list.body.map((s) => s.code)).toEqual(["MAIN", "UP"]);
    // A store admin keeps their own stores only.
    const theirs = await call<StoreView[]>(app, "GET", "/api/admin/stores", {
      cookie: adminCookie,
    });
    expect(theirs.body.map((s) => s.code)).toEqual(["MAIN"]);
  });

  it("a store overrides a setting and goes back to the chain's, each change in the history", async () => {
    const chain = await findBranding(app.db, null);
    const changed = await changeStore(uptown.id, {
      address: "5 Hill Road, Springfield",
      timeZone: "America/Denver",
    });
    expect(changed.status).toBe(200);
    expect((await findBranding(app.db, uptown.id)).storeAddress).toBe("5 Hill Road, Springfield");
    const back = await changeStore(uptown.id, { address: null, name: "" });
    expect(back.body).toMatchObject({ address: null, name: null, timeZone: "America/Denver" });
    expect(await findBranding(app.db, uptown.id)).toEqual(chain);
    const wrong = await changeStore(uptown.id, { timeZone: "Mars/Olympus", openingDays: [9] });
    expect(wrong.status).toBe(400);
    expect(Object.keys(wrong.body.errors ?? {}).sort()).toEqual(["openingDays", "timeZone"]);
    const history = await app.db.selectFrom("auditLog").select(["action", "details"])
      .where("entityId", "=", uptown.id).orderBy("at").execute();
    expect(history.map((h) => h.action)).toEqual([
      "settings.store_create",
      "settings.store_update",
      "settings.store_update",
    ]);
    expect(history[2].details.changes).toEqual([
      { field: "name", from: "Uptown Optical", to: null },
      { field: "address", from: "5 Hill Road, Springfield", to: null },
    ]);
  });

  it("an admin changes only the stores they work in", async () => {
    const refused = await changeStore(uptown.id, { phone: "(555) 010-0177" }, adminCookie);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(NOT_YOUR_STORE);
    expect((await changeStore(main, { phone: "(555) 010-0177" }, adminCookie)).status).toBe(200);
    expect((await changeStore(main, { phone: null }, staffCookie)).status).toBe(403);
    // A chain admin changes any store of the chain, though they work in MAIN only.
    const chain = await changeStore(uptown.id, { phone: "(555) 010-0188" }, chainAdminCookie);
    expect(chain.status).toBe(200);
    expect(chain.body.phone).toBe("(555) 010-0188");
  });

  it("a store admin keeps their store's own settings; its code and being open are the chain's", async () => {
    const code = await changeStore(main, { code: "MINE" }, adminCookie);
    expect(code.status).toBe(403);
    expect(code.body).toMatchObject({
      message: CHAIN_LEVEL_FIELDS,
      errors: { code: CHAIN_LEVEL_FIELDS },
    });
    const closed = await changeStore(main, { active: false }, adminCookie);
    expect(closed.status).toBe(403);
    expect(closed.body.errors?.active).toBe(CHAIN_LEVEL_FIELDS);
    // The whole form sent back as it was (its code, still active) is no such change.
    const same = await changeStore(main, { code: "main", active: true, name: "Main" }, adminCookie);
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ code: "MAIN", active: true, name: "Main" });
    expect((await changeStore(main, { name: null }, adminCookie)).body.name).toBeNull();
    const renamed = await changeStore(uptown.id, { code: "UPT" }, chainAdminCookie);
    expect(renamed.body.code).toBe("UPT");
    expect((await changeStore(uptown.id, { code: "UP" }, chainAdminCookie)).status).toBe(200);
  });

  it("a store has a logo of its own, with its print copy, until it goes back to the chain's", async () => {
    const chainLogo = (await findBranding(app.db, null)).logoUrl;
    const logoOf = (storeId: string) =>
      app.db.selectFrom("stores").select(["logoUrl", "logoPrintUrl"]).where("id", "=", storeId)
        .executeTakeFirstOrThrow();
    const setLogo = async (storeId: string, cookie: string, bytes = realPng(40, 20)) => {
      const url = await requestUploadUrl(app, cookie, "logo");
      expect((await putFile(app, url, bytes, { cookie, contentType: "image/png" })).status)
        .toBe(200);
      return await call<{ logoUrl: string | null } & Answer>(
        app,
        "PUT",
        `/api/admin/stores/${storeId}/logo`,
        { cookie, body: { logoUrl: url } },
      );
    };
    const set = await setLogo(uptown.id, ownerCookie);
    expect(set.status).toBe(200);
    expect(set.body.logoUrl).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
    const kept = await logoOf(uptown.id);
    expect(kept.logoUrl).toBe(set.body.logoUrl);
    expect(kept.logoPrintUrl).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
    // Its pages wear it; the chain's and the other store's keep the chain's.
    expect((await findBranding(app.db, uptown.id)).logoUrl).toBe(set.body.logoUrl);
    expect((await findBranding(app.db, main)).logoUrl).toBe(chainLogo);
    expect((await findBranding(app.db, null)).logoUrl).toBe(chainLogo);
    // A store admin of another store is refused, and nothing changes.
    const refused = await setLogo(uptown.id, adminCookie);
    expect(refused.status).toBe(403);
    expect((await logoOf(uptown.id)).logoUrl).toBe(set.body.logoUrl);
    expect((await setLogo(main, adminCookie)).status).toBe(200);
    // Not an upload of this install: 400; an unknown store: 404.
    const bad = await call(app, "PUT", `/api/admin/stores/${uptown.id}/logo`, {
      cookie: ownerCookie,
      body: { logoUrl: "https://elsewhere.example/logo.png" },
    });
    expect(bad.status).toBe(400);
    const unknown = await call(app, "PUT", `/api/admin/stores/${crypto.randomUUID()}/logo`, {
      cookie: ownerCookie,
      body: { logoUrl: null },
    });
    expect(unknown.status).toBe(404);
    // Back to the chain's, in the history.
    const back = await call(app, "PUT", `/api/admin/stores/${uptown.id}/logo`, {
      cookie: ownerCookie,
      body: { logoUrl: null },
    });
    expect(back.status).toBe(200);
    expect(await logoOf(uptown.id)).toEqual({ logoUrl: null, logoPrintUrl: null });
    expect((await findBranding(app.db, uptown.id)).logoUrl).toBe(chainLogo);
    const history = await app.db.selectFrom("auditLog").select(["storeId", "details"])
      .where("action", "=", "settings.store_logo").where("entityId", "=", uptown.id)
      .orderBy("id").execute();
    expect(history.map((h) => h.storeId)).toEqual([uptown.id, uptown.id]);
    expect((history[1].details as { changes: { to: unknown }[] }).changes[0].to).toBeNull();
  });

  it("a store is made inactive, never the last active one", async () => {
    expect((await changeStore(uptown.id, { active: false })).body.active).toBe(false);
    const last = await changeStore(main, { active: false });
    expect(last.status).toBe(409);
    expect(last.body.message).toBe(LAST_ACTIVE_STORE);
    expect((await changeStore(uptown.id, { active: true })).body.active).toBe(true);
  });
});

describe("who works where", () => {
  it("an owner gives staff any active store; a store admin only their own", async () => {
    const [downtown, staff] = await Promise.all([
      addStore({ code: "DTN", name: "Downtown" }).then((r) => r.body),
      createTestUser(app.db, { storeIds: [main] }),
    ]);
    const both = await giveStores(staff, [main, downtown.id]);
    expect(both.status).toBe(200);
    expect(both.body.storeIds.sort()).toEqual([main, downtown.id].sort());
    // The admin works in MAIN only: they cannot give DTN, and taking MAIN leaves DTN alone.
    const refused = await giveStores(staff, [downtown.id, crypto.randomUUID()], adminCookie);
    expect(refused.status).toBe(400);
    const wrongStore = await createTestUser(app.db, { storeIds: [main] });
    expect((await giveStores(wrongStore, [downtown.id], adminCookie)).status).toBe(403);
    const kept = await giveStores(staff, [], adminCookie);
    expect(kept.status).toBe(200);
    expect(kept.body.storeIds).toEqual([downtown.id]);
    const none = await giveStores(staff, []);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe(NO_STORES_MESSAGE);
    const owner = await createTestUser(app.db, { role: "OWNER" });
    expect((await giveStores(owner, [main])).body.message).toBe(OWNER_STORES_MESSAGE);
    expect((await giveStores(staff, [main], staffCookie)).status).toBe(403);
    const entry = await app.db.selectFrom("auditLog").select("details")
      .where("action", "=", "user.change_stores").where("entityId", "=", staff.id)
      .orderBy("at", "desc").executeTakeFirstOrThrow();
    expect(entry.details.changes).toEqual([{ field: "stores", from: "DTN, MAIN", to: "DTN" }]);
    // A chain admin gives any active store, as the owner does.
    const chain = await giveStores(wrongStore, [main, downtown.id], chainAdminCookie);
    expect(chain.status).toBe(200);
    expect(chain.body.storeIds.sort()).toEqual([main, downtown.id].sort());
  });

  it("a device works in one of the user's stores, remembered until changed", async () => {
    const store = (await addStore({ code: "EAST", name: "East" })).body;
    const { cookie } = await signedInUser(app.db, { storeIds: [main, store.id] });
    const mine = await call<{ current: string; stores: { id: string; code: string }[] }>(
      app,
      "GET",
      "/api/stores",
      { cookie },
    );
    expect(mine.body.stores.map((s) => s.code)).toEqual(["EAST", "MAIN"]);
    expect(mine.body.current).toBe(store.id);
    const moved = await call(app, "PUT", "/api/stores/current", {
      cookie,
      body: { storeId: main },
    });
    expect(moved.status).toBe(200);
    const remembered = moved.headers.get("set-cookie")!.match(/lensdesk_store=[^;]+/)![0];
    expect(remembered).toBe(`lensdesk_store=${main}`);
    const now = await call<{ current: string }>(app, "GET", "/api/stores", {
      cookie: `${cookie}; ${remembered}`,
    });
    expect(now.body.current).toBe(main);
    const notMine = await call<Answer>(app, "PUT", "/api/stores/current", {
      cookie: staffCookie,
      body: { storeId: store.id },
    });
    expect(notMine.status).toBe(403);
    expect(notMine.body.message).toBe(NOT_A_STORE_OF_YOURS);
    expect((await call(app, "PUT", "/api/stores/current", { body: { storeId: main } })).status)
      .toBe(401);
  });
});
