// The Kysely instance both engines share: CamelCase names, and a driver that
// counts the connections in use for /metrics and notes which tables each
// connection wrote (src/db/table_writes.ts) once it is handed back.
import {
  CamelCasePlugin,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  type QueryCompiler,
  type TransactionSettings,
} from "kysely";
import type { Database } from "../../db/schema.ts";
import { ConnectionWrites, TableWrites } from "./table_writes.ts";

export type DB = Kysely<Database>;

/** How many connections Kysely holds and waits for right now (for /metrics). */
export interface PoolStats {
  inUse: number;
  waiting: number;
  max: number;
}

const writesOf = new WeakMap<DB, TableWrites>();

/** The write counters of a database opened by openDatabase (undefined for a transaction). */
export function tableWritesOf(db: DB): TableWrites | undefined {
  return writesOf.get(db);
}

/** Kysely over `inner` (CamelCase names), with its write counters registered for tableWritesOf. */
export function watchedKysely(inner: Dialect, pool: PoolStats): { db: DB; writes: TableWrites } {
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
