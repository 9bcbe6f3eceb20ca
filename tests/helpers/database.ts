import pg from "pg";
import { type DatabaseHandle, openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrate.ts";
import { dataDirOf, scratchPglite } from "../../src/db/pglite_base.ts";
import { join } from "node:path";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { waitUntil } from "./wait.ts";

/** Whether this run's databases are on a PostgreSQL server (TEST_DATABASE_URL), else PGlite. */
export const ON_SERVER = Boolean(Deno.env.get("TEST_DATABASE_URL"));

/**
 * The `skip` of a file whose subject does not change with the engine (the PDF
 * pool's limits, the bench's quick run): it runs once, in CI's server run, not
 * again on PGlite, to keep CI within its 20 minutes. Locally, set
 * TEST_DATABASE_URL to run it.
 */
export const ONCE_ON_SERVER: false | string = ON_SERVER
  ? false
  : "runs once, with TEST_DATABASE_URL: its subject does not change with the engine";

/** One connection to the server as the test suite's administrator, for `work` alone. */
async function withAdmin<T>(serverUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  admin.on("error", () => {});
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of its own for one test file: throwaway PGlite by default, or a
 * freshly created database on the server named by TEST_DATABASE_URL, dropped
 * afterwards.
 */
export async function createTestDatabase(
  options: { template?: string } = {},
): Promise<TestDatabase> {
  const serverUrl = Deno.env.get("TEST_DATABASE_URL");
  if (!serverUrl) return { url: "memory://", drop: () => Promise.resolve() };
  const name = `lensdesk_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await withAdmin(
    serverUrl,
    (admin) =>
      admin.query(
        `CREATE DATABASE ${name}${options.template ? ` TEMPLATE ${options.template}` : ""}`,
      ),
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await withAdmin(
        serverUrl,
        (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  };
}

/**
 * A migrated database of its own for a child process: a copy of the server's
 * migrated template (TEST_DATABASE_URL), else `memory://`, which the process
 * makes itself (PGlite's initdb and every migration, ~6 s of CPU).
 */
export async function createMigratedTestDatabase(): Promise<TestDatabase> {
  const serverUrl = Deno.env.get("TEST_DATABASE_URL");
  return serverUrl ? await createMigratedServerDatabase(serverUrl) : await createTestDatabase();
}

export interface MigratedTestDatabase {
  url: string;
  handle: DatabaseHandle;
  /** Closes the handle and drops the database. */
  close(): Promise<void>;
}

/** A database of its own (createTestDatabase), opened in this process and migrated. */
export async function openMigratedTestDatabase(): Promise<MigratedTestDatabase> {
  const testDb = await createMigratedTestDatabase();
  const handle = testDb.url === "memory://"
    ? await openMigratedPglite()
    : await openDatabase(testDb.url, "/nonexistent");
  // Nothing to migrate (the snapshot or the template is migrated), but it is
  // the handle's first statement: Kysely starts its driver on the first one
  // and a destroy before it ends nothing (ops_test's "database down" needs a
  // handle that was in use, as every app's is).
  await migrateToLatest(handle.db);
  return {
    url: testDb.url,
    handle,
    async close() {
      await handle.close();
      await testDb.drop();
    },
  };
}

export interface PersistentTestDatabase {
  /** DATABASE_URL/DATA_DIR for a child process (a CLI or main.ts) on this database. */
  env: Record<string, string>;
  engine: "server" | "embedded";
  open(): Promise<DatabaseHandle>;
  drop(): Promise<void>;
}

/**
 * A database that outlives the process using it, for tests that hand it to
 * child processes: a fresh database on the TEST_DATABASE_URL server, or else
 * PGlite in a temporary DATA_DIR (memory:// would vanish with its process).
 */
export async function createPersistentTestDatabase(
  engine: "server" | "embedded" = Deno.env.get("TEST_DATABASE_URL") ? "server" : "embedded",
): Promise<PersistentTestDatabase> {
  const dataDir = await Deno.makeTempDir({ prefix: "lensdesk-test-" });
  const server = engine === "server" ? await createTestDatabase() : undefined;
  if (!server) await seedEmptyCluster(dataDir);
  // An empty DATABASE_URL is "unset" for loadConfig, whatever the parent had.
  const databaseUrl = server?.url ?? "";
  return {
    env: { DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
    engine,
    open: () => openDatabase(databaseUrl || undefined, dataDir),
    async drop() {
      await server?.drop();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

/*
 * A throwaway PGlite starts from a migrated data directory kept in the temp
 * directory, not from initdb and every migration: PGlite's initdb alone is
 * 2-4 s of CPU a test file, the load 0.6 s (the PGlite run starts ~80 such
 * databases). The first test file to need it makes it (and still migrates
 * it the ordinary way); the name holds a hash of the migrations and the lock
 * file, so a change to either makes a new one. A file that cannot be loaded
 * is removed and the database made the ordinary way. The backup's scratch
 * copy of a server keeps one the same way, in memory (src/db/pglite_base.ts).
 */
const root = new URL("../../", import.meta.url).pathname;
const SNAPSHOT_PREFIX = "lensdesk-test-pglite-";
/** The test databases' shared_buffers (part of the snapshot's name: a change makes a new one). */
const TEST_SHARED_BUFFERS = "16MB";

/** A hash of the migrations, the lock file and the test settings: what a kept migrated database was made from. */
async function migrationsHash(): Promise<string> {
  const parts: Uint8Array[] = [
    await Deno.readFile(join(root, "deno.lock")),
    new TextEncoder().encode(TEST_SHARED_BUFFERS),
  ];
  const dir = join(root, "db", "migrations");
  const names = [];
  for await (const entry of Deno.readDir(dir)) if (entry.isFile) names.push(entry.name);
  for (const name of names.sort()) {
    parts.push(new TextEncoder().encode(name), await Deno.readFile(join(dir, name)));
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) all.set(p, (at += p.length) - p.length);
  return encodeHexLowerCase(new Uint8Array(await crypto.subtle.digest("SHA-256", all)))
    .slice(0, 16);
}

async function snapshotPath(): Promise<string> {
  return join(Deno.env.get("TMPDIR") ?? "/tmp", `${SNAPSHOT_PREFIX}${await migrationsHash()}.tar`);
}

/*
 * The same for the server: a test database is a copy of a migrated template
 * database (CREATE DATABASE … TEMPLATE, 0.1-0.2 s) instead of an empty one
 * migrated (1.5-1.9 s; the server run starts ~80). The template, named by the
 * hash above, is made by the first test file to need it (migrated the
 * ordinary way, under a different name renamed at the end, so a half-made one
 * is never copied) while an advisory lock keeps other files waiting; it stays
 * on the server for later runs, and a new one drops the older ones nobody is
 * copying.
 */
const TEMPLATE_PREFIX = "lensdesk_test_template_";

async function createMigratedServerDatabase(serverUrl: string): Promise<TestDatabase> {
  const template = `${TEMPLATE_PREFIX}${await migrationsHash()}`;
  try {
    return await createTestDatabase({ template });
  } catch (err) {
    // 3D000: no such database yet (or another branch's run dropped it): make it, then copy it.
    if ((err as { code?: string }).code !== "3D000") throw err;
  }
  await makeServerTemplate(serverUrl, template);
  return await createTestDatabase({ template });
}

async function makeServerTemplate(serverUrl: string, template: string): Promise<void> {
  // One connection: the session's advisory lock and what it guards share it.
  await withAdmin(serverUrl, async (admin) => {
    // One test file makes the template; the others wait here, then find it made.
    await admin.query(`SELECT pg_advisory_lock(hashtext('lensdesk test template'))`);
    try {
      const found = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [template]);
      if (found.rows.length) return;
      const making = `${template}_${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;
      await admin.query(`CREATE DATABASE ${making}`);
      const url = new URL(serverUrl);
      url.pathname = `/${making}`;
      const handle = await openDatabase(url.toString(), "/nonexistent");
      try {
        await migrateToLatest(handle.db);
      } finally {
        await handle.close();
      }
      // Renamed once the server has let go of the migrating connection.
      await waitUntil(
        () =>
          admin.query(`ALTER DATABASE ${making} RENAME TO ${template}`).then(() => true, (err) => {
            if (err?.code === "55006") return false; // still being accessed
            throw err;
          }),
        `the migrated ${making} was renamed ${template}`,
      );
      const stale = await admin.query<{ name: string }>(
        `SELECT datname AS name FROM pg_database WHERE datname LIKE $1 AND datname <> $2`,
        [TEMPLATE_PREFIX + "%", template],
      );
      // Not WITH (FORCE): one that another checkout's run is copying now stays.
      for (const { name } of stale.rows) {
        await admin.query(`DROP DATABASE ${name}`).catch(() => {});
      }
    } finally {
      await admin.query(`SELECT pg_advisory_unlock(hashtext('lensdesk test template'))`)
        .catch(() => {});
    }
  });
}

/*
 * A PGlite DATA_DIR starts as an empty cluster, as PGlite's initdb leaves it,
 * unpacked from a copy kept beside the migrated snapshot: initdb is 4-5 s of
 * CPU in each child process that finds an empty folder, and the backup tests
 * hand a dozen such stores to `deno task restore`. Nothing is migrated (a
 * restore, the app's start or a test's own migrations do that); the real
 * initdb of an empty folder stays covered by the tests that start from one
 * (first_start, data_dir, the refused restore into a folder that did not exist).
 */
export async function seedEmptyCluster(dataDir: string): Promise<void> {
  const prefix = "lensdesk-test-initdb-";
  const path = join(Deno.env.get("TMPDIR") ?? "/tmp", `${prefix}${await migrationsHash()}.tar`);
  if (!(await Deno.stat(path).then(() => true, () => false))) {
    const pg = await scratchPglite();
    try {
      await keepSnapshot(path, prefix, await dataDirOf(pg, "none"));
    } finally {
      await pg.close();
    }
  }
  // Where openEmbedded keeps the cluster, 0700 as it makes it.
  const pgdata = join(dataDir, "pgdata");
  await Deno.mkdir(pgdata, { mode: 0o700 });
  const untar = await new Deno.Command("tar", {
    args: ["-xf", path, "-C", pgdata],
    stderr: "piped",
  }).output();
  if (!untar.success) {
    throw new Error(`tar could not unpack ${path}: ${new TextDecoder().decode(untar.stderr)}`);
  }
}

async function openMigratedPglite(): Promise<DatabaseHandle> {
  const path = await snapshotPath();
  const kept = await Deno.readFile(path).catch(() => null);
  if (kept) {
    try {
      return await openDatabase("memory://", "/nonexistent", { loadDataDir: new Blob([kept]) });
    } catch {
      await Deno.remove(path).catch(() => {});
    }
  }
  const handle = await openDatabase("memory://", "/nonexistent");
  await migrateToLatest(handle.db);
  if (handle.raw.engine === "pglite") {
    // Each start of a PGlite zeroes its shared memory: shared_buffers' 128 MB
    // default was a third of a test database's start (0.5 s of CPU of ~1.6 s,
    // and the PGlite run starts ~100). A test database holds a few hundred
    // rows; the planner does not read shared_buffers, so the plan tests plan alike.
    await handle.raw.pglite.exec(`ALTER SYSTEM SET shared_buffers = '${TEST_SHARED_BUFFERS}'`);
    await keepSnapshot(path, SNAPSHOT_PREFIX, await dataDirOf(handle.raw.pglite, "none"));
  }
  return handle;
}

/**
 * Writes a kept data directory to `path`, aside and renamed (test files
 * starting at once never read half a file), and removes the older ones named
 * `prefix`…: those of earlier migrations are of no more use.
 */
async function keepSnapshot(path: string, prefix: string, dataDir: Blob): Promise<void> {
  const temp = `${path}.${crypto.randomUUID()}`;
  await Deno.writeFile(temp, new Uint8Array(await dataDir.arrayBuffer()));
  await Deno.rename(temp, path);
  const tmp = join(path, "..");
  for await (const entry of Deno.readDir(tmp)) {
    const other = join(tmp, entry.name);
    if (entry.name.startsWith(prefix) && entry.name.endsWith(".tar") && other !== path) {
      await Deno.remove(other).catch(() => {});
    }
  }
}
