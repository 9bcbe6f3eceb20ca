// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
import { describe, it } from "node:test";
import { expect } from "expect";
import {
  call,
  createTestUser,
  sessionCookieFor,
  type TestApp,
  type TestUser,
  waitUntil,
} from "../helpers/test_app.ts";
import { deadPort, mailSettingsFor, type ReceivedMail, startSmtpServer } from "../helpers/smtp.ts";
import { backgroundSettled } from "../../src/auth/background.ts";
import { hashToken } from "../../src/auth/session.ts";
import { FORGOT_PASSWORD_ANSWER, RESET_DONE } from "../../src/schemas/password_recovery.ts";
import { RESET_TOKEN_MESSAGES } from "../../src/auth/password_reset.ts";
import { REDACTED_RESET_BODY } from "../../src/mail/messages/password_reset.tsx";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let owner: string;
let ownerUser: TestUser;
// Each test calls from its own loopback address, so the per-address limit of
// one test does not spill into the next.
let hostCounter = 10;
const nextHost = () => `127.0.0.${++hostCounter}`;

useTestApp(async (started) => {
  ({ app, smtp } = started);
  ownerUser = await createTestUser(app.db, { role: "OWNER", firstName: "Olga" });
  owner = await sessionCookieFor(app.db, ownerUser.id);
  await app.db.updateTable("settings").set({ storeName: "Northside Eyewear" }).execute();
  const res = await call(app, "PUT", "/api/admin/settings", {
    cookie: owner,
    body: mailSettingsFor(smtp, { fromEmail: "quotes@northside.test" }),
  });
  expect(res.status).toBe(200);
}, { smtp: true });

/** The raw message's body with quoted-printable soft breaks and escapes undone. */
function decoded(mail: ReceivedMail): string {
  return mail.raw.replace(/=\r?\n/g, "").replace(
    /=([0-9A-F]{2})/g,
    (_, hex) => String.fromCharCode(parseInt(hex, 16)),
  );
}

/** The reset link of the newest mail to `to`, waiting for it to arrive. */
async function linkMailedTo(to: string, after = 0): Promise<URL> {
  await waitUntil(
    () => smtp.received.filter((m) => m.to.includes(to)).length > after,
    `a reset mail reaches ${to}`,
  );
  const mail = smtp.received.filter((m) => m.to.includes(to)).at(-1)!;
  const match = decoded(mail).match(/https?:\/\/[^\s"<>]+\/reset-password\?token=[\w-]+/);
  expect(match).not.toBeNull();
  return new URL(match![0].replaceAll("&amp;", "&"));
}

const mailsTo = (to: string) => smtp.received.filter((m) => m.to.includes(to)).length;

async function forgot(email: string, from = nextHost()) {
  return await call<{ message: string }>(app, "POST", "/api/auth/forgot-password", {
    body: { email },
    from,
  });
}

async function login(username: string, password: string) {
  return await call(app, "POST", "/api/staff/login", {
    body: { username, password },
    from: nextHost(),
  });
}

describe("forgot password → mail → link → reset → sign in", () => {
  it("mails a working link, and the new password signs in", async () => {
    const user = await createTestUser(app.db, {
      email: "maria@northside.test",
      firstName: "Maria",
    });
    const session = await sessionCookieFor(app.db, user.id);
    const res = await forgot("Maria@Northside.test");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: FORGOT_PASSWORD_ANSWER });

    const link = await linkMailedTo("maria@northside.test");
    expect(link.origin).toBe(app.config.appUrl);
    expect(link.pathname).toBe("/reset-password");
    const token = link.searchParams.get("token")!;
    // 256 bits in base64url: 43 characters.
    expect(token.length).toBeGreaterThanOrEqual(43);
    const mail = smtp.received.at(-1)!;
    expect(mail.raw).toMatch(/^Subject: Reset your Northside Eyewear password/m);
    expect(decoded(mail)).toContain(user.username);

    // Only the hash is stored, in the token table and nowhere else.
    const stored = await app.db.selectFrom("passwordResetTokens").selectAll()
      .where("userId", "=", user.id).execute();
    expect(stored.map((t) => t.id)).toEqual([hashToken(token)]);
    await backgroundSettled();
    const outbox = await app.db.selectFrom("emailOutbox").select(["html", "textBody", "status"])
      .where("kind", "=", "PASSWORD_RESET").where("toAddress", "=", "maria@northside.test")
      .execute();
    expect(outbox).toEqual([
      { html: REDACTED_RESET_BODY, textBody: REDACTED_RESET_BODY, status: "SENT" },
    ]);

    // The page the link opens carries the token to the form.
    const page = await call(app, "GET", link.pathname + link.search, {
      headers: { accept: "text/html" },
    });
    expect(page.status).toBe(200);
    expect(page.text).toContain("New Password");

    const reset = await call(app, "POST", "/api/auth/reset-password", {
      body: { token, newPassword: "brand-new-pass" },
    });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ message: RESET_DONE });

    expect((await login(user.username, user.password)).status).toBe(401);
    expect((await login(user.username, "brand-new-pass")).status).toBe(200);
    // The session from before the reset is over.
    expect((await call(app, "GET", "/api/auth/user", { cookie: session })).status).toBe(401);

    // The link works once.
    const again = await call<{ message: string }>(app, "POST", "/api/auth/reset-password", {
      body: { token, newPassword: "another-pass" },
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(RESET_TOKEN_MESSAGES.used);
    expect((await login(user.username, "brand-new-pass")).status).toBe(200);

    const audit = await app.db.selectFrom("auditLog").select("action")
      .where("entityId", "=", user.id).execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(["auth.password_reset_requested", "auth.password_reset"]),
    );
  });
});

describe("refused tokens", () => {
  it("refuses a made-up token, an expired one and one a newer mail replaced, each saying why", async () => {
    const user = await createTestUser(app.db, { email: "tom@northside.test" });
    const tryToken = (token: string) =>
      call<{ message: string; errors?: Record<string, string> }>(
        app,
        "POST",
        "/api/auth/reset-password",
        { body: { token, newPassword: "whatever-pass" } },
      );

    const madeUp = await tryToken("made-up-token-made-up-token-made-up-token-xx");
    expect(madeUp.status).toBe(400);
    expect(madeUp.body.message).toBe(RESET_TOKEN_MESSAGES.unknown);
    expect(madeUp.body.errors?.token).toBe(RESET_TOKEN_MESSAGES.unknown);

    await forgot("tom@northside.test");
    const first = (await linkMailedTo("tom@northside.test")).searchParams.get("token")!;
    await forgot("tom@northside.test");
    const second = (await linkMailedTo("tom@northside.test", 1)).searchParams.get("token")!;
    expect(second).not.toBe(first);

    const replaced = await tryToken(first);
    expect(replaced.status).toBe(400);
    expect(replaced.body.message).toBe(RESET_TOKEN_MESSAGES.replaced);

    // Thirty minutes later (the stored expiry moved back instead of waiting).
    await app.db.updateTable("passwordResetTokens")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("id", "=", hashToken(second)).execute();
    const expired = await tryToken(second);
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe(RESET_TOKEN_MESSAGES.expired);
    expect((await login(user.username, user.password)).status).toBe(200);

    const noToken = await call<{ message: string }>(app, "POST", "/api/auth/reset-password", {
      body: { newPassword: "whatever-pass" },
    });
    expect(noToken.status).toBe(400);
    const short = await tryToken(second);
    expect(short.status).toBe(400);
  });

  it("gives a link 30 minutes", async () => {
    await createTestUser(app.db, { email: "kim@northside.test" });
    const before = Date.now();
    await forgot("kim@northside.test");
    const token = (await linkMailedTo("kim@northside.test")).searchParams.get("token")!;
    const row = await app.db.selectFrom("passwordResetTokens").select(["createdAt", "expiresAt"])
      .where("id", "=", hashToken(token)).executeTakeFirstOrThrow();
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(30 * 60_000);
    expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe("unknown addresses and limits", () => {
  it("answers an unknown address exactly like a known one, and mails nothing", async () => {
    await createTestUser(app.db, { email: "known@northside.test" });
    const known = await forgot("known@northside.test");
    const unknown = await forgot("nobody@northside.test");
    expect(unknown.status).toBe(known.status);
    expect(unknown.text).toBe(known.text);
    expect([...unknown.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());
    await linkMailedTo("known@northside.test");
    await backgroundSettled();
    expect(mailsTo("nobody@northside.test")).toBe(0);
  });

  it("mails no link for an owner who signs in through the provider", async () => {
    const ext = await createTestUser(app.db, { role: "OWNER", external: true });
    await app.db.updateTable("users").set({ email: "ext@northside.test" })
      .where("id", "=", ext.id).execute();
    expect((await forgot("ext@northside.test")).body.message).toBe(FORGOT_PASSWORD_ANSWER);
    await backgroundSettled();
    expect(mailsTo("ext@northside.test")).toBe(0);
  });

  it("refuses a fourth request for one address within 15 minutes, known or not", async () => {
    await createTestUser(app.db, { email: "busy@northside.test" });
    for (const email of ["busy@northside.test", "ghost@northside.test"]) {
      for (let i = 0; i < 3; i++) expect((await forgot(email)).status).toBe(200);
      const refused = await forgot(email);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((refused.body as { message: string }).message).toMatch(/Too many password reset/);
    }
  });

  it("refuses an eleventh request from one client address", async () => {
    const from = nextHost();
    for (let i = 0; i < 10; i++) {
      expect((await forgot(`someone${i}@elsewhere.test`, from)).status).toBe(200);
    }
    expect((await forgot("someone-else@elsewhere.test", from)).status).toBe(429);
  });

  it("sends at most 5 mails an hour to one account, however it is asked", async () => {
    const user = await createTestUser(app.db, { email: "shared@northside.test" });
    // Three by the address (however spelt) and two by the admin: the account's own limit
    // counts them all and stops the sixth.
    for (
      const email of ["shared@northside.test", "SHARED@northside.test", "shared@Northside.test"]
    ) {
      await forgot(email);
    }
    await backgroundSettled();
    for (let i = 0; i < 2; i++) {
      const sent = await call(app, "POST", `/api/admin/users/${user.id}/reset-email`, {
        cookie: owner,
      });
      expect(sent.status).toBe(200);
    }
    const limited = await call<{ message: string }>(
      app,
      "POST",
      `/api/admin/users/${user.id}/reset-email`,
      { cookie: owner },
    );
    expect(limited.status).toBe(429);
    expect(mailsTo("shared@northside.test")).toBe(5);
  });

  it("refuses a blank or malformed address with the spec's message", async () => {
    const blank = await call<{ message: string }>(app, "POST", "/api/auth/forgot-password", {
      body: { email: "  " },
    });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toContain("Please enter your email address");
    const control = await call(app, "POST", "/api/auth/forgot-password", {
      body: { email: "a\u0000@b.test" },
    });
    expect(control.status).toBe(400);
  });
});

describe("POST /api/admin/users/{id}/reset-email", () => {
  it("lets an admin mail any user a link, the owner included, which then works", async () => {
    const admin = await createTestUser(app.db, { role: "ADMIN", firstName: "Ada" });
    const adminCookie = await sessionCookieFor(app.db, admin.id);
    await app.db.updateTable("users").set({ email: "olga@northside.test" })
      .where("id", "=", ownerUser.id).execute();
    const res = await call<{ message: string }>(
      app,
      "POST",
      `/api/admin/users/${ownerUser.id}/reset-email`,
      { cookie: adminCookie },
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Password reset email sent to olga@northside.test.");
    const link = await linkMailedTo("olga@northside.test");
    expect(decoded(smtp.received.at(-1)!)).toContain("Ada asked for a password reset");
    // It gives the admin nothing: the link goes to the owner's own mailbox.
    const reset = await call(app, "POST", "/api/auth/reset-password", {
      body: { token: link.searchParams.get("token"), newPassword: "owner-new-pass" },
    });
    expect(reset.status).toBe(200);
    expect((await login(ownerUser.username, "owner-new-pass")).status).toBe(200);
    owner = await sessionCookieFor(app.db, ownerUser.id);
  });

  it("refuses staff, and says why when it cannot send", async () => {
    const staff = await createTestUser(app.db);
    const staffCookie = await sessionCookieFor(app.db, staff.id);
    expect(
      (await call(app, "POST", `/api/admin/users/${staff.id}/reset-email`, { cookie: staffCookie }))
        .status,
    ).toBe(403);
    const noEmail = await call<{ message: string }>(
      app,
      "POST",
      `/api/admin/users/${staff.id}/reset-email`,
      { cookie: owner },
    );
    expect(noEmail.status).toBe(409);
    expect(noEmail.body.message).toMatch(/no e-mail address/);
    expect(
      (await call(app, "POST", `/api/admin/users/${crypto.randomUUID()}/reset-email`, {
        cookie: owner,
      })).status,
    ).toBe(404);
    expect(
      (await call(app, "POST", "/api/admin/users/not-a-uuid/reset-email", { cookie: owner }))
        .status,
    ).toBe(404);
    const ext = await createTestUser(app.db, { role: "OWNER", external: true, email: "e@x.test" });
    expect(
      (await call(app, "POST", `/api/admin/users/${ext.id}/reset-email`, { cookie: owner }))
        .status,
    ).toBe(409);
  });

  it("answers 202 when the mail server is down, and says e-mail is not configured when it is not", async () => {
    const user = await createTestUser(app.db, { email: "down@northside.test" });
    await call(app, "PUT", "/api/admin/settings", {
      cookie: owner,
      body: mailSettingsFor(smtp, { port: deadPort(), fromEmail: "quotes@northside.test" }),
    });
    const queued = await call<{ status: string }>(
      app,
      "POST",
      `/api/admin/users/${user.id}/reset-email`,
      { cookie: owner },
    );
    expect(queued.status).toBe(202);
    expect(queued.body.status).toBe("queued");

    await app.db.updateTable("settings").set({ smtpHost: null }).execute();
    const off = await call<{ message: string }>(
      app,
      "POST",
      `/api/admin/users/${user.id}/reset-email`,
      { cookie: owner },
    );
    expect(off.status).toBe(409);
    expect(off.body.message).toMatch(/^Email is not configured/);
    // The forgotten-password answer stays the same without mail.
    expect((await forgot("down@northside.test")).body.message).toBe(FORGOT_PASSWORD_ANSWER);
    await call(app, "PUT", "/api/admin/settings", {
      cookie: owner,
      body: mailSettingsFor(smtp, { fromEmail: "quotes@northside.test" }),
    });
  });
});
