// One entry point for both engines: the same Kysely instance type, the same
// migrations and the same queries run on a PostgreSQL server (src/db/server.ts)
// and on PGlite (src/db/embedded.ts).
import type { DatabaseHandle } from "./handle.ts";
import { openServer, type StatementLimits } from "./server.ts";
import { openEmbedded } from "./embedded.ts";

export type { DB, PoolStats } from "./watched.ts";
export type { DatabaseHandle, RawClient } from "./handle.ts";
export { tableWritesOf } from "./watched.ts";
export { pgliteExtensions } from "./embedded.ts";
export { genericPlans, preparedOnServer, type StatementLimits } from "./server.ts";

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
