// One entry point for both engines: the same Kysely instance type, the same
// migrations and the same queries run on a PostgreSQL server (src/db/server.ts)
// and on PGlite (src/db/embedded.ts).
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import type { DB, PoolStats } from "./watched.ts";
import type { TableWrites } from "./table_writes.ts";
import { openServer, type StatementLimits } from "./server.ts";
import { openEmbedded } from "./embedded.ts";

export type { DB, PoolStats } from "./watched.ts";
export { tableWritesOf } from "./watched.ts";
export { pgliteExtensions } from "./embedded.ts";
export { genericPlans, type StatementLimits } from "./server.ts";

/** The engine's own client, for what Kysely cannot do: pg_dump, a backup's snapshot. */
export type RawClient =
  | { engine: "postgres"; pool: pg.Pool }
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

export interface OpenOptions {
  /** memory:// only: start from this data directory (PGlite's dumpDataDir) instead of an empty one. */
  loadDataDir?: Blob;
  /**
   * Server only: how long a statement may run before PostgreSQL cancels it
   * (src/db/server.ts). The app passes its configuration; the command-line
   * tasks (backup, restore, migrate, seed) run without a limit.
   */
  limits?: StatementLimits;
}

/** DATABASE_URL unset: PGlite in DATA_DIR; `memory://`: PGlite in memory; else a server. */
export async function openDatabase(
  databaseUrl: string | undefined,
  dataDir: string,
  options: OpenOptions = {},
): Promise<DatabaseHandle> {
  if (databaseUrl && databaseUrl !== "memory://") {
    return await openServer(databaseUrl, options.limits);
  }
  return await openEmbedded(
    databaseUrl === "memory://" ? "memory" : "disk",
    dataDir,
    options.loadDataDir,
  );
}
