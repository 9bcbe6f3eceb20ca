// One engine: the one-time codes and their checks; the counters are plain updates, tested on both
// engines with the password checks.
import { describe, it } from "node:test";
import { expect } from "expect";
import { generateHOTP } from "@oslojs/otp";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import {
  call,
  cookieFrom,
  createTestUser,
  kioskCookieFor,
  sessionCookieFor,
  type TestApp,
  type TestUser,
} from "../helpers/test_app.ts";
import { currentStep } from "../../src/auth/totp.ts";
import { mailSettingsFor, startSmtpServer } from "../helpers/smtp.ts";
import { waitUntil } from "../helpers/wait.ts";
import { CHALLENGE_ATTEMPTS } from "../../src/auth/two_factor.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp;
useTestApp((started) => ({ app } = started));

async function codeFor(key: Uint8Array, userId: string) {
  const row = await app.db.selectFrom("users").select("totpLastStep").where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const last = row.totpLastStep === null ? -1n : BigInt(row.totpLastStep);
  const now = currentStep(Date.now());
  return generateHOTP(key, now > last ? now : last + 1n, 6);
}

/** An admin with two-factor sign-in on, through the API; returns its key. */
async function enrolled(role: "ADMIN" | "OWNER" = "ADMIN") {
  const user = await createTestUser(app.db, { role });
  const cookie = await sessionCookieFor(app.db, user.id);
  const setup = await call<{ manualKey: string; uri: string }>(
    app,
    "POST",
    "/api/auth/two-factor/setup",
    { cookie },
  );
  expect(setup.status).toBe(200);
  expect(setup.body.uri).toMatch(/^otpauth:\/\/totp\//);
  const key = decodeBase32IgnorePadding(setup.body.manualKey.replace(/\s/g, ""));
  const enable = await call<{ recoveryCodes: string[] }>(
    app,
    "POST",
    "/api/auth/two-factor/enable",
    {
      cookie,
      body: { code: await codeFor(key, user.id) },
    },
  );
  expect(enable.status).toBe(200);
  return { user, cookie, key, recoveryCodes: enable.body.recoveryCodes };
}

const password = (user: TestUser, from?: string, cookie?: string) =>
  call<{ twoFactor?: string; returnTo?: string }>(app, "POST", "/api/staff/login", {
    body: { username: user.username, password: user.password, returnTo: "/quotes" },
    from,
    cookie,
  });

/** A 6-digit code that is not the account's current one. */
async function wrongCode(key: Uint8Array, userId: string) {
  return (await codeFor(key, userId)) === "000000" ? "111111" : "000000";
}

/** The code step of a sign-in, from `from`, with the cookies given. */
const verify = (code: string, cookie: string, from?: string) =>
  call<{ message: string; returnTo?: string }>(app, "POST", "/api/auth/two-factor/verify", {
    cookie,
    body: { code },
    from,
  });

// Each test calls from loopback addresses of its own (the server sees them as
// the client's address), so one test's failures never throttle another's.
let nextSubnet = 60;
function addresses() {
  const subnet = nextSubnet++;
  let host = 0;
  return () => `127.0.${subnet}.${++host}`;
}

describe("two-factor sign-in over HTTP", () => {
  it("gives no session for the password alone, and one for the code, to the returnTo", async () => {
    const { user, key } = await enrolled();
    const first = await password(user);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ twoFactor: "verify" });
    expect(cookieFrom(first, "lensdesk_session")).toBeUndefined();
    const challenge = cookieFrom(first, "lensdesk_2fa")!;
    const ok = await call(app, "POST", "/api/auth/two-factor/verify", {
      cookie: challenge,
      body: { code: await codeFor(key, user.id) },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ returnTo: "/quotes" });
    const session = cookieFrom(ok, "lensdesk_session")!;
    expect((await call(app, "GET", "/api/auth/user", { cookie: session })).status).toBe(200);
    // The challenge is spent.
    const reused = await call(app, "POST", "/api/auth/two-factor/verify", {
      cookie: challenge,
      body: { code: await codeFor(key, user.id) },
    });
    expect(reused.status).toBe(401);
  });

  it(`ends the sign-in step after ${CHALLENGE_ATTEMPTS} wrong codes`, async () => {
    const { user, key } = await enrolled();
    const challenge = cookieFrom(await password(user), "lensdesk_2fa")!;
    for (let i = 0; i < CHALLENGE_ATTEMPTS - 1; i++) {
      const res = await call(app, "POST", "/api/auth/two-factor/verify", {
        cookie: challenge,
        body: { code: "not-a-code-000" },
      });
      expect(res.status).toBe(400);
    }
    const last = await call<{ message: string }>(app, "POST", "/api/auth/two-factor/verify", {
      cookie: challenge,
      body: { code: "000000" === (await codeFor(key, user.id)) ? "111111" : "000000" },
    });
    expect(last.status).toBe(401);
    expect(last.body.message).toMatch(/Too many wrong codes/);
    const after = await call(app, "POST", "/api/auth/two-factor/verify", {
      cookie: challenge,
      body: { code: await codeFor(key, user.id) },
    });
    expect(after.status).toBe(401);
    const audit = await app.db.selectFrom("auditLog").select("action")
      .where("entityId", "=", user.id).where("action", "=", "auth.two_factor_failed").execute();
    expect(audit.length).toBe(CHALLENGE_ATTEMPTS);
  });

  it("the plain sign-in form goes on to the code page, which needs a live challenge", async () => {
    const { user } = await enrolled();
    const form = await fetch(`${app.baseUrl}/staff`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: user.username, password: user.password }),
    });
    await form.body?.cancel();
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("/staff/two-factor");
    expect(cookieFrom(form, "lensdesk_session")).toBeUndefined();
    const challenge = cookieFrom(form, "lensdesk_2fa");
    expect(challenge).toBeDefined();
    const step = await call(app, "GET", "/staff/two-factor", {
      cookie: challenge,
      headers: { accept: "text/html" },
    });
    expect(step.status).toBe(200);
    expect(step.text).toContain('data-island="TwoFactorStep"');
    const without = await call(app, "GET", "/staff/two-factor", {
      headers: { accept: "text/html" },
    });
    expect([without.status, without.headers.get("location")]).toEqual([302, "/staff"]);
  });

  it("is not bypassed by the kiosk's hand-back form", async () => {
    const { user } = await enrolled();
    const kiosk = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: user.id });
    const res = await call<{ message: string }>(app, "POST", "/api/kiosk/return", {
      cookie: kiosk,
      body: { username: user.username, password: user.password },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/second factor/);
    expect(cookieFrom(res, "lensdesk_session")).toBeUndefined();
  });

  it("turns off only with a right code, and not while the store requires it", async () => {
    const { user, cookie, key } = await enrolled("OWNER");
    const wrong = await call(app, "DELETE", "/api/auth/two-factor", {
      cookie,
      body: { code: "12" },
    });
    expect(wrong.status).toBe(400);
    const required = await call(app, "PUT", "/api/admin/two-factor-policy", {
      cookie,
      body: { required: true },
    });
    expect(required.status).toBe(200);
    const refused = await call(app, "DELETE", "/api/auth/two-factor", {
      cookie,
      body: { code: await codeFor(key, user.id) },
    });
    expect(refused.status).toBe(409);
    await call(app, "PUT", "/api/admin/two-factor-policy", { cookie, body: { required: false } });
    const off = await call(app, "DELETE", "/api/auth/two-factor", {
      cookie,
      body: { code: await codeFor(key, user.id) },
    });
    expect(off.status).toBe(200);
    const login = await password(user);
    expect(login.body).toEqual({ returnTo: "/quotes" });
  });

  it("lets an owner require it only once their own account has it; staff cannot enrol", async () => {
    const owner = await createTestUser(app.db, { role: "OWNER" });
    const ownerCookie = await sessionCookieFor(app.db, owner.id);
    const res = await call<{ message: string }>(app, "PUT", "/api/admin/two-factor-policy", {
      cookie: ownerCookie,
      body: { required: true },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/your own account first/);
    const staff = await createTestUser(app.db);
    const staffCookie = await sessionCookieFor(app.db, staff.id);
    expect(
      (await call(app, "POST", "/api/auth/two-factor/setup", { cookie: staffCookie })).status,
    ).toBe(403);
    expect(
      (await call(app, "PUT", "/api/admin/two-factor-policy", {
        cookie: staffCookie,
        body: { required: false },
      })).status,
    ).toBe(403);
    // Enrolment with a challenge is only for someone the store requires to enrol.
    const admin = await createTestUser(app.db, { role: "ADMIN" });
    const signedIn = await password(admin);
    expect(signedIn.body).toEqual({ returnTo: "/quotes" });
    expect((await call(app, "POST", "/api/auth/two-factor/setup")).status).toBe(401);
  });

  it("counts wrong codes per account across challenges: the password again does not start over", async () => {
    const next = addresses();
    const { user, key } = await enrolled();
    // One whole sign-in on this computer first: it becomes a known device of the account.
    const home = next();
    const first = await password(user, home);
    const done = await verify(
      await codeFor(key, user.id),
      cookieFrom(first, "lensdesk_2fa")!,
      home,
    );
    expect(done.status).toBe(200);
    const device = cookieFrom(done, "lensdesk_device")!;
    expect(device).toBeDefined();

    // Someone who knows the password, elsewhere: one challenge's 5 wrong codes...
    const from = next();
    const challenge = cookieFrom(await password(user, from), "lensdesk_2fa")!;
    for (let i = 0; i < CHALLENGE_ATTEMPTS; i++) {
      expect([400, 401]).toContain(
        (await verify(await wrongCode(key, user.id), challenge, from)).status,
      );
    }
    // ...and the password again gives a new challenge, but no new guesses: a wait.
    const again = cookieFrom(await password(user, from), "lensdesk_2fa")!;
    const held = await verify(await codeFor(key, user.id), again, from);
    expect(held.status).toBe(429);
    expect(held.body.message).toBe("Too many wrong codes. Please wait 1 minute and try again.");
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(30);
    expect(Number(held.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    // From any other address alike (the count is the account's)...
    const elsewhere = next();
    const third = cookieFrom(await password(user, elsewhere), "lensdesk_2fa")!;
    expect((await verify(await codeFor(key, user.id), third, elsewhere)).status).toBe(429);
    // ...but not on the account's own computer (with a code of a later step:
    // the codes above used up the ones around now).
    await app.db.updateTable("users").set({ totpLastStep: null }).where("id", "=", user.id)
      .execute();
    const mine = await password(user, next(), device);
    const own = await verify(
      await codeFor(key, user.id),
      `${cookieFrom(mine, "lensdesk_2fa")}; ${device}`,
    );
    expect(own.status).toBe(200);
    // Counted in the shared table and audited.
    const rows = await app.db.selectFrom("passwordCheckFailures").select(["purpose", "source"])
      .where("account", "=", `user:${user.id}`).execute();
    expect(rows.length).toBe(CHALLENGE_ATTEMPTS);
    expect(rows.every((r) => r.purpose === "two_factor" && r.source === `ip:${from}`)).toBe(true);
    const lockouts = await app.db.selectFrom("auditLog").select("details")
      .where("entityId", "=", user.id).where("action", "=", "auth.lockout").execute();
    expect(lockouts.at(-1)?.details).toMatchObject({
      purpose: "two_factor",
      scope: "account",
      ip: from,
    });
  });

  it("locks the second factor after 100 wrong codes, except on the account's known devices", async () => {
    const next = addresses();
    const { user, key } = await enrolled();
    const now = Date.now();
    // 100 wrong codes over the last days, from many addresses (the waits between them kept).
    await app.db.insertInto("passwordCheckFailures").values(
      Array.from({ length: 100 }, (_, i) => ({
        at: new Date(now - (100 - i) * 60 * 60_000),
        account: `user:${user.id}`,
        source: `ip:10.0.0.${i}`,
        address: `10.0.0.${i}`,
        knownDevice: false,
        purpose: "two_factor",
      })),
    ).execute();
    const from = next();
    const res = await verify(
      await codeFor(key, user.id),
      cookieFrom(await password(user, from), "lensdesk_2fa")!,
      from,
    );
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/^Two-factor sign-in for this account is locked/);
    // Until the oldest of the hundred is 30 days old.
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(25 * 24 * 3600);
  });

  it("a code used once is refused the second time, even within its step", async () => {
    const { user, key } = await enrolled();
    const code = await codeFor(key, user.id);
    const first = await verify(code, cookieFrom(await password(user), "lensdesk_2fa")!);
    expect(first.status).toBe(200);
    const second = await verify(code, cookieFrom(await password(user), "lensdesk_2fa")!);
    expect(second.status).toBe(400);
  });
});

describe("replacing and resetting a second factor", () => {
  it("replacing one that is on asks the current password and a current code or recovery code", async () => {
    const { user, cookie, key, recoveryCodes } = await enrolled();
    // A session alone is not enough any more.
    const bare = await call<{ errors: Record<string, string> }>(
      app,
      "POST",
      "/api/auth/two-factor/setup",
      { cookie, body: {} },
    );
    expect(bare.status).toBe(400);
    expect(Object.keys(bare.body.errors).sort()).toEqual(["code", "currentPassword"]);
    const wrongPassword = await call<{ errors: Record<string, string> }>(
      app,
      "POST",
      "/api/auth/two-factor/setup",
      { cookie, body: { currentPassword: "not it", code: await codeFor(key, user.id) } },
    );
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.errors.currentPassword).toBe("The current password is not correct");
    const badCode = await call<{ errors: Record<string, string> }>(
      app,
      "POST",
      "/api/auth/two-factor/setup",
      { cookie, body: { currentPassword: user.password, code: await wrongCode(key, user.id) } },
    );
    expect(badCode.status).toBe(400);
    expect(badCode.body.errors.code).toMatch(/not right/);
    // Nothing pending, so a code of any other secret confirms nothing.
    const enableAlone = await call(app, "POST", "/api/auth/two-factor/enable", {
      cookie,
      body: { code: await codeFor(key, user.id) },
    });
    expect(enableAlone.status).toBe(400);
    const failures = await app.db.selectFrom("auditLog").select(["action", "details"])
      .where("entityId", "=", user.id).where("action", "in", [
        "auth.two_factor_replace_failed",
        "auth.two_factor_failed",
      ]).execute();
    expect(failures.map((f) => f.action).sort()).toEqual([
      "auth.two_factor_failed",
      "auth.two_factor_replace_failed",
    ]);

    // With both (a recovery code will do for the code): a new secret to confirm.
    const setup = await call<{ manualKey: string }>(app, "POST", "/api/auth/two-factor/setup", {
      cookie,
      body: { currentPassword: user.password, code: recoveryCodes[0] },
    });
    expect(setup.status).toBe(200);
    const newKey = decodeBase32IgnorePadding(setup.body.manualKey.replace(/\s/g, ""));
    await app.db.updateTable("users").set({ totpLastStep: null }).where("id", "=", user.id)
      .execute();
    const enable = await call<{ recoveryCodes: string[] }>(
      app,
      "POST",
      "/api/auth/two-factor/enable",
      { cookie, body: { code: await codeFor(newKey, user.id) } },
    );
    expect(enable.status).toBe(200);
    expect(enable.body.recoveryCodes).toHaveLength(10);
    const replaced = await app.db.selectFrom("auditLog").select("action")
      .where("entityId", "=", user.id).where("action", "=", "user.two_factor_replaced").execute();
    expect(replaced).toHaveLength(1);
    // The old recovery codes are gone with the old secret.
    const challenge = cookieFrom(await password(user), "lensdesk_2fa")!;
    expect((await verify(recoveryCodes[1], challenge)).status).toBe(400);
    expect((await verify(enable.body.recoveryCodes[0], challenge)).status).toBe(200);
  });

  it("an owner resets another user's second factor: audited, signed out, told by e-mail", async () => {
    const smtp = await startSmtpServer();
    try {
      const ownerUser = await createTestUser(app.db, { role: "OWNER", firstName: "Olga" });
      const owner = await sessionCookieFor(app.db, ownerUser.id);
      expect(
        (await call(app, "PUT", "/api/admin/settings", {
          cookie: owner,
          body: mailSettingsFor(smtp),
        }))
          .status,
      ).toBe(200);
      const { user, cookie, key } = await enrolled();
      await app.db.updateTable("users").set({ email: "locked.out@store.test" })
        .where("id", "=", user.id).execute();
      // Locked after too many wrong codes, say.
      await app.db.insertInto("passwordCheckFailures").values(
        Array.from({ length: 30 }, (_, i) => ({
          at: new Date(Date.now() - i * 60_000),
          account: `user:${user.id}`,
          source: `ip:10.1.0.${i}`,
          address: `10.1.0.${i}`,
          knownDevice: false,
          purpose: "two_factor",
        })),
      ).execute();

      // Not for admins, nor for the owner's own account.
      const admin = await sessionCookieFor(
        app.db,
        (await createTestUser(app.db, { role: "ADMIN" })).id,
      );
      expect(
        (await call(app, "DELETE", `/api/admin/users/${user.id}/two-factor`, { cookie: admin }))
          .status,
      ).toBe(403);
      expect(
        (await call(app, "DELETE", `/api/admin/users/${ownerUser.id}/two-factor`, {
          cookie: owner,
        }))
          .status,
      ).toBe(403);

      const res = await call<{ message: string; notice: string }>(
        app,
        "DELETE",
        `/api/admin/users/${user.id}/two-factor`,
        { cookie: owner },
      );
      expect(res.status).toBe(200);
      expect(res.body.notice).toBe("sent");
      expect(res.body.message).toContain("told by e-mail at locked.out@store.test");
      // Signed out everywhere; the password alone signs in now; the old key is gone.
      expect((await call(app, "GET", "/api/auth/user", { cookie })).status).toBe(401);
      expect((await password(user)).body).toEqual({ returnTo: "/quotes" });
      const row = await app.db.selectFrom("users").select(["totpSecretEnc", "totpEnabledAt"])
        .where("id", "=", user.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ totpSecretEnc: null, totpEnabledAt: null });
      expect(key.length).toBe(20);
      const left = await app.db.selectFrom("passwordCheckFailures").select("id")
        .where("account", "=", `user:${user.id}`).execute();
      expect(left).toEqual([]);
      const audit = await app.db.selectFrom("auditLog").select(["action", "userId"])
        .where("entityId", "=", user.id).where("action", "=", "user.two_factor_reset").execute();
      expect(audit).toEqual([{ action: "user.two_factor_reset", userId: ownerUser.id }]);
      await waitUntil(
        () => smtp.received.some((m) => m.to.includes("locked.out@store.test")),
        "the notice reaches the user",
      );
      const mail = smtp.received.find((m) => m.to.includes("locked.out@store.test"))!;
      expect(mail.raw).toMatch(/two-factor sign-in was reset/);
      expect(mail.raw.replace(/=\r?\n/g, "")).toContain("Olga reset the two-factor sign-in");
      // Nothing left to reset.
      const again = await call(app, "DELETE", `/api/admin/users/${user.id}/two-factor`, {
        cookie: owner,
      });
      expect(again.status).toBe(409);
    } finally {
      await app.db.updateTable("settings").set({ smtpHost: null }).execute();
      await smtp.close();
    }
  });
});
