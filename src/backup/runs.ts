import type { DB } from "../db/database.ts";

/** A last good backup older than this is overdue: the nightly one missed a night. */
export const BACKUP_STALE_HOURS = 26;

/** Runs kept in the table; older ones are deleted as new ones are recorded. */
const KEEP_RUNS = 100;

export interface BackupRun {
  startedAt: Date;
  ok: boolean;
  nightly: boolean;
  bytes?: number;
  file?: string;
  error?: string;
}

/**
 * Records one backup's outcome (migration 0020) and keeps the newest KEEP_RUNS.
 * (A restore records the backup it loaded itself, in its own transaction: restore.ts.)
 */
export async function recordBackupRun(db: DB, run: BackupRun): Promise<void> {
  await db.insertInto("backupRuns").values({
    startedAt: run.startedAt,
    ok: run.ok,
    nightly: run.nightly,
    bytes: run.bytes ?? null,
    file: run.file ?? null,
    // One line, and short: the status shows it as is.
    error: run.error?.replace(/\s+/g, " ").slice(0, 500) ?? null,
  }).execute();
  await db.deleteFrom("backupRuns").where(
    "id",
    "<",
    (eb) =>
      eb.selectFrom("backupRuns").select("id").orderBy("id", "desc").offset(KEEP_RUNS - 1)
        .limit(1),
  ).execute();
}

export interface BackupStatus {
  /**
   * ok: the last backup succeeded within BACKUP_STALE_HOURS; failed: the last
   * backup failed; stale: the last good one is older than that; none: no
   * backup has been recorded.
   */
  status: "ok" | "failed" | "stale" | "none";
  /**
   * `restoredAt`: when this store was restored from that backup (the restore
   * records the backup it loaded); null for a backup this store took.
   */
  lastSuccess:
    | { at: string; bytes: number; file: string | null; restoredAt: string | null }
    | null;
  lastFailure: { at: string; error: string } | null;
}

/** What /readyz, /metrics and the backup service's health check report. */
export async function findBackupStatus(db: DB, now = new Date()): Promise<BackupStatus> {
  // Every column, not a list: right after a restore of an older backup (before
  // the app's start migrates it) the table may not have restored_at yet.
  const last = (ok: boolean) =>
    db.selectFrom("backupRuns").selectAll()
      .where("ok", "=", ok).orderBy("finishedAt", "desc").orderBy("id", "desc").limit(1)
      .executeTakeFirst();
  const [success, failure] = await Promise.all([last(true), last(false)]);
  const lastSuccess = success
    ? {
      at: success.finishedAt.toISOString(),
      bytes: Number(success.bytes),
      file: success.file,
      restoredAt: success.restoredAt?.toISOString() ?? null,
    }
    : null;
  const lastFailure = failure
    ? { at: failure.finishedAt.toISOString(), error: failure.error ?? "" }
    : null;
  let status: BackupStatus["status"];
  if (failure && (!success || failure.finishedAt > success.finishedAt)) status = "failed";
  else if (!success) status = "none";
  else if (now.getTime() - success.finishedAt.getTime() > BACKUP_STALE_HOURS * 3_600_000) {
    status = "stale";
  } else status = "ok";
  return { status, lastSuccess, lastFailure };
}

/** One line for a person (the health check's output). */
export function describeBackupStatus(s: BackupStatus): string {
  const last = s.lastSuccess;
  const good = !last
    ? "no good backup recorded"
    : `last good backup ${last.at} (${last.bytes} bytes)` +
      (last.restoredAt
        ? `, which this store was restored from (${last.file ?? "standard input"}) at ` +
          last.restoredAt
        : "");
  switch (s.status) {
    case "ok":
      return `Backups OK: ${good}.`;
    case "none":
      return "No backup has been recorded yet.";
    case "stale":
      return `Backups overdue: ${good}, more than ${BACKUP_STALE_HOURS} hours ago.`;
    case "failed":
      return `The last backup failed at ${s.lastFailure!.at}: ${s.lastFailure!.error} ` +
        `(${good}).`;
  }
}
