import { join } from "node:path";
import type { Config } from "../config/config.ts";
import { type DatabaseHandle, openDatabase } from "../db/database.ts";
import { type Backup, dumpDatabase } from "./dump.ts";
import { backupFileName } from "./format.ts";
import { recordBackupRun } from "./runs.ts";

/** A backup that did not finish within BACKUP_TIMEOUT_MS. */
export class BackupTimedOut extends Error {}

/** "90 s", "30 min": the time limit as the failure line says it. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000 || ms % 60_000 !== 0) return `${Math.round(ms / 100) / 10} s`;
  return `${ms / 60_000} min`;
}

/**
 * Takes a backup of the configured database: the database is open only for
 * that. Past `timeoutMs` it gives up with BackupTimedOut instead of waiting
 * for good (a stuck statement, a lock held elsewhere): on a server its
 * connections are cut, which ends the snapshot's transaction.
 */
export async function takeBackup(
  config: Config,
  now = new Date(),
  timeoutMs = config.backupTimeoutMs,
): Promise<Backup> {
  const database = await openDatabase(config.databaseUrl, config.dataDir);
  const timedOut = () =>
    new BackupTimedOut(
      `the backup did not finish within ${durationText(timeoutMs)} (BACKUP_TIMEOUT_MS); ` +
        "nothing was written",
    );
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(timedOut());
    }, timeoutMs);
  });
  const started = performance.now();
  const dump = dumpDatabase(database, now, abort.signal);
  try {
    const backup = await Promise.race([dump, limit]);
    // PGlite dumps in this process and holds its event loop meanwhile: the
    // timer can only fire after the dump, which may win the race. Late is late.
    if (performance.now() - started > timeoutMs) {
      abort.abort();
      throw timedOut();
    }
    return backup;
  } finally {
    clearTimeout(timer);
    if (abort.signal.aborted) await abandon(database, dump);
    else await database.close();
  }
}

/**
 * Closes a database whose backup was given up on. On a server the snapshot's
 * session was ended when the backup was given up on (dump.ts), so the close
 * does not wait for its statement. PGlite runs in this process: its pg_dump
 * cannot be interrupted, and closing PGlite under it crashes, so the failure
 * waits for the dump to end and then closes as usual, freeing the data
 * directory.
 */
async function abandon(database: DatabaseHandle, dump: Promise<unknown>): Promise<void> {
  if (database.raw.engine === "pglite") await dump.catch(() => {});
  else dump.catch(() => {});
  await database.close();
}

/**
 * Writes a backup where it cannot be mistaken for a complete one while it is
 * being written (a `.partial` file renamed at the end), readable by its
 * owner only: it holds password hashes and every client's details.
 */
export async function writeBackupFile(
  backup: Backup,
  target: { file?: string; dir: string; engine: string; now: Date },
): Promise<string> {
  const path = target.file ?? join(target.dir, backupFileName(target.engine, target.now));
  const partial = `${path}.partial`;
  if (!target.file) await Deno.mkdir(target.dir, { recursive: true });
  await Deno.writeTextFile(partial, backup.script, { mode: 0o600 });
  await Deno.rename(partial, path);
  return path;
}

export function engineOf(config: Config): "server" | "embedded" {
  return config.databaseUrl ? "server" : "embedded";
}

export type BackupOutcome =
  | { ok: true; backup: Backup; path: string }
  | { ok: false; error: string };

/**
 * One backup as the CLI and the nightly job run it: taken, written (`file`
 * "-" writes to `out`), and its outcome recorded in the database, which is
 * what /readyz, /metrics and the backup service's health check read. A
 * failure to record is reported but does not turn a written backup into a
 * failed one.
 */
export async function runBackup(
  config: Config,
  options: { file?: string; nightly: boolean; now?: Date; out?: (text: string) => Promise<void> },
): Promise<BackupOutcome & { recordError?: string }> {
  const now = options.now ?? new Date();
  let outcome: BackupOutcome;
  try {
    const backup = await takeBackup(config, now);
    let path: string;
    if (options.file === "-") {
      await options.out!(backup.script);
      path = "-";
    } else {
      path = await writeBackupFile(backup, {
        file: options.file,
        dir: config.backupDir,
        engine: engineOf(config),
        now,
      });
    }
    outcome = { ok: true, backup, path };
  } catch (err) {
    outcome = { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  let recordError: string | undefined;
  let database: DatabaseHandle | undefined;
  try {
    database = await openDatabase(config.databaseUrl, config.dataDir);
    await recordBackupRun(database.db, {
      startedAt: now,
      ok: outcome.ok,
      nightly: options.nightly,
      bytes: outcome.ok ? outcome.backup.bytes : undefined,
      file: outcome.ok ? (outcome.path === "-" ? "(standard output)" : outcome.path) : undefined,
      error: outcome.ok ? undefined : outcome.error,
    });
  } catch (err) {
    recordError = err instanceof Error ? err.message : String(err);
  } finally {
    await database?.close();
  }
  return { ...outcome, recordError };
}
