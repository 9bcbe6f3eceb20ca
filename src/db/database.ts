import {
  CamelCasePlugin,
  type CompiledQuery,
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
import { ConnectionWrites, TableWrites } from "./table_writes.ts";
import { ensurePrivateDir, restrictTree } from "../config/private_files.ts";
import { releasingResults } from "./released_results.ts";

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
  /** What this process and, on a server, every other process wrote (see table_writes.ts). */
  writes: TableWrites;
  close(): Promise<void>;
}

const writesOf = new WeakMap<DB, TableWrites>();
const genericPlansOf = new WeakMap<DB, DB>();
const customPlansOf = new WeakMap<DB, DB>();

/**
 * Where a statement built to have one good plan for every value runs: on a
 * server, a pool whose sessions reuse one (generic) plan per statement from
 * its first run; elsewhere, `db` itself. PostgreSQL plans a prepared
 * statement anew for its values once a table is large enough for values to
 * matter, and the capped searches (src/search/capped.ts) are written so that
 * they do not: their plan is the same for every word, and planning it again
 * would cost a large store more than the search itself (0.1-0.2 ms a
 * statement at 100,000 clients, where a 1,000-client store plans nothing).
 */
export function genericPlans(db: DB): DB {
  return genericPlansOf.get(db) ?? db;
}

/**
 * Where a statement whose best plan depends on its values runs: on a server,
 * a pool whose sessions plan every execution for its values; elsewhere, `db`
 * itself. postgres.js prepares each statement, and after five executions
 * PostgreSQL may keep one generic plan for it when that plan's estimate looks
 * no worse, and a generic `lower(last_name) like $1` cannot read an index
 * range: a search repeated under load (the bench's wrk) then read whole
 * tables (80 ms for the staff bar's "ann" at 100,000 clients, 14 ms for its
 * first five runs). The searches' rank lookups and ordinary statements run here.
 */
export function customPlans(db: DB): DB {
  return customPlansOf.get(db) ?? db;
}

/** Connections of each planning pool: searches run one or two statements at a time. */
const GENERIC_POOL_MAX = 3;

/** The write counters of a database opened by openDatabase (undefined for a transaction). */
export function tableWritesOf(db: DB): TableWrites | undefined {
  return writesOf.get(db);
}

/** Connections of one app process to a PostgreSQL server. */
const POOL_MAX = 10;

/**
 * How long closing a server pool lets its statements finish before cutting
 * the connections. Without a limit, postgres.js (3.4.9) can wait forever:
 * after two statements failed at once on reserved connections (Kysely's way:
 * /readyz on an emptied database reads its two backup rows together), one
 * connection keeps its failed statement as in flight, and end() waits for it
 * (porsager/postgres#925, #1130). main.ts's SIGTERM shutdown would then never
 * end, and a test file's close hung CI's server run (ops_test, twice).
 */
export const END_TIMEOUT_S = 5;

/**
 * One entry point for both engines: the same Kysely instance type, the same
 * migrations and the same queries run on a PostgreSQL server and on PGlite.
 */
export async function openDatabase(
  databaseUrl: string | undefined,
  dataDir: string,
  options: {
    /** memory:// only: start from this data directory (PGlite's dumpDataDir) instead of an empty one. */
    loadDataDir?: Blob;
  } = {},
): Promise<DatabaseHandle> {
  if (databaseUrl && databaseUrl !== "memory://") {
    // Unique to this pool, so the notices of its own writes can be told apart.
    const applicationName = `lensdesk ${crypto.randomUUID().slice(0, 8)}`;
    const client = postgres(databaseUrl, {
      max: POOL_MAX,
      onnotice: () => {},
      // Dates stay Date objects; NUMERIC stays a string (postgres.js default).
      connection: { application_name: applicationName },
    });
    const pool: PoolStats = { inUse: 0, waiting: 0, max: POOL_MAX };
    const { db, writes } = watchedKysely(
      new PostgresJSDialect({ postgres: releasingResults(client) }),
      pool,
    );
    const stopListening = listenForWrites(client, applicationName, writes);
    // Reads only; their connections are not in `pool`, which counts the app's own.
    const planned = (mode: "force_generic_plan" | "force_custom_plan", name: string) => {
      const client = postgres(databaseUrl, {
        max: GENERIC_POOL_MAX,
        onnotice: () => {},
        connection: { application_name: `${applicationName} ${name}`, plan_cache_mode: mode },
      });
      const kysely = new Kysely<Database>({
        dialect: new PostgresJSDialect({ postgres: releasingResults(client) }),
        plugins: [new CamelCasePlugin()],
      });
      return { client, kysely };
    };
    const generic = planned("force_generic_plan", "generic");
    const custom = planned("force_custom_plan", "custom");
    genericPlansOf.set(db, generic.kysely);
    customPlansOf.set(db, custom.kysely);
    return {
      db,
      kind: "server",
      pool,
      raw: { engine: "postgres", sql: client },
      writes,
      async close() {
        await stopListening();
        // Ended here first, with a time limit: Kysely's destroy then ends
        // them without one and gets this same ending (postgres.js keeps it).
        await Promise.all(
          [client, generic.client, custom.client].map((c) => c.end({ timeout: END_TIMEOUT_S })),
        );
        for (const pool of [generic, custom]) await pool.kysely.destroy();
        await db.destroy();
      },
    };
  }
  const extensions = pgliteExtensions;
  let pg: PGlite;
  let kind: DatabaseHandle["kind"];
  let unlock = () => {};
  if (databaseUrl === "memory://") {
    pg = new PGlite({ extensions, loadDataDir: options.loadDataDir });
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
  // One process holds the data directory (lockDataDir), so every write goes
  // through this handle's driver: no notifications are needed.
  const { db, writes } = watchedKysely(new PGliteDialect({ pglite: pg }), pool);
  return {
    db,
    kind,
    pool,
    raw: { engine: "pglite", pglite: pg },
    writes,
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

/** The channel of migration 0017's triggers. */
const TABLE_WRITES_CHANNEL = "lensdesk_table_writes";

/**
 * Writes of other processes on the same server (replicas, CLIs, a restore)
 * arrive as notifications of migration 0017's triggers, "<table>
 * <application_name>". Whenever the listening connection (re)connects,
 * notifications may have been missed meanwhile, so every kept read is
 * dropped; if it cannot listen at all, nothing is kept.
 */
function listenForWrites(
  client: postgres.Sql,
  applicationName: string,
  writes: TableWrites,
): () => Promise<void> {
  const listening = client.listen(
    TABLE_WRITES_CHANNEL,
    (payload) => {
      const space = payload.indexOf(" ");
      const table = space < 0 ? payload : payload.slice(0, space);
      // This pool's own writes were recorded when their connection came back.
      if (space >= 0 && payload.slice(space + 1) === applicationName) return;
      writes.record([table]);
    },
    () => writes.record("all"),
  ).catch(() => {
    writes.keepNothing();
    return undefined;
  });
  return async () => {
    const listener = await listening;
    await listener?.unlisten().catch(() => {});
  };
}

/** Kysely over `inner` (CamelCase names), with its write counters registered for tableWritesOf. */
function watchedKysely(inner: Dialect, pool: PoolStats): { db: DB; writes: TableWrites } {
  const writes = new TableWrites();
  const db = new Kysely<Database>({
    dialect: countingDialect(inner, pool, writes),
    plugins: [new CamelCasePlugin()],
  });
  writesOf.set(db, writes);
  return { db, writes };
}

/**
 * Wraps a dialect so its driver counts the connections taken and waited for,
 * and records which tables each connection wrote once it is handed back.
 */
function countingDialect(inner: Dialect, pool: PoolStats, writes: TableWrites): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: () => new CountingDriver(inner.createDriver(), pool, writes),
  };
}

/** A pooled connection that notes the tables its statements may write. */
class WatchedConnection implements DatabaseConnection {
  readonly writes = new ConnectionWrites();
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery) {
    this.writes.note(query.sql);
    return this.inner.executeQuery<R>(query);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number) {
    this.writes.note(query.sql);
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

const innerOf = (c: DatabaseConnection) => c instanceof WatchedConnection ? c.inner : c;

class CountingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly pool: PoolStats,
    private readonly writes: TableWrites,
  ) {}

  init() {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.pool.waiting++;
    try {
      const connection = await this.inner.acquireConnection();
      this.pool.inUse++;
      return new WatchedConnection(connection);
    } finally {
      this.pool.waiting--;
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.releaseConnection(innerOf(connection));
    } finally {
      this.pool.inUse--;
      // After the commit or rollback: a read that starts now sees the write.
      if (connection instanceof WatchedConnection) connection.writes.flushTo(this.writes);
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.inner.beginTransaction(innerOf(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction(innerOf(connection));
  }

  rollbackTransaction(connection: DatabaseConnection) {
    return this.inner.rollbackTransaction(innerOf(connection));
  }

  savepoint(c: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) {
    return this.inner.savepoint!(innerOf(c), name, compile);
  }

  rollbackToSavepoint(c: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) {
    return this.inner.rollbackToSavepoint!(innerOf(c), name, compile);
  }

  releaseSavepoint(c: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) {
    return this.inner.releaseSavepoint!(innerOf(c), name, compile);
  }

  destroy() {
    return this.inner.destroy();
  }
}
