import { describe, it } from "node:test";
import { expect } from "expect";
import type { CallResult, TestApp } from "../helpers/test_app.ts";
import { call, cookieFrom, createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import { deleteOldPasswordFailures } from "../../src/auth/password_failures.ts";
import { issueResetToken } from "../../src/auth/password_reset.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp;
useTestApp((started) => ({ app } = started));

// Each test calls from loopback addresses of its own (the server sees them as
// the client's address), so one test's failures never throttle another's.
let nextSubnet = 10;
function addresses() {
  const subnet = nextSubnet++;
  let host = 0;
  return () => `127.0.${subnet}.${++host}`;
}

const login = (
  user: { username: string; password: string },
  from: string,
  cookie?: string,
): Promise<CallResult<{ message: string; returnTo?: string }>> =>
  call(app, "POST", "/api/staff/login", {
    body: { username: user.username, password: user.password },
    from,
    cookie,
  });

async function auditActions(userId: string) {
  const rows = await app.db.selectFrom("auditLog").select(["action", "details"])
    .where("userId", "=", userId).orderBy("id").execute();
  return rows;
}

describe("password checks are throttled in the database", () => {
  it("locks one account from one address after 5 failures, even for the right password", async () => {
    const from = addresses()();
    const victim = await createTestUser(app.db);
    for (let i = 0; i < 5; i++) {
      const res = await login({ username: victim.username, password: "wrong" }, from);
      expect(res.status).toBe(401);
    }
    const locked = await login({ ...victim, username: victim.username.toUpperCase() }, from);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(
      /^Too many failed sign-in attempts\. Please wait 15 minutes and try again\.$/,
    );
    const retryAfter = Number(locked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // Counted in the shared table, one row per failure; the refusal added none.
    const rows = await app.db.selectFrom("passwordCheckFailures").selectAll()
      .where("account", "=", `user:${victim.id}`).execute();
    expect(rows.length).toBe(5);
    expect(rows.every((r) => r.source === `ip:${from}` && r.purpose === "login")).toBe(true);
    // The lock itself is in the audit log, once.
    const audit = await auditActions(victim.id);
    expect(audit.filter((a) => a.action === "auth.login_failed").length).toBe(5);
    const lockouts = audit.filter((a) => a.action === "auth.lockout");
    expect(lockouts.length).toBe(1);
    expect(lockouts[0].details).toMatchObject({ purpose: "login", scope: "pair", ip: from });
    // Another address is not held by this pair's lock.
    const elsewhere = await login(victim, addresses()());
    expect(elsewhere.status).toBe(200);
  });

  it("parallel guesses see each other: of 30 sent at once exactly 5 are verified", async () => {
    const from = addresses()();
    const victim = await createTestUser(app.db);
    const results = await Promise.all(
      Array.from({ length: 30 }, () => login({ ...victim, password: "wrong" }, from)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBe(5);
    expect(statuses.filter((s) => s === 429).length).toBe(25);
    // Refusals are not failures: only the five verified guesses are recorded.
    const rows = await app.db.selectFrom("passwordCheckFailures").select("id")
      .where("account", "=", `user:${victim.id}`).execute();
    expect(rows.length).toBe(5);
  });

  it("locks an address after 20 failures on real accounts, but made-up names lock only made-up names", async () => {
    // A store behind one router: a client on the tablet types 20 names that are nobody's.
    const store = addresses()();
    for (let i = 0; i < 20; i++) {
      const res = await login({ username: `guess${i}-${store}`, password: "wrong" }, store);
      expect(res.status).toBe(401);
    }
    // Staff of the store still sign in from that address, even on a browser new to them...
    const staff = await createTestUser(app.db);
    expect((await login(staff, store)).status).toBe(200);
    // ...while a further made-up name from there is held.
    const more = await login({ username: `guess-more-${store}`, password: "wrong" }, store);
    expect(more.status).toBe(429);
    expect(Number(more.headers.get("retry-after"))).toBeGreaterThan(800);

    // Guessing at real accounts still locks the address, for every account.
    const from = addresses()();
    for (let i = 0; i < 20; i++) {
      const someone = await createTestUser(app.db);
      expect((await login({ ...someone, password: "wrong" }, from)).status).toBe(401);
    }
    const someone = await createTestUser(app.db);
    const res = await login(someone, from);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(800);
  });

  it("a completed e-mail reset lifts the account's back-off", async () => {
    const next = addresses();
    const victim = await createTestUser(app.db);
    for (let i = 0; i < 10; i++) {
      expect((await login({ ...victim, password: `guess-${i}` }, next())).status).toBe(401);
    }
    expect((await login(victim, next())).status).toBe(429);
    const token = await issueResetToken(app.db, victim.id);
    const reset = await call(app, "POST", "/api/auth/reset-password", {
      body: { token, newPassword: "a fresh password" },
      from: next(),
    });
    expect(reset.status).toBe(200);
    expect((await login({ ...victim, password: "a fresh password" }, next())).status).toBe(200);
    // So does an admin's reset.
    for (let i = 0; i < 10; i++) {
      expect((await login({ ...victim, password: `again-${i}` }, next())).status).toBe(401);
    }
    expect((await login({ ...victim, password: "a fresh password" }, next())).status).toBe(429);
    const owner = await sessionCookieFor(
      app.db,
      (await createTestUser(app.db, { role: "OWNER" })).id,
    );
    const byAdmin = await call(app, "PUT", `/api/admin/users/${victim.id}/password`, {
      cookie: owner,
      body: { newPassword: "set by the owner" },
    });
    expect(byAdmin.status).toBe(200);
    expect((await login({ ...victim, password: "set by the owner" }, next())).status).toBe(200);
  });

  it("a staff member's known device is not locked by others' guesses, from other addresses or its own", async () => {
    const next = addresses();
    const staff = await createTestUser(app.db);
    const store = next();
    const device = cookieFrom(await login(staff, store), "lensdesk_device")!;
    // Guesses at this account from many addresses, and at 20 other accounts from the store's own.
    for (let i = 0; i < 15; i++) {
      expect([401, 429]).toContain((await login({ ...staff, password: `g${i}` }, next())).status);
    }
    for (let i = 0; i < 20; i++) {
      const other = await createTestUser(app.db);
      await login({ ...other, password: "wrong" }, store);
    }
    expect((await login(staff, store)).status).toBe(429);
    expect((await login(staff, store, device)).status).toBe(200);
  });

  it("a right password forgives that address's own earlier typos", async () => {
    const from = addresses()();
    const user = await createTestUser(app.db);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) {
        expect((await login({ ...user, password: "typo" }, from)).status).toBe(401);
      }
      expect((await login(user, from)).status).toBe(200);
    }
  });

  it("backs an account off when many addresses guess it, but its known device still signs in", async () => {
    const next = addresses();
    const owner = await createTestUser(app.db, { role: "OWNER" });
    // The owner signed in on this computer once: it gets a signed device cookie.
    const home = next();
    const first = await login(owner, home);
    expect(first.status).toBe(200);
    const device = cookieFrom(first, "lensdesk_device")!;
    expect(device).toBeDefined();
    expect(first.headers.getSetCookie().find((h) => h.startsWith("lensdesk_device="))).toMatch(
      /HttpOnly.*SameSite=Lax|SameSite=Lax.*HttpOnly/i,
    );
    // Ten guesses, each from another address: no pair or address limit is reached.
    for (let i = 0; i < 10; i++) {
      expect((await login({ ...owner, password: `guess-${i}` }, next())).status).toBe(401);
    }
    // Now strangers wait, whatever address they come from, even with the right password...
    const stranger = await login(owner, next());
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers.get("retry-after"))).toBeGreaterThan(30);
    expect(Number(stranger.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect((await login(owner, home)).status).toBe(429); // same address, no cookie
    // ...but the owner's own computer is not locked out, from any address.
    const mine = await login(owner, next(), device);
    expect(mine.status).toBe(200);
    const lockout = (await auditActions(owner.id)).find((a) => a.action === "auth.lockout");
    expect(lockout?.details).toMatchObject({ scope: "account", purpose: "login" });
  });

  it("a device cookie counts only for the accounts that signed in with it, and only when signed by us", async () => {
    const next = addresses();
    const anna = await createTestUser(app.db);
    const bert = await createTestUser(app.db);
    const annaSignIn = await login(anna, next());
    const annaDevice = cookieFrom(annaSignIn, "lensdesk_device")!;
    for (let i = 0; i < 10; i++) {
      expect((await login({ ...bert, password: `guess-${i}` }, next())).status).toBe(401);
    }
    // Anna's device is not Bert's device.
    expect((await login(bert, next(), annaDevice)).status).toBe(429);
    // A cookie naming Bert with a made-up signature is no device at all.
    const [name, value] = annaDevice.split("=");
    const decoded = decodeURIComponent(value);
    const forged = decoded.replace(/^(v1:[^:]+:)[^.]*/, `$1${bert.id}`);
    expect(forged).not.toBe(decoded);
    const forgedCookie = `${name}=${encodeURIComponent(forged)}`;
    expect((await login(bert, next(), forgedCookie)).status).toBe(429);
    // A device cookie also remembers several accounts (a shared store computer).
    const shared = next();
    const bertElsewhere = await createTestUser(app.db);
    const both = await login(bertElsewhere, shared, annaDevice);
    const sharedDevice = cookieFrom(both, "lensdesk_device")!;
    expect(decodeURIComponent(sharedDevice)).toContain(anna.id);
    expect(decodeURIComponent(sharedDevice)).toContain(bertElsewhere.id);
  });

  it("counts a wrong currentPassword on change-password against the same limits as sign-in", async () => {
    const from = addresses()();
    const user = await createTestUser(app.db);
    const cookie = await sessionCookieFor(app.db, user.id);
    const change = (currentPassword: string) =>
      call<{ message: string; errors?: Record<string, string> }>(
        app,
        "PUT",
        "/api/auth/change-password",
        { cookie, from, body: { currentPassword, newPassword: "brand-new-pass" } },
      );
    for (let i = 0; i < 4; i++) {
      const res = await change(`wrong-${i}`);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ currentPassword: "The current password is not correct" });
    }
    // A fifth wrong guess at sign-in from the same address reaches the limit...
    expect((await login({ ...user, password: "wrong" }, from)).status).toBe(401);
    // ...so the right current password is refused now, with the wait on the field.
    const locked = await change(user.password);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe(
      "Too many failed password attempts. Please wait 15 minutes and try again.",
    );
    expect(locked.body.errors).toEqual({ currentPassword: locked.body.message });
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(800);
    // The password did not change.
    expect((await login(user, addresses()())).status).toBe(200);
    const audit = await auditActions(user.id);
    expect(audit.filter((a) => a.action === "auth.change_password_failed").length).toBe(4);
    expect(audit.some((a) => a.action === "auth.lockout")).toBe(true);
  });

  it("changes the password when the current one is right", async () => {
    const from = addresses()();
    const user = await createTestUser(app.db);
    const cookie = await sessionCookieFor(app.db, user.id);
    const res = await call(app, "PUT", "/api/auth/change-password", {
      cookie,
      from,
      body: { currentPassword: user.password, newPassword: "brand-new-pass" },
    });
    expect(res.status).toBe(200);
    expect((await login({ ...user, password: "brand-new-pass" }, from)).status).toBe(200);
  });

  it("deletes failures older than every window, and keeps the rest", async () => {
    const account = `name:sweep-${crypto.randomUUID()}`;
    const now = Date.now();
    const day = 24 * 60 * 60 * 1000;
    await app.db.insertInto("passwordCheckFailures").values(
      [now - day - 1000, now - day + 60_000, now - 1000].map((t) => ({
        at: new Date(t),
        account,
        source: "ip:192.0.2.1",
        address: "192.0.2.1",
        knownDevice: false,
        purpose: "login",
      })),
    ).execute();
    expect(await deleteOldPasswordFailures(app.db, now)).toBeGreaterThanOrEqual(1);
    const left = await app.db.selectFrom("passwordCheckFailures").select("at")
      .where("account", "=", account).orderBy("at").execute();
    expect(left.map((r) => r.at.getTime())).toEqual([now - day + 60_000, now - 1000]);
  });
});

// Two app processes sharing these counters: tests/api/multi_process_test.ts.
