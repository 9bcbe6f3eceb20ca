// The app's database at start-up: migrated and ready, waiting for a server
// that is not up yet instead of giving up on it.
import type { Config } from "../config/config.ts";
import type { Logger } from "../http/logger.ts";
import { type DatabaseHandle, type DB, openDatabase } from "./database.ts";
import { isDatabaseUnavailable } from "./errors.ts";
import { startupProblem } from "../config/startup_problem.ts";

/** Seconds between tries while the server cannot be reached: 1, 2, 4, 8, then every 15. */
export const RETRY_SECONDS = [1, 2, 4, 8, 15];

/** A server that may come up later: refused, no answer, starting up, or its name not yet known. */
function worthWaitingFor(err: unknown): boolean {
  // The migrator wraps what failed under it (its `cause`).
  for (let e = err, depth = 0; e && depth < 10; e = (e as { cause?: unknown }).cause, depth++) {
    if (isDatabaseUnavailable(e) || (e as { code?: unknown }).code === "ENOTFOUND") return true;
  }
  return false;
}

/**
 * Opens the app's database and runs `prepare` on it (migrations, the first
 * owner, the default catalog). On a server, `prepare` runs on a connection
 * without the requests' statement limits (a migration of a large store may
 * take minutes), and a server that cannot be reached yet (compose starting
 * both, a restart, a failover) is waited for: one line each time it is tried
 * again, 1, 2, 4, 8, then every 15 seconds, for as long as it takes. Anything
 * else (a refused password, a missing database, a failed migration) throws.
 */
export async function openAppDatabase<T>(
  config: Config,
  logger: Logger,
  prepare: (db: DB) => Promise<T>,
  wait: (seconds: number) => Promise<void> = (s) => new Promise((r) => setTimeout(r, s * 1000)),
): Promise<{ database: DatabaseHandle; prepared: T }> {
  if (!config.databaseUrl || config.databaseUrl === "memory://") {
    // PGlite: in this process, nothing to wait for and no statement limits.
    const database = await openDatabase(config.databaseUrl, config.dataDir);
    try {
      return { database, prepared: await prepare(database.db) };
    } catch (err) {
      await database.close().catch(() => {});
      throw err;
    }
  }
  for (let attempt = 0;; attempt++) {
    const maintenance = await openDatabase(config.databaseUrl, config.dataDir);
    try {
      const prepared = await prepare(maintenance.db);
      const database = await openDatabase(config.databaseUrl, config.dataDir, {
        limits: config.statementLimits,
      });
      return { database, prepared };
    } catch (err) {
      if (!worthWaitingFor(err)) throw err;
      const seconds = RETRY_SECONDS[Math.min(attempt, RETRY_SECONDS.length - 1)];
      logger.log(
        "warn",
        `waiting for the database: ${
          startupProblem(err, { databaseUrl: config.databaseUrl })
        } Trying again in ${seconds} s.`,
      );
      await wait(seconds);
    } finally {
      await maintenance.close().catch(() => {});
    }
  }
}
