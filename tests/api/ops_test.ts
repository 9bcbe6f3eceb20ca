import { describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import type { TestApp } from "../helpers/test_app.ts";
import { call, createTestUser, sessionCookieFor, startTestApp } from "../helpers/test_app.ts";
import { enqueueEmail } from "../../src/mail/outbox.ts";
import { recordBackupRun } from "../../src/backup/runs.ts";
import { listMigrationNames } from "../../src/db/migrate.ts";
import { useTestApp } from "../helpers/suite.ts";

const TOKEN = "metrics-token-for-tests-0123456789";
let app: TestApp, staff: string;

useTestApp(async (started) => {
  ({ app } = started);
  staff = await sessionCookieFor(app.db, (await createTestUser(app.db)).id);
}, { env: { METRICS_TOKEN: TOKEN } });

async function scrape(): Promise<string> {
  const res = await call(app, "GET", "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
}

/** The value of one series line, e.g. `lensdesk_outbox_messages{state="due"}`. */
function value(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("/readyz", () => {
  it("is ready when every migration of this code has run, and reports the outbox", async () => {
    const res = await call(app, "GET", "/readyz");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "ok",
      database: "ok",
      migrations: { status: "ok", pending: [], unknown: [] },
      outbox: { status: "ok", pending: 0, due: 0, failed: 0 },
      backup: { status: "none", lastSuccess: null, lastFailure: null },
    });
  });

  it("on an emptied database, answers and names every missing migration", async () => {
    const emptied = await startTestApp();
    try {
      await sql`DROP SCHEMA public CASCADE`.execute(emptied.db);
      await sql`CREATE SCHEMA public`.execute(emptied.db);
      const res = await call(emptied, "GET", "/readyz");
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        status: "error",
        database: "ok",
        migrations: {
          status: "error",
          applied: 0,
          pending: await listMigrationNames(),
          unknown: [],
        },
        outbox: { status: "unknown" },
        backup: { status: "unknown" },
      });
    } finally {
      await emptied.close();
    }
  });

  it("is not ready while a migration is pending or one from a newer release has run", async () => {
    const last = await app.db.selectFrom("kysely_migration" as never).select(
      sql<string>`max(name)`.as("name"),
    ).executeTakeFirstOrThrow() as { name: string };
    await sql`DELETE FROM kysely_migration WHERE name = ${last.name}`.execute(app.db);
    try {
      const pending = await call(app, "GET", "/readyz");
      expect(pending.status).toBe(503);
      expect(pending.body).toMatchObject({
        status: "error",
        migrations: { status: "error", pending: [last.name], unknown: [] },
      });
    } finally {
      await sql`INSERT INTO kysely_migration (name, timestamp) VALUES (${last.name}, now()::text)`
        .execute(app.db);
    }
    await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('9999_from_the_future', now()::text)`
      .execute(app.db);
    try {
      const ahead = await call(app, "GET", "/readyz");
      expect(ahead.status).toBe(503);
      expect(ahead.body).toMatchObject({ migrations: { unknown: ["9999_from_the_future"] } });
    } finally {
      await sql`DELETE FROM kysely_migration WHERE name = '9999_from_the_future'`.execute(app.db);
    }
    expect((await call(app, "GET", "/readyz")).status).toBe(200);
  });

  it("flags a stalled outbox without taking the process out of service", async () => {
    const id = await enqueueEmail(app.db, {
      quoteId: null,
      to: "stalled@example.com",
      subject: "s",
      html: "<p>h</p>",
      text: "t",
      createdBy: null,
    });
    try {
      await app.db.updateTable("emailOutbox")
        .set({ nextAttemptAt: new Date(Date.now() - 20 * 60_000) }).where("id", "=", id).execute();
      const res = await call<{ outbox: Record<string, unknown> }>(app, "GET", "/readyz");
      expect(res.status).toBe(200);
      expect(res.body.outbox).toMatchObject({ status: "stalled", pending: 1, due: 1 });
      expect(res.body.outbox.oldestDueSeconds).toBeGreaterThanOrEqual(20 * 60 - 5);
    } finally {
      await app.db.deleteFrom("emailOutbox").where("id", "=", id).execute();
    }
  });
});

describe("/metrics", () => {
  it("is off (404) without METRICS_TOKEN", async () => {
    app.config.metricsToken = undefined;
    try {
      const res = await call(app, "GET", "/metrics", {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.status).toBe(404);
    } finally {
      app.config.metricsToken = TOKEN;
    }
  });

  it("needs the bearer token", async () => {
    const none = await call(app, "GET", "/metrics");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(none.text).not.toMatch(/lensdesk_/);
    const wrong = await call(app, "GET", "/metrics", {
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.status).toBe(401);
  });

  it("counts requests by route pattern and status, with durations", async () => {
    const id = crypto.randomUUID();
    const series =
      'lensdesk_http_requests_total{method="GET",route="/api/quotes/:id",status="404"}';
    const before = value(await scrape(), series) ?? 0;
    expect((await call(app, "GET", `/api/quotes/${id}`, { cookie: staff })).status).toBe(404);
    expect((await call(app, "GET", `/api/quotes/${crypto.randomUUID()}`, { cookie: staff })).status)
      .toBe(404);
    const text = await scrape();
    expect(value(text, series)).toBe(before + 2);
    // The pattern, never the raw path: series stay bounded.
    expect(text).not.toContain(id);
    const histogram =
      'lensdesk_http_request_duration_seconds_count{method="GET",route="/api/quotes/:id",status="404"}';
    expect(value(text, histogram)).toBe(before + 2);
    expect(
      value(
        text,
        'lensdesk_http_request_duration_seconds_bucket{method="GET",route="/api/quotes/:id",status="404",le="+Inf"}',
      ),
    ).toBe(before + 2);
    expect(text).toMatch(/^# TYPE lensdesk_http_request_duration_seconds histogram$/m);
  });

  it("reports the last good and the last failed backup", async () => {
    const none = await scrape();
    expect(value(none, "lensdesk_backup_ok")).toBe(0);
    expect(value(none, "lensdesk_backup_last_success_timestamp_seconds")).toBe(0);
    const startedAt = new Date();
    await recordBackupRun(app.db, {
      startedAt,
      ok: true,
      nightly: true,
      bytes: 123_456,
      file: "x.sql",
    });
    await recordBackupRun(app.db, { startedAt, ok: false, nightly: true, error: "disk full" });
    try {
      const text = await scrape();
      expect(value(text, "lensdesk_backup_last_success_bytes")).toBe(123_456);
      expect(value(text, "lensdesk_backup_last_success_timestamp_seconds")).toBeGreaterThan(0);
      expect(value(text, "lensdesk_backup_last_failure_timestamp_seconds")).toBeGreaterThan(0);
      expect(value(text, "lensdesk_backup_ok")).toBe(0);
      const ready = await call(app, "GET", "/readyz");
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({
        backup: {
          status: "failed",
          lastSuccess: { bytes: 123_456, file: "x.sql" },
          lastFailure: { error: "disk full" },
        },
      });
    } finally {
      await app.db.deleteFrom("backupRuns").execute();
    }
  });

  it("while the database is down, still answers with this process's figures", async () => {
    const down = await startTestApp({ METRICS_TOKEN: TOKEN });
    try {
      await down.db.destroy();
      const res = await call(down, "GET", "/metrics", {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.status).toBe(200);
      expect(value(res.text, "lensdesk_database_up")).toBe(0);
      expect(res.text).not.toMatch(/^lensdesk_outbox_messages/m);
      expect(res.text).not.toMatch(/^lensdesk_backup_ok/m);
      expect(res.text).toMatch(/^lensdesk_outbox_worker_passes_total \d+$/m);
      expect(res.text).toMatch(/^process_resident_memory_bytes \d+$/m);
      const ready = await call(down, "GET", "/readyz");
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: "error", database: "unreachable" });
    } finally {
      await down.close().catch(() => {});
    }
  });

  it("reports the outbox queue and the database pool", async () => {
    const before = await scrape();
    expect(value(before, 'lensdesk_outbox_messages{state="pending"}')).toBe(0);
    const id = await enqueueEmail(app.db, {
      quoteId: null,
      to: "queued@example.com",
      subject: "s",
      html: "<p>h</p>",
      text: "t",
      createdBy: null,
    });
    try {
      const text = await scrape();
      expect(value(text, "lensdesk_database_up")).toBe(1);
      expect(value(text, 'lensdesk_outbox_messages{state="pending"}')).toBe(1);
      expect(value(text, 'lensdesk_outbox_messages{state="due"}')).toBe(1);
      const max = Deno.env.get("TEST_DATABASE_URL") ? 10 : 1;
      expect(value(text, 'lensdesk_db_pool_connections{state="max"}')).toBe(max);
      expect(value(text, 'lensdesk_db_pool_connections{state="in_use"}')).toBeGreaterThanOrEqual(0);
      expect(value(text, "lensdesk_db_pool_waiting")).toBe(0);
    } finally {
      await app.db.deleteFrom("emailOutbox").where("id", "=", id).execute();
    }
  });
});
