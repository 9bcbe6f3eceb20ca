import postgres from "postgres";
import { type DatabaseHandle, openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrate.ts";

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of its own for one test file: throwaway PGlite by default, or a
 * freshly created database on the server named by TEST_DATABASE_URL, dropped
 * afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = Deno.env.get("TEST_DATABASE_URL");
  if (!serverUrl) return { url: "memory://", drop: () => Promise.resolve() };
  const name = `lensdesk_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

export interface MigratedTestDatabase {
  url: string;
  handle: DatabaseHandle;
  /** Closes the handle and drops the database. */
  close(): Promise<void>;
}

/** A database of its own (createTestDatabase), opened in this process and migrated. */
export async function openMigratedTestDatabase(): Promise<MigratedTestDatabase> {
  const testDb = await createTestDatabase();
  const handle = await openDatabase(testDb.url, "/nonexistent");
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
