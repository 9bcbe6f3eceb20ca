// The stores, commands and readings the backup test files share.
import { after, before } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import { join } from "node:path";
import type { DatabaseHandle, DB } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrate.ts";
import { ensureFirstOwner } from "../../src/auth/owner_bootstrap.ts";
import { seedDemoStore } from "../../src/seed/demo_store.ts";
import { enqueueEmail } from "../../src/mail/outbox.ts";
import { createSession, generateSessionToken } from "../../src/auth/session.ts";
import { loadConfig } from "../../src/config/config.ts";
import { readManifest } from "../../src/assets/manifest.ts";
import { PdfPool } from "../../src/pdf/pdf_pool.ts";
import { createApp } from "../../routes/app.ts";
import { silentLogger } from "../../src/http/logger.ts";
import { createPersistentTestDatabase, type PersistentTestDatabase } from "../helpers/database.ts";
import { projectRoot } from "../helpers/process.ts";
import { END_MARK, sealBackup } from "../../src/backup/format.ts";

export const ON_SERVER = Boolean(Deno.env.get("TEST_DATABASE_URL"));
export const OWNER = { username: "olivia", password: "owner-pass-123", email: "olivia@store.test" };
export const UPLOAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 7]);

/** A run that outlives this is killed, so a hang fails the test instead of stalling the suite. */
export const TASK_KILL_MS = 180_000;

/** `deno task backup|restore …` as a store runs it. */
export async function task(env: Record<string, string>, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", ...args],
    cwd: projectRoot,
    env,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(TASK_KILL_MS),
  }).output();
  const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
  return { code: out.code, text };
}

/** `n` bytes that start like a PDF and do not compress, as a quote PDF's would not. */
export function pdfLikeBytes(n: number): Uint8Array {
  const bytes = new Uint8Array(n);
  for (let at = 0; at < n; at += 65_536) {
    crypto.getRandomValues(bytes.subarray(at, Math.min(n, at + 65_536)));
  }
  bytes.set([37, 80, 68, 70, 45, 49, 46, 55]); // %PDF-1.7
  return bytes;
}

/** Every row of every table of the schema (found in the catalog), in a stable order. */
export async function snapshot(db: DB): Promise<Record<string, string[]>> {
  const { rows: tables } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`.execute(db);
  const all: Record<string, string[]> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ r: string }>`SELECT t::text AS r FROM ${sql.table(name)} t`
      .execute(db);
    all[name] = rows.map((r) => r.r).sort();
  }
  const { rows: seqs } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'S' ORDER BY 1`.execute(db);
  for (const { name } of seqs) {
    const { rows } = await sql<{ r: string }>`SELECT last_value::text || ' ' || is_called AS r
      FROM ${sql.table(name)}`.execute(db);
    all[`sequence ${name}`] = rows.map((r) => r.r);
  }
  return all;
}

export async function withDatabase<T>(
  target: PersistentTestDatabase,
  fn: (h: DatabaseHandle) => Promise<T>,
): Promise<T> {
  const handle = await target.open();
  try {
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

export const METRICS_TOKEN = "metrics-token-for-backup-tests";

/** /readyz's backup part and the /metrics backup lines, from an app on `target`'s database. */
export async function backupReports(db: PersistentTestDatabase) {
  return await withDatabase(db, async (database) => {
    const config = await loadConfig({ ...db.env, LOG_REQUESTS: "0", METRICS_TOKEN });
    const app = createApp({
      db: database.db,
      config,
      manifest: await readManifest(),
      logger: silentLogger,
      pdf: new PdfPool(config.pdf),
    });
    const ready = await (await app.request("/readyz")).json() as {
      backup: {
        status: string;
        lastSuccess: { at: string; bytes: number; file: string; restoredAt?: string | null } | null;
        lastFailure: { at: string; error: string } | null;
      };
    };
    const metrics = await (await app.request("/metrics", {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    })).text();
    const gauge = (name: string) =>
      Number(metrics.split("\n").find((l) => l.startsWith(name + " "))?.split(" ")[1]);
    return {
      backup: ready.backup,
      lastSuccessBytes: gauge("lensdesk_backup_last_success_bytes"),
      lastFailureAt: gauge("lensdesk_backup_last_failure_timestamp_seconds"),
      ok: gauge("lensdesk_backup_ok"),
    };
  });
}

export const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/**
 * A snapshot without backup_runs: what a restore brings back. The restore adds
 * one row there itself (the backup it loaded, as the last good backup).
 */
export function storeData(all: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(all).filter(([name]) => !/^(sequence )?backup_runs(_id_seq)?$/.test(name)),
  );
}

/** The backup file with `change` applied, written beside it. */
export async function changedBackup(
  name: string,
  change: (text: string) => string,
): Promise<string> {
  const text = await Deno.readTextFile(file);
  const changed = change(text);
  expect(changed).not.toBe(text);
  const path = join(source.env.DATA_DIR, `${name}.sql`);
  await Deno.writeTextFile(path, changed);
  return path;
}

/** The backup file with its header edited, sealed again (a whole, unchanged-looking file). */
export const resealed = (name: string, edit: (content: string) => string) =>
  changedBackup(name, (text) => sealBackup(edit(text.slice(0, text.lastIndexOf(END_MARK)))));

/** Every name under `dir`, recursively. */
export async function listTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    out.push(entry.name);
    if (entry.isDirectory) {
      out.push(...(await listTree(join(dir, entry.name))).map((n) => `${entry.name}/${n}`));
    }
  }
  return out.sort();
}

export let source: PersistentTestDatabase;
export let target: PersistentTestDatabase;
export let file: string;
export let original: Record<string, string[]>;

/**
 * The two stores of a backup test file: `source`, a store in use, and
 * `target`, empty. With `restored`, `source` is backed up to `file` and
 * restored into `target` before the file's tests (what the first file's tests
 * do step by step).
 */
export function useBackupStores(options: { restored?: boolean } = {}): void {
  before(async () => {
    [source, target] = await Promise.all([
      createPersistentTestDatabase(),
      createPersistentTestDatabase(),
    ]);
    file = join(source.env.DATA_DIR, "store.sql");
    // A store in use: owner, staff, catalog, settings, clients, quotes, an
    // upload, a session and a queued e-mail with its attachment.
    original = await withDatabase(source, async ({ db }) => {
      await migrateToLatest(db);
      await ensureFirstOwner(db, OWNER);
      const seeded = await seedDemoStore(db);
      expect(seeded.status).toBe("seeded");
      await db.updateTable("settings").set({ storeName: "Northside Eyewear" }).execute();
      const owner = await db.selectFrom("users").select("id").where("username", "=", OWNER.username)
        .executeTakeFirstOrThrow();
      await db.insertInto("uploadedFiles").values({
        uploadTokenHash: "hash-of-a-used-token",
        purpose: "logo",
        maxBytes: 1024,
        expiresAt: new Date(Date.now() + 60_000),
        contentType: "image/png",
        byteSize: UPLOAD.length,
        data: UPLOAD,
        createdBy: owner.id,
        completedAt: new Date(),
      }).execute();
      await createSession(db, generateSessionToken(), owner.id);
      // E-mailed quotes: each e-mail keeps its PDF (tens of KB) in the outbox.
      // Rows that large once hung a driver's COPY stream.
      const quotes = await db.selectFrom("quotes").select(["id", "quoteNumber"]).limit(12)
        .execute();
      for (const [i, quote] of quotes.entries()) {
        const id = await enqueueEmail(db, {
          quoteId: quote.id,
          to: `client${i}@example.com`,
          subject: `Your quote ${quote.quoteNumber}`,
          html: `<p>Quote ${quote.quoteNumber}</p>`,
          text: `Quote ${quote.quoteNumber}`,
          attachmentName: `${quote.quoteNumber}.pdf`,
          attachment: pdfLikeBytes(20_000 + 6_000 * i),
          createdBy: owner.id,
        });
        await db.updateTable("emailOutbox").set({ status: "SENT", sentAt: new Date() })
          .where("id", "=", id).execute();
        await db.updateTable("quotes").set({ status: "EMAILED" }).where("id", "=", quote.id)
          .where("status", "!=", "CLOSED").execute();
      }
      await enqueueEmail(db, {
        quoteId: null,
        to: "client@example.com",
        subject: "Your quote",
        html: "<p>Hello</p>",
        text: "Hello",
        attachmentName: "quote.pdf",
        attachment: new Uint8Array([37, 80, 68, 70, 0, 1, 2]),
        createdBy: owner.id,
      });
      return await snapshot(db);
    });
    if (options.restored) {
      expect((await task(source.env, "backup", file)).code).toBe(0);
      expect((await task(target.env, "restore", file)).code).toBe(0);
    }
  });

  after(async () => {
    await Promise.all([source?.drop(), target?.drop()]);
  });
}
