import { describe, it } from "node:test";
import { everydayAndSport } from "../helpers/quote_fixture.ts";
import { expect } from "expect";
import {
  call,
  capturingLogger,
  createTestUser,
  sessionCookieFor,
  type TestApp,
} from "../helpers/test_app.ts";
import { deadPort, mailSettingsFor, startSmtpServer } from "../helpers/smtp.ts";
import { deliverDue, deliverEmail, enqueueEmail } from "../../src/mail/outbox.ts";
import { findMailSettings, MAIL_FAILURE } from "../../src/mail/mail_settings.ts";
import { testEmailFailureMs } from "../../routes/api/admin_settings.ts";
import type { CreatedClient } from "../../src/clients/views.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";
import type { HistoryEntry } from "../../src/audit/describe.ts";
import { sql } from "kysely";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp, smtp: Awaited<ReturnType<typeof startSmtpServer>>, owner: string, staff: string;
const log = capturingLogger();

// A short mail-server timeout: a failed test e-mail is answered 2 s after it.
useTestApp(async (started) => {
  ({ app, smtp } = started);
  owner = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "OWNER" })).id);
  staff = await sessionCookieFor(app.db, (await createTestUser(app.db)).id);
  await app.db.updateTable("settings").set({ storeName: "Northside Eyewear" }).execute();
}, { env: { SMTP_TIMEOUT_MS: "300" }, logger: log.logger, smtp: true });

async function configure(port: number) {
  const res = await call(app, "PUT", "/api/admin/settings", {
    cookie: owner,
    body: mailSettingsFor(smtp, {
      port,
      fromEmail: "quotes@northside.test",
      fromName: "Northside Eyewear",
    }),
  });
  expect(res.status).toBe(200);
}

async function savedQuote() {
  const created = await call<CreatedClient>(app, "POST", "/api/clients", {
    cookie: staff,
    body: { firstName: "Ana", lastName: "Ruiz", email: "ana@example.com" },
  });
  const bundle = (await call<QuoteBundle>(app, "GET", `/api/quotes/${created.body.quote.id}`, {
    cookie: staff,
  })).body;
  await call(app, "PUT", `/api/quotes/${bundle.quote.id}`, {
    cookie: staff,
    body: {
      version: bundle.quote.version,
      opticianName: "Maria",
      internalNotes: "INTERNAL-ONLY-4242",
      options: everydayAndSport(bundle.options[0].id),
    },
  });
  return bundle.quote.id;
}

const status = (id: string) =>
  app.db.selectFrom("quotes").select(["status", "emailedAt"]).where("id", "=", id)
    .executeTakeFirstOrThrow();

describe("e-mail settings and status", () => {
  it("reports not configured at first, and shows the banner to ADMIN/OWNER only", async () => {
    const res = await call(app, "GET", "/api/admin/oauth2-status", { cookie: staff });
    expect(res.body).toEqual({
      configured: false,
      working: false,
      email: null,
      status: "not_configured",
    });
    const text =
      "Email is not configured. Quote emailing is disabled until email settings are configured.";
    const ownerPage = await call<string>(app, "GET", "/dashboard", {
      cookie: owner,
      headers: { accept: "text/html" },
    });
    expect(ownerPage.text).toContain(text);
    expect(ownerPage.text).toContain('href="/admin/settings"');
    const staffPage = await call<string>(app, "GET", "/dashboard", {
      cookie: staff,
      headers: { accept: "text/html" },
    });
    expect(staffPage.text).not.toContain(text);
    const dismissed = await call<string>(app, "GET", "/dashboard", {
      cookie: `${owner}; lensdesk_email_banner=dismissed`,
      headers: { accept: "text/html" },
    });
    expect(dismissed.text).not.toContain(text);
    const dismiss = await call(app, "POST", "/api/email-banner/dismiss", {
      cookie: owner,
      body: "returnTo=%2Fclients",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: app.baseUrl },
    });
    expect(dismiss.status).toBe(303);
    expect(dismiss.headers.get("location")).toBe("/clients");
    expect(dismiss.headers.get("set-cookie")).toContain("lensdesk_email_banner=dismissed");
  });

  it("settings are ADMIN/OWNER only; the SMTP password is stored encrypted and never returned", async () => {
    expect((await call(app, "GET", "/api/admin/settings", { cookie: staff })).status).toBe(403);
    expect(
      (await call(app, "PUT", "/api/admin/settings", { cookie: staff, body: { smtpHost: "x" } }))
        .status,
    ).toBe(403);
    expect((await call(app, "GET", "/api/admin/settings")).status).toBe(401);
    await configure(smtp.port);
    const row = await app.db.selectFrom("settings").select("smtpPassEnc").executeTakeFirstOrThrow();
    expect(row.smtpPassEnc).toMatch(/^v1:/);
    expect(row.smtpPassEnc).not.toContain(smtp.credentials.pass);
    const read = await call<Record<string, unknown>>(app, "GET", "/api/admin/settings", {
      cookie: owner,
    });
    expect(read.body).toMatchObject({
      smtpHost: "127.0.0.1",
      smtpPassEnc: "",
      smtpPasswordSet: true,
      emailSubject: "Quote from {store}",
      emailBody: "Please find your quote attached below.",
    });
    expect(JSON.stringify(read.body)).not.toContain(smtp.credentials.pass);
    const bad = await call(app, "PUT", "/api/admin/settings", {
      cookie: owner,
      body: { smtpPort: 70000, storeEmail: "nope" },
    });
    expect(bad.status).toBe(400);
    const status = await call(app, "GET", "/api/admin/oauth2-status", { cookie: owner });
    expect(status.body).toMatchObject({
      configured: true,
      working: false,
      email: "quotes@northside.test",
    });
  });

  it("POST /api/admin/test-email sends a message and marks e-mail as working", async () => {
    expect(
      (await call(app, "POST", "/api/admin/test-email", { cookie: owner, body: { email: "" } }))
        .status,
    ).toBe(400);
    expect(
      (await call(app, "POST", "/api/admin/test-email", {
        cookie: staff,
        body: { email: "a@b.co" },
      })).status,
    ).toBe(403);
    const before = smtp.received.length;
    const res = await call(app, "POST", "/api/admin/test-email", {
      cookie: owner,
      body: { email: "owner@northside.test" },
    });
    expect(res.status).toBe(200);
    expect(smtp.received.length).toBe(before + 1);
    expect(smtp.received.at(-1)!.to).toEqual(["owner@northside.test"]);
    const status = await call(app, "GET", "/api/admin/oauth2-status", { cookie: owner });
    expect(status.body).toMatchObject({ configured: true, working: true, status: "working" });
  });
});

describe("POST /api/quotes/{id}/email", () => {
  it("sends the client copy with its PDF, records it and marks the quote EMAILED", async () => {
    await configure(smtp.port);
    const id = await savedQuote();
    const before = smtp.received.length;
    const res = await call<{ status: string }>(app, "POST", `/api/quotes/${id}/email`, {
      cookie: staff,
      body: { email: "ana@example.com", note: "Here are the two pairs we talked about." },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("sent");
    expect(smtp.received.length).toBe(before + 1);
    const mail = smtp.received.at(-1)!;
    expect(mail.to).toEqual(["ana@example.com"]);
    expect(mail.from).toBe("quotes@northside.test");
    expect(mail.raw).toMatch(/^Subject: Quote from Northside Eyewear/m);
    expect(mail.raw).toContain("Here are the two pairs we talked about.");
    expect(mail.raw).toContain("Please find your quote attached below.");
    expect(mail.raw).toMatch(/Content-Type: application\/pdf; name=Quote-Q-\d{6}\.pdf/);
    expect(mail.raw).toContain("JVBERi0"); // "%PDF-" in base64
    expect(mail.raw).not.toContain("INTERNAL-ONLY-4242");
    expect((await status(id)).status).toBe("EMAILED");
    const outbox = await app.db.selectFrom("emailOutbox").selectAll().where("quoteId", "=", id)
      .executeTakeFirstOrThrow();
    expect(outbox).toMatchObject({ status: "SENT", toAddress: "ana@example.com", attempts: 1 });
  });

  it("when the mail server is down: says so, keeps the message, and retries until it goes", async () => {
    await configure(deadPort());
    const id = await savedQuote();
    const res = await call<{ status: string; message: string }>(
      app,
      "POST",
      `/api/quotes/${id}/email`,
      {
        cookie: staff,
        body: { email: "ana@example.com", note: "" },
      },
    );
    expect(res.status).toBe(202);
    expect(res.body.status).toBe("queued");
    expect(res.body.message).toMatch(/could not be reached.*will be sent automatically/);
    expect((await status(id)).status).toBe("PENDING_MEASUREMENTS");
    const queued = await app.db.selectFrom("emailOutbox").selectAll().where("quoteId", "=", id)
      .executeTakeFirstOrThrow();
    expect(queued).toMatchObject({ status: "PENDING", attempts: 1 });
    const wait = (queued.nextAttemptAt.getTime() - Date.now()) / 60_000;
    expect(wait).toBeGreaterThan(0.5);
    expect(wait).toBeLessThanOrEqual(1);
    const health = await call(app, "GET", "/api/admin/oauth2-status", { cookie: owner });
    expect(health.body).toMatchObject({ working: false });
    // Not due yet: nothing is tried.
    expect(await deliverDue(app.db, app.config.secretKey)).toBe(0);
    // The server comes back; two minutes later the worker delivers it.
    await configure(smtp.port);
    const before = smtp.received.length;
    const tried = await deliverDue(app.db, app.config.secretKey, new Date(Date.now() + 120_000));
    expect(tried).toBe(1);
    expect(smtp.received.length).toBe(before + 1);
    expect((await status(id)).status).toBe("EMAILED");
    const sent = await app.db.selectFrom("emailOutbox").selectAll().where("id", "=", queued.id)
      .executeTakeFirstOrThrow();
    expect(sent).toMatchObject({ status: "SENT", attempts: 2, lastError: null });
  });

  it("the quote's history says queued when it was queued, and sent when it went", async () => {
    await configure(deadPort());
    const id = await savedQuote();
    const res = await call(app, "POST", `/api/quotes/${id}/email`, {
      cookie: staff,
      body: { email: "ana@example.com", note: "" },
    });
    expect(res.status).toBe(202);
    const history = async () =>
      (await call<HistoryEntry[]>(app, "GET", `/api/quotes/${id}/history`, { cookie: staff }))
        .body;
    const queued = await history();
    expect(queued[0].summary).toBe("Quote e-mail queued for ana@example.com");
    expect(queued.map((e) => e.summary)).not.toContain("Quote e-mail sent to ana@example.com");

    await configure(smtp.port);
    expect(await deliverDue(app.db, app.config.secretKey, new Date(Date.now() + 120_000))).toBe(1);
    const [sent] = await history();
    expect(sent).toMatchObject({
      summary: "Quote e-mail sent to ana@example.com",
      actor: "system",
      changes: [{ label: "Status", from: "Pending Measurements", to: "Emailed" }],
    });
  });

  it("when another process's worker sent it first, the answer says it was sent", async () => {
    await configure(smtp.port);
    // As if another app process claimed the message the moment it was queued:
    // sent it (SENT), or is sending it now (its claim pushed the time out).
    await sql`CREATE FUNCTION test_claimed_elsewhere() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.to_address = 'sent@example.com' THEN
          NEW.status := 'SENT'; NEW.sent_at := now(); NEW.attempts := 1;
        ELSE
          NEW.next_attempt_at := now() + interval '5 minutes';
        END IF;
        RETURN NEW;
      END $$`.execute(app.db);
    await sql`CREATE TRIGGER test_claimed_elsewhere BEFORE INSERT ON email_outbox
      FOR EACH ROW EXECUTE FUNCTION test_claimed_elsewhere()`.execute(app.db);
    try {
      const id = await savedQuote();
      const sent = await call<{ status: string; message: string }>(
        app,
        "POST",
        `/api/quotes/${id}/email`,
        { cookie: staff, body: { email: "sent@example.com", note: "" } },
      );
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({
        status: "sent",
        message: "Quote emailed to sent@example.com",
      });
      const sending = await call<{ status: string; message: string }>(
        app,
        "POST",
        `/api/quotes/${id}/email`,
        { cookie: staff, body: { email: "busy@example.com", note: "" } },
      );
      expect(sending.status).toBe(202);
      expect(sending.body.message).toBe(
        "The quote e-mail to busy@example.com is being sent by the outbox right now; " +
          "its delivery shows in the quote's history.",
      );
      expect(sending.body.message).not.toMatch(/could not be reached/);
    } finally {
      await sql`DROP TRIGGER test_claimed_elsewhere ON email_outbox`.execute(app.db);
      await sql`DROP FUNCTION test_claimed_elsewhere()`.execute(app.db);
    }
  });

  it("refuses bad input, unknown and closed quotes, and signed-out callers", async () => {
    const id = await savedQuote();
    const blank = await call<{ message: string }>(app, "POST", `/api/quotes/${id}/email`, {
      cookie: staff,
      body: { email: "  ", note: "" },
    });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe("Please enter the client's email address");
    expect(
      (await call(app, "POST", `/api/quotes/${id}/email`, { cookie: staff, body: { email: "x" } }))
        .status,
    ).toBe(400);
    expect(
      (await call(app, "POST", `/api/quotes/${crypto.randomUUID()}/email`, {
        cookie: staff,
        body: { email: "a@b.co" },
      })).status,
    ).toBe(404);
    expect(
      (await call(app, "POST", `/api/quotes/${id}/email`, { body: { email: "a@b.co" } })).status,
    ).toBe(401);
    await call(app, "POST", `/api/quotes/${id}/close`, { cookie: staff, body: { reason: "No" } });
    expect(
      (await call(app, "POST", `/api/quotes/${id}/email`, {
        cookie: staff,
        body: { email: "a@b.co" },
      })).status,
    ).toBe(409);
  });

  it("is refused with a clear message while e-mail is not configured", async () => {
    const id = await savedQuote();
    await call(app, "PUT", "/api/admin/settings", { cookie: owner, body: { smtpHost: null } });
    const res = await call<{ message: string }>(app, "POST", `/api/quotes/${id}/email`, {
      cookie: staff,
      body: { email: "a@b.co" },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/^Email is not configured/);
  });

  it("a message is due in the very millisecond it was queued, so the request sends it itself", async () => {
    // The request queues a message and tries it at once with a JavaScript
    // instant, which has no microseconds; due-ness stored with the database's
    // microseconds made a try within the same millisecond find nothing due.
    for (let i = 0; i < 5; i++) {
      const id = await enqueueEmail(app.db, {
        quoteId: null,
        to: `due${i}@example.com`,
        subject: "s",
        html: "<p>h</p>",
        text: "t",
        createdBy: null,
      });
      try {
        const row = await app.db.selectFrom("emailOutbox").select("nextAttemptAt")
          .where("id", "=", id).executeTakeFirstOrThrow();
        const queuedAt = new Date(row.nextAttemptAt as unknown as string | Date);
        const result = await deliverEmail(app.db, app.config.secretKey, id, queuedAt);
        expect(result.status).not.toBe("busy");
      } finally {
        await app.db.deleteFrom("emailOutbox").where("id", "=", id).execute();
      }
    }
  });
});

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
