import {
  CamelCasePlugin,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PGliteDialect,
  type QueryCompiler,
  type TransactionSettings,
} from "kysely";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres from "postgres";
import { join } from "node:path";
import type { Database } from "../../db/schema.ts";
import { ensurePrivateDir, restrictTree } from "../config/private_files.ts";

export type DB = Kysely<Database>;

/** How many connections Kysely holds and waits for right now (for /metrics). */
export interface PoolStats {
  inUse: number;
  waiting: number;
  max: number;
}

/** The engine's own client, for what Kysely cannot do: COPY, pg_dump, multi-statement scripts. */
export type RawClient =
  | { engine: "postgres"; sql: postgres.Sql }
  | { engine: "pglite"; pglite: PGlite };

export interface DatabaseHandle {
  db: DB;
  /** "server" for a PostgreSQL server, "embedded" for PGlite on disk, "memory" for throwaway PGlite. */
  kind: "server" | "embedded" | "memory";
  pool: PoolStats;
  raw: RawClient;
  close(): Promise<void>;
}

/** Connections of one app process to a PostgreSQL server. */
const POOL_MAX = 10;

/**
 * One entry point for both engines: the same Kysely instance type, the same
 * migrations and the same queries run on a PostgreSQL server and on PGlite.
 */
export async function openDatabase(
  databaseUrl: string | undefined,
  dataDir: string,
): Promise<DatabaseHandle> {
  const plugins = [new CamelCasePlugin()];
  if (databaseUrl && databaseUrl !== "memory://") {
    const client = postgres(databaseUrl, {
      max: POOL_MAX,
      onnotice: () => {},
      // Dates stay Date objects; NUMERIC stays a string (postgres.js default).
      connection: { application_name: "lensdesk" },
    });
    const pool: PoolStats = { inUse: 0, waiting: 0, max: POOL_MAX };
    const db = new Kysely<Database>({
      dialect: countingDialect(new PostgresJSDialect({ postgres: client }), pool),
      plugins,
    });
    return {
      db,
      kind: "server",
      pool,
      raw: { engine: "postgres", sql: client },
      async close() {
        await db.destroy();
        // Kysely ends the client only when it ran a query; a backup uses the client alone.
        await client.end();
      },
    };
  }
  const extensions = pgliteExtensions;
  let pg: PGlite;
  let kind: DatabaseHandle["kind"];
  let unlock = () => {};
  if (databaseUrl === "memory://") {
    pg = new PGlite({ extensions });
    kind = "memory";
  } else {
    const dir = join(dataDir, "pgdata");
    await ensurePrivateDir(dataDir);
    await ensurePrivateDir(dir);
    unlock = await lockDataDir(dataDir);
    pg = new PGlite(dir, { extensions });
    kind = "embedded";
  }
  await pg.waitReady;
  // initdb's files (and a few remade at each start) come out 0666/0644.
  if (kind === "embedded") await restrictTree(join(dataDir, "pgdata"));
  // PGlite is one connection: Kysely's driver queues every query behind a mutex.
  const pool: PoolStats = { inUse: 0, waiting: 0, max: 1 };
  const db = new Kysely<Database>({
    dialect: countingDialect(new PGliteDialect({ pglite: pg }), pool),
    plugins,
  });
  return {
    db,
    kind,
    pool,
    raw: { engine: "pglite", pglite: pg },
    async close() {
      await db.destroy();
      if (!pg.closed) await pg.close();
      unlock();
    },
  };
}

/**
 * PGlite ships contrib extensions as bundles it loads on request; pg_trgm
 * backs the trigram indexes that serve "contains" search (migration 0007
 * creates the extension, as it does on a server). Every PGlite the app opens
 * (the store's, and the backup's scratch copy) needs the same set.
 */
export const pgliteExtensions = { pg_trgm };

/**
 * PGlite is PostgreSQL in this process: a second process opening the same
 * directory (a second `deno task start`, or a backup while the app runs)
 * would write the same files without any coordination and corrupt them. An
 * exclusive lock on a file beside the data refuses that; the OS drops it when
 * the process ends, however it ends, so it never goes stale.
 */
async function lockDataDir(dataDir: string): Promise<() => void> {
  // 0600 like every other file in DATA_DIR: the directory is private.
  const file = await Deno.open(join(dataDir, "pgdata.lock"), {
    create: true,
    write: true,
    mode: 0o600,
  });
  if (!await file.tryLock(true)) {
    file.close();
    throw new Error(
      `The embedded database in ${dataDir} is in use by another Lensdesk process. ` +
        "Stop it first (PGlite allows one process at a time), or use a PostgreSQL server " +
        "(DATABASE_URL) to run several.",
    );
  }
  return () => file.close();
}

/** Wraps a dialect so its driver counts the connections taken and waited for. */
function countingDialect(inner: Dialect, pool: PoolStats): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: () => new CountingDriver(inner.createDriver(), pool),
  };
}

class CountingDriver implements Driver {
  constructor(private readonly inner: Driver, private readonly pool: PoolStats) {}

  init() {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.pool.waiting++;
    try {
      const connection = await this.inner.acquireConnection();
      this.pool.inUse++;
      return connection;
    } finally {
      this.pool.waiting--;
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.releaseConnection(connection);
    } finally {
      this.pool.inUse--;
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection) {
    return this.inner.rollbackTransaction(connection);
  }

  savepoint(c: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) {
    return this.inner.savepoint!(c, name, compile);
  }

  rollbackToSavepoint(c: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) {
    return this.inner.rollbackToSavepoint!(c, name, compile);
  }

  releaseSavepoint(c: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) {
    return this.inner.releaseSavepoint!(c, name, compile);
  }

  destroy() {
    return this.inner.destroy();
  }
}
