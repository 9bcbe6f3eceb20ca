// One engine: what the mail settings hand to a mail server (the stored password,
// TLS, the errors people see) is the SMTP exchange's; the settings row is read and
// written alike on either database, and email_test covers the outbox on both.
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import { deadPort, startSmtpServer } from "../helpers/smtp.ts";
import { findMailSettings, MAIL_FAILURE } from "../../src/mail/mail_settings.ts";
import { testEmailFailureMs } from "../../routes/api/admin_settings.ts";
import {
  app,
  configure,
  log,
  owner,
  savedQuote,
  smtp,
  staff,
  useMailApp,
} from "./email_fixture.ts";

useMailApp();

describe("mail secrets", () => {
  const passwordSet = async () =>
    (await call<{ smtpPasswordSet: boolean }>(app, "GET", "/api/admin/settings", {
      cookie: owner,
    })).body.smtpPasswordSet;
  const put = (body: Record<string, unknown>, cookie = owner) =>
    call(app, "PUT", "/api/admin/settings", { cookie, body });

  it("changing the host, port or user drops the stored password unless it is typed again", async () => {
    const admin = await sessionCookieFor(
      app.db,
      (await createTestUser(app.db, { role: "ADMIN" })).id,
    );
    for (
      const change of [
        { smtpHost: "mail.elsewhere.test" },
        { smtpHost: "localhost" },
        { smtpPort: smtp.port + 1 },
        { smtpUser: "someone-else" },
        { smtpUser: null },
        // Allowing a relay without TLS would send the password in clear.
        { smtpAllowInsecure: true },
      ]
    ) {
      await configure(smtp.port);
      if ("smtpAllowInsecure" in change) await put({ smtpAllowInsecure: false });
      expect(await passwordSet()).toBe(true);
      const res = await put(change, admin);
      expect([change, res.status, res.body.smtpPasswordSet]).toEqual([change, 200, false]);
      const row = await app.db.selectFrom("settings").select("smtpPassEnc")
        .executeTakeFirstOrThrow();
      expect(row.smtpPassEnc).toBeNull();
    }
    const audit = await app.db.selectFrom("auditLog").select("details")
      .where("action", "=", "settings.update").orderBy("at", "desc").orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ smtpPasswordDropped: true });

    // Unchanged values sent again, other fields, or the password typed with the change: kept.
    await configure(smtp.port);
    await put({ smtpHost: "127.0.0.1", smtpPort: smtp.port, smtpUser: smtp.credentials.user });
    await put({ storeName: "Northside Eyewear", smtpFromName: "Northside" });
    expect(await passwordSet()).toBe(true);
    await put({ smtpHost: "127.0.0.2", smtpPassword: "typed-again" });
    const mail = await findMailSettings(app.db, app.config.secretKey);
    expect([mail.host, mail.password]).toEqual(["127.0.0.2", "typed-again"]);
  });

  it("pointing the server elsewhere does not hand the stored password to that server", async () => {
    const rogue = await startSmtpServer({ user: "mailer", pass: "whatever" });
    try {
      await configure(smtp.port);
      const admin = await sessionCookieFor(
        app.db,
        (await createTestUser(app.db, { role: "ADMIN" })).id,
      );
      await put({ smtpPort: rogue.port, smtpAllowInsecure: true }, admin);
      await call(app, "POST", "/api/admin/test-email", {
        cookie: admin,
        body: { email: "me@rogue.test" },
      });
      expect(rogue.authAttempts.map((a) => a.password)).not.toContain(smtp.credentials.pass);
      expect(JSON.stringify(rogue.authAttempts)).not.toContain(smtp.credentials.pass);
    } finally {
      await rogue.close();
    }
  });

  it("requires TLS unless a local relay without TLS is allowed", async () => {
    await configure(smtp.port);
    await put({ smtpAllowInsecure: false, smtpPassword: smtp.credentials.pass });
    const attemptsBefore = smtp.authAttempts.length;
    const received = smtp.received.length;
    const refused = await call<{ message: string }>(app, "POST", "/api/admin/test-email", {
      cookie: owner,
      body: { email: "owner@northside.test" },
    });
    expect(refused.status).toBe(503);
    // The loopback server offers no STARTTLS: nothing was sent, not even the password.
    expect(smtp.authAttempts.length).toBe(attemptsBefore);
    expect(smtp.received.length).toBe(received);
    await put({ smtpAllowInsecure: true, smtpPassword: smtp.credentials.pass });
    const sent = await call(app, "POST", "/api/admin/test-email", {
      cookie: owner,
      body: { email: "owner@northside.test" },
    });
    expect(sent.status).toBe(200);
    expect(smtp.received.length).toBe(received + 1);
  });

  it("a failed test e-mail is answered at the same moment whether the port is closed or silent", async () => {
    // A port that accepts and never greets, as any non-mail service does.
    const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const held: Deno.Conn[] = [];
    const accepting = (async () => {
      for await (const conn of silent) held.push(conn);
    })();
    try {
      const answers: Array<{ status: number; text: string; ms: number }> = [];
      for (const port of [deadPort(), (silent.addr as Deno.NetAddr).port]) {
        await configure(port);
        const started = performance.now();
        const res = await call(app, "POST", "/api/admin/test-email", {
          cookie: owner,
          body: { email: "owner@northside.test" },
        });
        answers.push({ status: res.status, text: res.text, ms: performance.now() - started });
      }
      expect(answers[0].status).toBe(503);
      expect(answers[1]).toMatchObject({ status: 503, text: answers[0].text });
      // Neither comes before the fixed moment (a lower bound our own timer sets:
      // a closed port used to answer in milliseconds, a silent one in seconds).
      for (const a of answers) {
        expect(a.ms).toBeGreaterThanOrEqual(testEmailFailureMs(300) - 5);
      }
    } finally {
      silent.close();
      for (const conn of held) conn.close();
      await accepting.catch(() => {});
    }
  });

  it("mail errors shown to people are generic; the detail is in the server log", async () => {
    const port = deadPort();
    await configure(port);
    log.lines.length = 0;
    const test = await call<{ message: string }>(app, "POST", "/api/admin/test-email", {
      cookie: owner,
      body: { email: "owner@northside.test" },
    });
    expect(test.status).toBe(503);
    expect(test.body.message).toBe(`Failed to send test email. ${MAIL_FAILURE}`);
    const status = await call<{ status: string }>(app, "GET", "/api/admin/oauth2-status", {
      cookie: staff,
    });
    expect(status.body.status).toBe(`error: ${MAIL_FAILURE}`);
    const id = await savedQuote();
    const queued = await call<{ message: string }>(app, "POST", `/api/quotes/${id}/email`, {
      cookie: staff,
      body: { email: "ana@example.com" },
    });
    expect(queued.status).toBe(202);
    const outbox = await app.db.selectFrom("emailOutbox").select("lastError")
      .where("quoteId", "=", id).executeTakeFirstOrThrow();
    expect(outbox.lastError).toBe(MAIL_FAILURE);
    // Nothing a person can read names the port or the connection error.
    for (const shown of [test.text, status.text, queued.text, outbox.lastError ?? ""]) {
      expect(shown).not.toContain(String(port));
      expect(shown).not.toMatch(/ECONN|refused|timed? ?out|127\.0\.0\.1/i);
    }
    const logged = log.lines.filter((l) =>
      l.message === "test email failed" || l.message === "outbox delivery failed"
    );
    expect(logged.length).toBe(2);
    for (const line of logged) expect(String(line.fields?.error)).toMatch(/ECONNREFUSED|connect/i);
  });
});
