// deno task backup and restore, as a store runs them: a backup of a store in use,
// restored whole; a backup given up on at its time limit.
import { describe, it } from "node:test";
import { expect } from "expect";
import { join } from "node:path";
import { loadConfig } from "../../src/config/config.ts";
import { createPersistentTestDatabase } from "../helpers/database.ts";
import pg from "pg";
import { sql as rawSql } from "kysely";
import { checkSeal } from "../../src/backup/format.ts";
import { runBackup } from "../../src/backup/write.ts";
import { createApp } from "../../routes/app.ts";
import { readManifest } from "../../src/assets/manifest.ts";
import { PdfPool } from "../../src/pdf/pdf_pool.ts";
import { silentLogger } from "../../src/http/logger.ts";
import {
  backupReports,
  exists,
  file,
  ON_SERVER,
  original,
  OWNER,
  snapshot,
  source,
  storeData,
  target,
  task,
  UPLOAD,
  useBackupStores,
  withDatabase,
} from "./backup_fixture.ts";

useBackupStores();

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
      // The demo is a chain of two stores: the owner lists every store's quotes.
      const quotes = await app.request("/api/quotes?store=all", { headers: { cookie } });
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

  it("backs up a store with e-mailed quotes 3 times in a row, every file whole", async () => {
    // In this process, through the function the CLI and the nightly job run
    // (runBackup), one connection after another: large outbox rows once hung
    // a driver's stream mid-backup; on a server each backup after the first
    // also starts from the process's kept migrated scratch copy.
    const RUNS = 3;
    const config = await loadConfig({ ...source.env, BACKUP_TIMEOUT_MS: "60000" });
    const failures: string[] = [];
    let good = 0;
    for (let run = 1; run <= RUNS && failures.length < 3; run++) {
      const out = join(source.env.DATA_DIR, `run-${run}.sql`);
      const result = await runBackup(config, { file: out, nightly: false });
      if (!result.ok) failures.push(`run ${run}: ${result.error}`);
      else if (!checkSeal(await Deno.readTextFile(out)).ok) failures.push(`run ${run}: damaged`);
      else good++;
      await Deno.remove(out).catch(() => {});
    }
    expect(failures).toEqual([]);
    expect(good).toBe(RUNS);
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
      // PGlite cannot be made to wait by another process (it has one): a
      // table of ballast makes its pg_dump take longer than the shortest
      // limit (100 ms) on any machine, and goes once the backup has given up.
      const ballast = (sql: string) =>
        withDatabase(source, ({ db }) => rawSql.raw(sql).execute(db).then(() => undefined));
      await ballast(
        "CREATE TABLE backup_ballast AS SELECT g, md5(g::text) AS h FROM generate_series(1, 100000) g",
      );
      try {
        res = await task({ ...source.env, BACKUP_TIMEOUT_MS: "100" }, "backup", out);
      } finally {
        await ballast("DROP TABLE backup_ballast");
      }
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
});
