// Two real app processes (main.ts) on one PostgreSQL database, as two
// replicas behind a load balancer run. PGlite is one process by nature, so
// this file needs TEST_DATABASE_URL.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { type DatabaseHandle, openDatabase } from "../../src/db/database.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { type AppProcess, startAppProcess } from "../helpers/process.ts";
import { deadPort, mailSettingsFor, startSmtpServer } from "../helpers/smtp.ts";
import { call, createTestUser } from "../helpers/test_app.ts";
import { CATALOG_TABLES, DEFAULT_CATALOG } from "../../src/catalog/default_catalog.ts";
import { DEFAULT_HEARD_HOW } from "../../src/settings/heard_how.ts";
import type { CreatedClient } from "../../src/clients/views.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";

const SERVER = Deno.env.get("TEST_DATABASE_URL");
const OWNER = { username: "olivia", password: "owner-pass-123" };
const METRICS_TOKEN = "multi-process-metrics-token";

let testDb: TestDatabase;
let database: DatabaseHandle;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let a: AppProcess;
let b: AppProcess;

async function signIn(app: AppProcess, username: string, password: string) {
  const res = await call(app, "POST", "/api/staff/login", { body: { username, password } });
  expect(res.status).toBe(200);
  return res.headers.get("set-cookie")!.split(";")[0];
}

/** This process's count of finished outbox worker passes, from /metrics. */
async function workerPasses(app: AppProcess): Promise<number> {
  const res = await call(app, "GET", "/metrics", {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return Number(/^lensdesk_outbox_worker_passes_total (\d+)$/m.exec(res.text)![1]);
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!await check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe(
  "two app processes on one PostgreSQL database",
  { skip: !SERVER && "needs TEST_DATABASE_URL: PGlite is one process by design" },
  () => {
    before(async () => {
      testDb = await createTestDatabase();
      smtp = await startSmtpServer();
      const env = {
        DATABASE_URL: testDb.url,
        OWNER_USERNAME: OWNER.username,
        OWNER_PASSWORD: OWNER.password,
        METRICS_TOKEN,
        OUTBOX_POLL_MS: "100",
        LOG_REQUESTS: "0",
      };
      // Started together on a fresh database, as `docker compose up` starts replicas.
      [a, b] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
      database = await openDatabase(testDb.url, "/nonexistent");
    });
    after(async () => {
      await Promise.all([a?.kill(), b?.kill()]);
      await database?.close();
      await smtp?.close();
      await testDb?.drop();
    });

    it("both start; the first owner, catalog and heard-how options exist once", async () => {
      const db = database.db;
      const users = await db.selectFrom("users").select("username").execute();
      expect(users).toEqual([{ username: OWNER.username }]);
      for (const table of CATALOG_TABLES) {
        const rows = await db.selectFrom(table).select("id").execute();
        expect({ table, rows: rows.length }).toEqual({
          table,
          rows: DEFAULT_CATALOG[table].length,
        });
      }
      expect(await db.selectFrom("heardHowOptions").select("id").execute()).toHaveLength(
        DEFAULT_HEARD_HOW.length,
      );
    });

    it("a session made on one works on the other, and a sign-out on one ends it on both", async () => {
      const cookie = await signIn(a, OWNER.username, OWNER.password);
      const onB = await call(b, "GET", "/api/auth/user", { cookie });
      expect(onB.status).toBe(200);
      expect(onB.body).toMatchObject({ username: OWNER.username, role: "OWNER" });
      const logout = await call(b, "GET", "/api/staff/logout", { cookie });
      expect(logout.status).toBe(302);
      expect((await call(a, "GET", "/api/auth/user", { cookie })).status).toBe(401);
    });

    it("6 quote e-mails make exactly 6 messages with both outbox workers running", async () => {
      const cookie = await signIn(a, OWNER.username, OWNER.password);
      const configure = async (app: AppProcess, port: number) => {
        const res = await call(app, "PUT", "/api/admin/settings", {
          cookie,
          body: mailSettingsFor(smtp, {
            port,
            fromEmail: "quotes@northside.test",
            fromName: "Northside Eyewear",
          }),
        });
        expect(res.status).toBe(200);
      };
      // The mail server is down while the quotes are sent: all six wait in the outbox.
      await configure(a, deadPort());
      const created = await call<CreatedClient>(b, "POST", "/api/clients", {
        cookie,
        body: { firstName: "Ana", lastName: "Ruiz", email: "ana@example.com" },
      });
      expect(created.status).toBe(201);
      const bundle = (await call<QuoteBundle>(a, "GET", `/api/quotes/${created.body.quote.id}`, {
        cookie,
      })).body;
      const saved = await call(b, "PUT", `/api/quotes/${bundle.quote.id}`, {
        cookie,
        body: {
          version: bundle.quote.version,
          opticianName: "Maria",
          options: [{
            id: bundle.options[0].id,
            label: "Everyday",
            items: [{ kind: "FRAME", name: "Ray-Ban", sku: "RB-1", unitPrice: "150.00", qty: 1 }],
          }],
        },
      });
      expect({ status: saved.status, body: saved.body }).toMatchObject({ status: 200 });
      const recipients = [1, 2, 3, 4, 5, 6].map((i) => `client${i}@example.com`);
      for (const [i, email] of recipients.entries()) {
        const res = await call(i % 2 ? b : a, "POST", `/api/quotes/${bundle.quote.id}/email`, {
          cookie,
          body: { email },
        });
        expect(res.status).toBe(202);
      }

      // It comes back, and the queue is due at once: both workers (polling
      // every 100 ms) now compete for the same six rows.
      await configure(b, smtp.port);
      await database.db.updateTable("emailOutbox").set({ nextAttemptAt: new Date() }).execute();
      await until("all six are sent", async () => {
        const rows = await database.db.selectFrom("emailOutbox").select("status").execute();
        return rows.length === 6 && rows.every((r) => r.status === "SENT");
      });
      // Give both workers two more full passes to send anything twice.
      const [passesA, passesB] = await Promise.all([workerPasses(a), workerPasses(b)]);
      await until(
        "both workers made two more passes",
        async () =>
          (await workerPasses(a)) >= passesA + 2 && (await workerPasses(b)) >= passesB + 2,
      );

      expect(smtp.received.map((m) => m.to.join(",")).sort()).toEqual(recipients);
      const rows = await database.db.selectFrom("emailOutbox")
        .select(["toAddress", "attempts", "messageId"]).execute();
      // At least one failed try while the server was down (a slow machine may reach the
      // 1-minute retry before the server is back), then exactly one successful send each.
      expect(rows.every((r) => r.attempts >= 2)).toBe(true);
      expect(new Set(rows.map((r) => r.messageId)).size).toBe(6);
    });

    // The counters live in PostgreSQL: per-process counters would each see
    // only 3 failures and let the 6th through.
    it("6 wrong passwords split between the two processes are throttled together", async () => {
      const user = await createTestUser(database.db, { username: "throttled.user" });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await call(i % 2 ? b : a, "POST", "/api/staff/login", {
          body: { username: user.username, password: "wrong password" },
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      // Both now refuse, the right password too, for most of the 15-minute window.
      for (const process of [b, a]) {
        const res = await call(process, "POST", "/api/staff/login", {
          body: { username: user.username, password: user.password },
        });
        expect(res.status).toBe(429);
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(800);
      }
    });
  },
);
