// `deno task backup [FILE]`: a consistent snapshot of the configured database
// (PGlite in DATA_DIR, or the server in DATABASE_URL) as one SQL file, sealed
// with a checksum and an end marker.
//   FILE   where to write; `-` writes to standard output; default
//          BACKUP_DIR/lensdesk-<engine>-<date>-<time>.sql
//   --nightly   keep running: one backup every day at BACKUP_AT (default 02:30,
//          local time, see TZ) into BACKUP_DIR, keeping the newest BACKUP_KEEP
//          (default 14); the first one at once when the last good one is older
//          than a day.
//   --check     print how the last backup went (as /readyz reports it) and exit
//          0 when it is recent and good, 1 otherwise: the health check of the
//          compose `backup` service.
// Every backup gives up after BACKUP_TIMEOUT_MS (default 30 minutes) with one
// line and exit 1, and its outcome is recorded in the database.
import { type Config, loadConfig } from "../src/config/config.ts";
import { loggerFor } from "../src/http/logger.ts";
import { openDatabase } from "../src/db/database.ts";
import { runBackup } from "../src/backup/write.ts";
import { backupsToPrune, nextRunAt, parseTimeOfDay } from "../src/backup/schedule.ts";
import { describeBackupStatus, findBackupStatus } from "../src/backup/runs.ts";
import { join } from "node:path";

const USAGE = "Usage: deno task backup [FILE | -] [--nightly | --check]";

let config: Config;
try {
  config = await loadConfig();
} catch (err) {
  console.error(`Backup failed: ${err instanceof Error ? err.message : err}`);
  Deno.exit(1);
}
const args = Deno.args;

if (args.includes("--check")) {
  await check();
} else if (args.includes("--nightly")) {
  await nightly();
} else {
  const file = args.find((a) => !a.startsWith("--"));
  const unknown = args.filter((a) => a.startsWith("--"));
  if (unknown.length) {
    console.error(`Unknown option ${unknown[0]}. ${USAGE}`);
    Deno.exit(2);
  }
  const result = await runBackup(config, {
    file,
    nightly: false,
    out: async (text) => {
      const bytes = new TextEncoder().encode(text);
      // Deno.stdout.write may write part of the bytes: write until all are out.
      for (let done = 0; done < bytes.length;) {
        done += await Deno.stdout.write(bytes.subarray(done));
      }
    },
  });
  if (result.recordError) {
    console.error(`(The outcome could not be recorded in the database: ${result.recordError})`);
  }
  if (!result.ok) {
    console.error(`Backup failed: ${result.error}`);
    Deno.exit(1);
  }
  const rows = result.backup.rows;
  const summary = `${Object.values(rows).reduce((a, b) => a + b, 0)} rows in ` +
    `${Object.keys(rows).length} tables, ${result.backup.bytes} bytes`;
  console.error(
    result.path === "-"
      ? `Backup written to standard output (${summary}).`
      : `Backup written to ${result.path} (${summary}).`,
  );
  // postgres.js may keep a timer for a moment after its connections end.
  Deno.exit(0);
}

async function check() {
  let database;
  try {
    database = await openDatabase(config.databaseUrl, config.dataDir);
    const status = await findBackupStatus(database.db);
    console.log(describeBackupStatus(status));
    Deno.exitCode = status.status === "ok" ? 0 : 1;
  } catch (err) {
    console.log(`Cannot read the backup status: ${err instanceof Error ? err.message : err}`);
    Deno.exitCode = 1;
  } finally {
    await database?.close();
  }
}

async function nightly() {
  const logger = loggerFor(config.logFormat);
  const at = parseTimeOfDay(Deno.env.get("BACKUP_AT") ?? "02:30");
  const keep = Number(Deno.env.get("BACKUP_KEEP") ?? 14);
  if (!Number.isInteger(keep) || keep < 1) throw new Error("BACKUP_KEEP must be 1 or more");
  await Deno.mkdir(config.backupDir, { recursive: true });
  logger.log("info", "nightly backups", { dir: config.backupDir, at: at, keep });

  const runOnce = async () => {
    const result = await runBackup(config, { nightly: true });
    if (result.ok) {
      logger.log("info", "backup written", {
        path: result.path,
        bytes: result.backup.bytes,
        rows: result.backup.rows,
      });
    } else {
      logger.log("error", "backup failed", { error: result.error });
    }
    if (result.recordError) {
      logger.log("error", "backup outcome not recorded", { error: result.recordError });
    }
    const names: string[] = [];
    for await (const e of Deno.readDir(config.backupDir)) if (e.isFile) names.push(e.name);
    for (const name of backupsToPrune(names, keep)) {
      await Deno.remove(join(config.backupDir, name));
      logger.log("info", "old backup removed", { name });
    }
  };

  // A fresh start (or a container recreated after days) gets one at once,
  // unless the database records a good one from the last day.
  let recent = false;
  let database;
  try {
    database = await openDatabase(config.databaseUrl, config.dataDir);
    const { lastSuccess } = await findBackupStatus(database.db);
    recent = !!lastSuccess && Date.now() - Date.parse(lastSuccess.at) < 24 * 60 * 60 * 1000;
  } catch {
    // Not readable yet (no schema, database starting): take one now, which says why if it fails.
  } finally {
    await database?.close();
  }
  if (!recent) await runOnce();

  let stop = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => {
      stop = true;
      Deno.exit(0);
    });
  }
  while (!stop) {
    const next = nextRunAt(new Date(), at);
    logger.log("info", "next backup", { at: next.toISOString() });
    await new Promise((resolve) => setTimeout(resolve, next.getTime() - Date.now()));
    await runOnce();
  }
}
