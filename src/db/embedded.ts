// The embedded engine: PGlite (PostgreSQL compiled to WASM) in this process,
// on disk under DATA_DIR or, for tests, in memory.
import { PGliteDialect } from "kysely";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { join } from "node:path";
import type { DatabaseHandle } from "./database.ts";
import { type PoolStats, watchedKysely } from "./watched.ts";
import { ensurePrivateDir, restrictTree } from "../config/private_files.ts";

/** PGlite in memory (`memory`, from `loadDataDir` when given) or on disk under `dataDir`. */
export async function openEmbedded(
  where: "memory" | "disk",
  dataDir: string,
  loadDataDir?: Blob,
): Promise<DatabaseHandle> {
  const extensions = pgliteExtensions;
  let pg: PGlite;
  let kind: DatabaseHandle["kind"];
  let unlock = () => {};
  if (where === "memory") {
    pg = new PGlite({ extensions, loadDataDir });
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
