// The embedded engine: PGlite (PostgreSQL compiled to WASM) in this process,
// on disk under DATA_DIR or, for tests, in memory.
import { PGliteDialect } from "kysely";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { join } from "node:path";
import type { DatabaseHandle } from "./handle.ts";
import { type PoolStats, watchedKysely } from "./watched.ts";
import { ensurePrivateDir, restrictTree } from "../config/private_files.ts";
import { type EmbeddedDatabaseStopped, GuardedPGlite, StopWatch } from "./embedded_faults.ts";

export { EmbeddedDatabaseStopped, isDiskFull, isEmbeddedStopped } from "./embedded_faults.ts";

/**
 * The embedded engine's handle: what every handle has, and on disk, word of
 * PostgreSQL stopping (a PANIC, such as its log finding the disk full). A
 * stopped database refuses every statement at once with the same error; the
 * app should log its message and exit (the next start recovers every
 * committed write once the cause is gone). In memory it never resolves:
 * embeddedStopped() tells the two apart.
 */
export interface EmbeddedHandle extends DatabaseHandle {
  /**
   * Resolves once PostgreSQL stopped: while running, or at close when its
   * shutdown checkpoint finds the disk full (the next start then replays the
   * log). Never on a clean close.
   */
  stopped: Promise<EmbeddedDatabaseStopped>;
  /** Set once PostgreSQL stopped: what it said. */
  readonly failure: EmbeddedDatabaseStopped | undefined;
}

const stopWatches = new WeakMap<DatabaseHandle, StopWatch>();

/**
 * Word of the embedded database stopping, for a handle openDatabase gave:
 * undefined on a server (whose own restarts the pool rides out).
 */
export function embeddedStopped(
  handle: DatabaseHandle,
): Promise<EmbeddedDatabaseStopped> | undefined {
  return stopWatches.get(handle)?.stopped;
}

/** PGlite in memory (`memory`, from `loadDataDir` when given) or on disk under `dataDir`. */
export async function openEmbedded(
  where: "memory" | "disk",
  dataDir: string,
  loadDataDir?: Blob,
): Promise<EmbeddedHandle> {
  const extensions = pgliteExtensions;
  let pg: PGlite;
  let kind: DatabaseHandle["kind"];
  let unlock = () => {};
  const watch = new StopWatch(dataDir);
  if (where === "memory") {
    pg = new PGlite({ extensions, loadDataDir });
    kind = "memory";
  } else {
    const dir = join(dataDir, "pgdata");
    await ensurePrivateDir(dataDir);
    await ensurePrivateDir(dir);
    unlock = await lockDataDir(dataDir);
    pg = new GuardedPGlite(dir, { extensions }, watch);
    kind = "embedded";
  }
  try {
    await pg.waitReady;
  } catch (err) {
    unlock();
    // PGlite says only "failed to initialize properly"; PostgreSQL said why.
    throw watch.startFailure(err);
  }
  if (pg instanceof GuardedPGlite) pg.watchAborts();
  // initdb's files (and a few remade at each start) come out 0666/0644.
  if (kind === "embedded") await restrictTree(join(dataDir, "pgdata"));
  // PGlite is one connection: Kysely's driver queues every query behind a mutex.
  const pool: PoolStats = { inUse: 0, waiting: 0, max: 1 };
  // One process holds the data directory (lockDataDir), so every write goes
  // through this handle's driver: no notifications are needed.
  const { db, writes } = watchedKysely(new PGliteDialect({ pglite: pg }), pool);
  const handle: EmbeddedHandle = {
    db,
    kind,
    pool,
    raw: { engine: "pglite", pglite: pg },
    writes,
    stopped: watch.stopped,
    get failure() {
      return watch.failure;
    },
    async close() {
      try {
        // A stopped instance counts as closed: nothing here enters it again.
        await db.destroy();
        if (!pg.closed) await pg.close();
      } finally {
        unlock();
      }
    },
  };
  if (kind === "embedded") stopWatches.set(handle, watch);
  return handle;
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
