import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import { join } from "node:path";
import type { DatabaseHandle, DB } from "../../src/db/database.ts";
import { migrateTo, migrateToLatest } from "../../src/db/migrate.ts";
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
import pg from "pg";
import { checkSeal, END_MARK, sealBackup } from "../../src/backup/format.ts";
import { runBackup } from "../../src/backup/write.ts";

const ON_SERVER = Boolean(Deno.env.get("TEST_DATABASE_URL"));
const OWNER = { username: "olivia", password: "owner-pass-123", email: "olivia@store.test" };
const UPLOAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 7]);

/** A run that outlives this is killed, so a hang fails the test instead of stalling the suite. */
const TASK_KILL_MS = 180_000;

/** `deno task backup|restore …` as a store runs it. */
async function task(env: Record<string, string>, ...args: string[]) {
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
function pdfLikeBytes(n: number): Uint8Array {
  const bytes = new Uint8Array(n);
  for (let at = 0; at < n; at += 65_536) {
    crypto.getRandomValues(bytes.subarray(at, Math.min(n, at + 65_536)));
  }
  bytes.set([37, 80, 68, 70, 45, 49, 46, 55]); // %PDF-1.7
  return bytes;
}

/** Every row of every table of the schema (found in the catalog), in a stable order. */
async function snapshot(db: DB): Promise<Record<string, string[]>> {
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

async function withDatabase<T>(
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

const METRICS_TOKEN = "metrics-token-for-backup-tests";

/** /readyz's backup part and the /metrics backup lines, from an app on `target`'s database. */
async function backupReports(db: PersistentTestDatabase) {
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

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/**
 * A snapshot without backup_runs: what a restore brings back. The restore adds
 * one row there itself (the backup it loaded, as the last good backup).
 */
function storeData(all: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(all).filter(([name]) => !/^(sequence )?backup_runs(_id_seq)?$/.test(name)),
  );
}

/** The backup file with `change` applied, written beside it. */
async function changedBackup(name: string, change: (text: string) => string): Promise<string> {
  const text = await Deno.readTextFile(file);
  const changed = change(text);
  expect(changed).not.toBe(text);
  const path = join(source.env.DATA_DIR, `${name}.sql`);
  await Deno.writeTextFile(path, changed);
  return path;
}

/** The backup file with its header edited, sealed again (a whole, unchanged-looking file). */
const resealed = (name: string, edit: (content: string) => string) =>
  changedBackup(name, (text) => sealBackup(edit(text.slice(0, text.lastIndexOf(END_MARK)))));

/** Every name under `dir`, recursively. */
async function listTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    out.push(entry.name);
    if (entry.isDirectory) {
      out.push(...(await listTree(join(dir, entry.name))).map((n) => `${entry.name}/${n}`));
    }
  }
  return out.sort();
}

let source: PersistentTestDatabase;
let target: PersistentTestDatabase;
let file: string;
let original: Record<string, string[]>;

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
});

after(async () => {
  await Promise.all([source?.drop(), target?.drop()]);
});

describe(`deno task backup / restore (${ON_SERVER ? "server" : "PGlite"})`, () => {
  it("writes a consistent snapshot of every table to FILE", async () => {
    const res = await task(source.env, "backup", file);
    expect(res.code).toBe(0);
    expect(res.text).toContain(`Backup written to ${file}`);
    const text = await Deno.readTextFile(file);
    expect(text).toMatch(/^-- Lensdesk backup\n-- format: 2\n-- engine: (server|embedded)\n/);
    // Sealed: the end marker with the checksum of everything before it.
    expect(text).toMatch(/\n-- Lensdesk backup end, sha256:[0-9a-f]{64}\n$/);
    expect(checkSeal(text).ok).toBe(true);
    expect(text).toContain("-- PostgreSQL database dump");
    // Only its owner may read it: it holds password hashes and client details.
    expect((await Deno.stat(file)).mode! & 0o777).toBe(0o600);
    // Every table of the schema, none hard-coded: the header lists them all.
    for (const table of Object.keys(original).filter((t) => !t.startsWith("sequence "))) {
      expect(text).toMatch(new RegExp(`^-- rows: .*\\b${table}=${original[table].length}\\b`, "m"));
    }
  });

  it("restores into an empty database: every row and sequence comes back", async () => {
    const res = await task(target.env, "restore", file);
    expect(res.code).toBe(0);
    expect(res.text).toMatch(/Restored the backup taken .* rows in \d+ tables/);
    const restored = await withDatabase(target, ({ db }) => snapshot(db));
    expect(storeData(restored)).toEqual(storeData(original));
    // And one more backup run: the backup it came from.
    expect(restored.backup_runs.length).toBe(original.backup_runs.length + 1);
    expect(restored.users.length).toBeGreaterThan(1);
    expect(restored.clients.length).toBeGreaterThan(0);
    expect(restored.quotes.length).toBeGreaterThan(0);
    expect(restored.uploaded_files).toHaveLength(1);
  });

  it("gives a working store: the owner signs in and finds the clients and quotes", async () => {
    await withDatabase(target, async (database) => {
      const config = await loadConfig({ ...target.env, LOG_REQUESTS: "0" });
      // No PDF is made here: the pool starts no renderer unless asked.
      const pdf = new PdfPool(config.pdf);
      const app = createApp({
        db: database.db,
        config,
        manifest: await readManifest(),
        logger: silentLogger,
        pdf,
      });
      const login = await app.request("/api/staff/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: OWNER.username, password: OWNER.password }),
      });
      expect(login.status).toBe(200);
      const cookie = login.headers.get("set-cookie")!.split(";")[0];
      const clients = await app.request("/api/clients", { headers: { cookie } });
      expect(clients.status).toBe(200);
      expect((await clients.json() as unknown[]).length).toBeGreaterThan(0);
      const quotes = await app.request("/api/quotes", { headers: { cookie } });
      expect(quotes.status).toBe(200);
      expect(Number(quotes.headers.get("x-total-count"))).toBe(original.quotes.length);
      const upload = await database.db.selectFrom("uploadedFiles").select("data")
        .executeTakeFirstOrThrow();
      expect(new Uint8Array(upload.data!)).toEqual(UPLOAD);
      const settings = await database.db.selectFrom("settings").select("storeName")
        .executeTakeFirstOrThrow();
      expect(settings.storeName).toBe("Northside Eyewear");
    });
  });

  it("refuses a database that is not empty unless --force, which replaces it", async () => {
    await withDatabase(target, async ({ db }) => {
      await db.deleteFrom("optionItems").execute();
      await db.updateTable("settings").set({ storeName: "Changed after the backup" }).execute();
    });
    const changed = await withDatabase(target, ({ db }) => snapshot(db));

    const refused = await task(target.env, "restore", file);
    expect(refused.code).toBe(1);
    expect(refused.text).toContain("This database is not empty");
    expect(refused.text).toContain("--force");
    expect(await withDatabase(target, ({ db }) => snapshot(db))).toEqual(changed);

    const forced = await task(target.env, "restore", file, "--force");
    expect(forced.code).toBe(0);
    expect(forced.text).toContain("replacing what was there");
    expect(storeData(await withDatabase(target, ({ db }) => snapshot(db)))).toEqual(
      storeData(original),
    );
  });

  it("refuses a file that is not a Lensdesk backup, changing nothing", async () => {
    const bogus = join(source.env.DATA_DIR, "bogus.sql");
    await Deno.writeTextFile(bogus, "DROP TABLE users;\n");
    const res = await task(target.env, "restore", bogus, "--force");
    expect(res.code).toBe(1);
    expect(res.text).toContain("not a Lensdesk backup");
    expect(storeData(await withDatabase(target, ({ db }) => snapshot(db)))).toEqual(
      storeData(original),
    );
  });

  it(
    "restores a server backup on PGlite and a PGlite backup on the server (same pg_dump script)",
    { skip: !ON_SERVER && "needs TEST_DATABASE_URL (this run is PGlite only)" },
    async () => {
      const embedded = await createPersistentTestDatabase("embedded");
      try {
        const toPglite = await task(embedded.env, "restore", file);
        expect(toPglite.code).toBe(0);
        expect(storeData(await withDatabase(embedded, ({ db }) => snapshot(db)))).toEqual(
          storeData(original),
        );

        const fromPglite = join(embedded.env.DATA_DIR, "from-pglite.sql");
        expect((await task(embedded.env, "backup", fromPglite)).code).toBe(0);
        expect(await Deno.readTextFile(fromPglite)).toMatch(
          /^-- Lensdesk backup\n-- format: 2\n-- engine: embedded/,
        );
        const toServer = await task(target.env, "restore", fromPglite, "--force");
        expect(toServer.code).toBe(0);
        expect(storeData(await withDatabase(target, ({ db }) => snapshot(db)))).toEqual(
          storeData(original),
        );
      } finally {
        await embedded.drop();
      }
    },
  );

  it("backs up a store with e-mailed quotes 20 times in a row, every file whole", async () => {
    // In this process, through the function the CLI and the nightly job run
    // (runBackup): the hang was postgres.js's, not the CLI's, and 20 CLI
    // starts would spend most of their time starting.
    const config = await loadConfig({ ...source.env, BACKUP_TIMEOUT_MS: "60000" });
    const failures: string[] = [];
    let good = 0;
    for (let run = 1; run <= 20 && failures.length < 3; run++) {
      const out = join(source.env.DATA_DIR, `run-${run}.sql`);
      const result = await runBackup(config, { file: out, nightly: false });
      if (!result.ok) failures.push(`run ${run}: ${result.error}`);
      else if (!checkSeal(await Deno.readTextFile(out)).ok) failures.push(`run ${run}: damaged`);
      else good++;
      await Deno.remove(out).catch(() => {});
    }
    expect(failures).toEqual([]);
    expect(good).toBe(20);
  });

  it("gives up at BACKUP_TIMEOUT_MS with one line and exit 1, writing nothing, and says so on /readyz, /metrics and --check", async () => {
    const out = join(source.env.DATA_DIR, "stuck.sql");
    let res;
    if (ON_SERVER) {
      // A lock held elsewhere keeps the snapshot's read waiting, as the COPY hang did.
      const held = new pg.Client({ connectionString: source.env.DATABASE_URL });
      await held.connect();
      try {
        await held.query("BEGIN");
        await held.query("LOCK TABLE clients IN ACCESS EXCLUSIVE MODE");
        res = await task({ ...source.env, BACKUP_TIMEOUT_MS: "1500" }, "backup", out);
      } finally {
        await held.query("ROLLBACK");
        await held.end();
      }
    } else {
      // PGlite cannot be made to wait by another process (it has one); its
      // pg_dump takes longer than this.
      res = await task({ ...source.env, BACKUP_TIMEOUT_MS: "100" }, "backup", out);
    }
    expect(res.code).toBe(1);
    const limit = ON_SERVER ? "1.5 s" : "100 ms";
    expect(res.text.trim()).toBe(
      `Backup failed: the backup did not finish within ${limit} (BACKUP_TIMEOUT_MS); ` +
        "nothing was written",
    );
    expect(await exists(out)).toBe(false);
    expect(await exists(`${out}.partial`)).toBe(false);

    const failed = await backupReports(source);
    expect(failed.backup.status).toBe("failed");
    expect(failed.backup.lastFailure!.error).toContain(`did not finish within ${limit}`);
    expect(failed.lastFailureAt).toBe(
      Math.floor(Date.parse(failed.backup.lastFailure!.at) / 1000),
    );
    expect(failed.ok).toBe(0);
    const check = await task(source.env, "backup", "--check");
    expect(check.code).toBe(1);
    expect(check.text).toMatch(/^The last backup failed at .*did not finish within/);

    // The next good backup clears it.
    const good = join(source.env.DATA_DIR, "good.sql");
    expect((await task(source.env, "backup", good)).code).toBe(0);
    const size = (await Deno.stat(good)).size;
    const ok = await backupReports(source);
    expect(ok.backup).toMatchObject({ status: "ok", lastSuccess: { bytes: size, file: good } });
    expect(ok.lastSuccessBytes).toBe(size);
    expect(ok.ok).toBe(1);
    const fine = await task(source.env, "backup", "--check");
    expect(fine.code).toBe(0);
    expect(fine.text.trim()).toBe(
      `Backups OK: last good backup ${ok.backup.lastSuccess!.at} (${size} bytes).`,
    );
  });

  describe("restore refuses a damaged file, leaving the target exactly as it was", () => {
    const damaged = changedBackup;

    async function expectRefused(path: string, message: string) {
      const before = await withDatabase(target, ({ db }) => snapshot(db));
      expect(storeData(before)).toEqual(storeData(original));
      const res = await task(target.env, "restore", path, "--force");
      expect(res.code).toBe(1);
      expect(res.text.trim()).toBe(message);
      expect(await withDatabase(target, ({ db }) => snapshot(db))).toEqual(before);
    }

    it("a file cut short between two statements", async () => {
      const path = await damaged("truncated", (text) => {
        // Cut after the data, before the keys, indexes and triggers.
        const cut = text.indexOf("\nALTER TABLE ONLY");
        expect(cut).toBeGreaterThan(0);
        return text.slice(0, cut + 1);
      });
      await expectRefused(
        path,
        "This backup is incomplete: its end marker is missing (the file was cut short while " +
          "being written or copied). Nothing was changed.",
      );
    });

    it("a file with one value edited (a catalog price)", async () => {
      const path = await damaged("edited", (text) => {
        const m = /^(INSERT INTO public\.lens_types VALUES \('[^']*', '[^']*', )(\d+)\.\d\d, /m
          .exec(text);
        expect(m).not.toBeNull();
        const at = m!.index + m![1].length;
        return text.slice(0, at) + `${Number(m![2]) + 1}` + text.slice(at + m![2].length);
      });
      await expectRefused(
        path,
        "This backup is damaged: its content does not match its checksum (it was changed or " +
          "corrupted after it was written). Nothing was changed.",
      );
    });

    it("a whole file missing its end marker", async () => {
      const path = await damaged("no-end", (text) => {
        const end = text.lastIndexOf(END_MARK);
        expect(end).toBeGreaterThan(0);
        return text.slice(0, end);
      });
      await expectRefused(
        path,
        "This backup is incomplete: its end marker is missing (the file was cut short while " +
          "being written or copied). Nothing was changed.",
      );
    });

    it("a sealed file whose rows differ from its header's counts (checked before the commit)", async () => {
      const path = await damaged("miscounted", (text) => {
        const content = text.slice(0, text.lastIndexOf(END_MARK));
        const rows = original.clients.length;
        return sealBackup(content.replace(/^(-- rows: .*\bclients=)(\d+)/m, `$1${rows + 1}`));
      });
      await expectRefused(
        path,
        `This backup does not hold what its header says: table clients has ${original.clients.length} ` +
          `rows, the header says ${original.clients.length + 1}. Nothing was changed.`,
      );
    });

    it("a file made before backups were sealed, unless --unverified", async () => {
      const path = await damaged(
        "unsealed",
        (text) => text.slice(0, text.lastIndexOf(END_MARK)).replace(/^-- format: \d+\n/m, ""),
      );
      await expectRefused(
        path,
        "This backup was made before backups carried a checksum, so it cannot be checked for " +
          "damage; rerun with --unverified to restore it anyway (its row counts are still " +
          "checked). Nothing was changed.",
      );
      const res = await task(target.env, "restore", path, "--force", "--unverified");
      expect(res.code).toBe(0);
      expect(storeData(await withDatabase(target, ({ db }) => snapshot(db)))).toEqual(
        storeData(original),
      );
    });
  });

  it("a refused restore into a DATA_DIR that did not exist leaves nothing behind", async () => {
    const parent = await Deno.makeTempDir({ prefix: "lensdesk-restore-" });
    try {
      // A folder inside a folder, neither there yet.
      const dataDir = join(parent, "store", "data");
      // On the server the database is the target's (not empty); DATA_DIR only holds the key.
      const env = { ...target.env, DATA_DIR: dataDir };
      const bogus = join(source.env.DATA_DIR, "not-a-backup.sql");
      await Deno.writeTextFile(bogus, "DROP TABLE users;\n");
      const refusals: [string, string[], string][] = [
        ["not a backup", [bogus, "--force"], "not a Lensdesk backup"],
        [
          "damaged",
          [
            await changedBackup("damaged-2", (t) => t.replace("Northside Eyewear", "Southside")),
            "--force",
          ],
          "This backup is damaged",
        ],
        [
          "cut short",
          [
            await changedBackup("cut-2", (t) => t.slice(0, t.indexOf("\nALTER TABLE ONLY") + 1)),
            "--force",
          ],
          "This backup is incomplete",
        ],
        [
          "newer release",
          [
            await resealed(
              "newer",
              (c) => c.replace(/^(-- migrations: .*)$/m, "$1 9999_from_the_future"),
            ),
            "--force",
          ],
          "This backup comes from a newer Lensdesk release (migrations 9999_from_the_future)",
        ],
        [
          "rows unlike its header (found while loading)",
          [
            await resealed(
              "miscounted-2",
              (c) =>
                c.replace(/^(-- rows: .*\bclients=)(\d+)/m, (_, a, n) => `${a}${Number(n) + 1}`),
            ),
            "--force",
          ],
          "This backup does not hold what its header says",
        ],
        ...(ON_SERVER
          ? [["not empty, no --force", [file], "This database is not empty"] as [
            string,
            string[],
            string,
          ]]
          : []),
      ];
      for (const [what, args, message] of refusals) {
        const res = await task(env, "restore", ...args);
        expect({ what, code: res.code, text: res.text }).toMatchObject({
          what,
          code: 1,
          text: expect.stringContaining(message),
        });
        expect(res.text.trim().split("\n")).toHaveLength(1);
        expect({ what, left: await listTree(parent) }).toEqual({ what, left: [] });
      }
      // DATA_DIR there but empty: a refusal found while loading leaves it empty.
      await Deno.mkdir(dataDir, { recursive: true });
      const [, miscounted, message] = refusals[4];
      const res = await task(env, "restore", ...miscounted);
      expect(res.code).toBe(1);
      expect(res.text).toContain(message);
      expect(await listTree(parent)).toEqual(["store", "store/data"]);
      await Deno.remove(join(parent, "store"), { recursive: true });
      // A restore that goes through makes the folder (and on PGlite the database in it).
      const done = await task(env, "restore", file, "--force");
      expect(done.code).toBe(0);
      expect(await exists(dataDir)).toBe(!ON_SERVER);
    } finally {
      await Deno.remove(parent, { recursive: true });
    }
  });

  describe("a restored store knows the backup it came from", () => {
    const taken = async (path: string) =>
      /^-- taken: (.*)$/m.exec(await Deno.readTextFile(path))![1];

    it("as its last good backup: --check passes and names the file, /readyz and /metrics agree", async () => {
      const fresh = await createPersistentTestDatabase();
      try {
        const res = await task(fresh.env, "restore", file);
        expect(res.code).toBe(0);
        const size = (await Deno.stat(file)).size;
        const at = await taken(file);
        const reports = await backupReports(fresh);
        expect(reports.backup).toMatchObject({
          status: "ok",
          lastSuccess: { at, bytes: size, file, restoredAt: expect.any(String) },
        });
        expect(reports.lastSuccessBytes).toBe(size);
        expect(reports.ok).toBe(1);
        const check = await task(fresh.env, "backup", "--check");
        expect({ code: check.code, text: check.text.trim() }).toEqual({
          code: 0,
          text: `Backups OK: last good backup ${at} (${size} bytes), which this store was ` +
            `restored from (${file}) at ${reports.backup.lastSuccess!.restoredAt}.`,
        });
        // The next backup is the last good one from then on.
        const next = join(fresh.env.DATA_DIR, "next.sql");
        expect((await task(fresh.env, "backup", next)).code).toBe(0);
        expect((await backupReports(fresh)).backup.lastSuccess).toMatchObject({
          file: next,
          restoredAt: null,
        });
      } finally {
        await fresh.drop();
      }
    });

    it("from a release before restored_at (migration 0031): recorded as the last good backup all the same", async () => {
      // A store of that release: its schema as the migrations up to 0030 left it,
      // backed up by this release's backup (which keeps the schema it finds).
      const older = await createPersistentTestDatabase();
      const fresh = await createPersistentTestDatabase();
      try {
        const handle = await older.open();
        try {
          await migrateTo(handle.db, "0030_shared_rate_limits");
        } finally {
          await handle.close();
        }
        const path = join(older.env.DATA_DIR, "before-0031.sql");
        expect((await task(older.env, "backup", path)).code).toBe(0);
        const content = await Deno.readTextFile(path);
        expect(content).toContain("0030_shared_rate_limits");
        expect(content).not.toContain("0031_backup_runs_restored_at");
        expect(content).not.toContain("INSERT INTO public.backup_runs");

        const res = await task(fresh.env, "restore", path);
        expect(res.code).toBe(0);
        const at = await taken(path);
        const size = (await Deno.stat(path)).size;
        const expected = `Backups OK: last good backup ${at} (${size} bytes).`;
        // Read before the app's start migrates it, and after.
        const before = await task(fresh.env, "backup", "--check");
        expect({ code: before.code, text: before.text.trim() }).toEqual({
          code: 0,
          text: expected,
        });
        expect((await task(fresh.env, "migrate")).code).toBe(0);
        const after = await task(fresh.env, "backup", "--check");
        expect({ code: after.code, text: after.text.trim() }).toEqual({ code: 0, text: expected });
      } finally {
        await fresh.drop();
        await older.drop();
      }
    });

    it("taken more than 26 hours ago: --check says overdue and fails", async () => {
      const old = new Date(Date.now() - 27 * 3_600_000).toISOString();
      const path = await resealed("old", (c) => c.replace(/^-- taken: .*$/m, `-- taken: ${old}`));
      const fresh = await createPersistentTestDatabase();
      try {
        expect((await task(fresh.env, "restore", path)).code).toBe(0);
        const check = await task(fresh.env, "backup", "--check");
        expect(check.code).toBe(1);
        expect(check.text.trim()).toMatch(
          new RegExp(`^Backups overdue: last good backup ${old.replace(/\./g, "\\.")} `),
        );
        expect((await backupReports(fresh)).backup.status).toBe("stale");
      } finally {
        await fresh.drop();
      }
    });
  });
});
