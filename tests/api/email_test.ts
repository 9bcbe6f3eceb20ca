// Mail over HTTP on a real database: the settings and their status, and a
// quote's e-mail through the outbox, queued, sent, retried and recorded.
import { describe, it } from "node:test";
import { expect } from "expect";
import { call } from "../helpers/test_app.ts";
import { deadPort } from "../helpers/smtp.ts";
import { deliverDue, deliverEmail, enqueueEmail } from "../../src/mail/outbox.ts";
import type { HistoryEntry } from "../../src/audit/describe.ts";
import { sql } from "kysely";
import { app, configure, owner, savedQuote, smtp, staff, useMailApp } from "./email_fixture.ts";

useMailApp();

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
