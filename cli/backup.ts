// `deno task backup [FILE]`: a consistent snapshot of the configured database
// (PGlite in DATA_DIR, or the server in DATABASE_URL) as one SQL file.
//   FILE   where to write; `-` writes to standard output; default
//          BACKUP_DIR/lensdesk-<engine>-<date>-<time>.sql
//   --nightly   keep running: one backup every day at BACKUP_AT (default 02:30,
//          local time, see TZ) into BACKUP_DIR, keeping the newest BACKUP_KEEP
//          (default 14); the first one at once when none is younger than a day.
import { loadConfig } from "../src/config/config.ts";
import { loggerFor } from "../src/http/logger.ts";
import { engineOf, takeBackup, writeBackupFile } from "../src/backup/write.ts";
import { backupsToPrune, nextRunAt, parseTimeOfDay } from "../src/backup/schedule.ts";
import { join } from "node:path";

const config = await loadConfig();
const args = Deno.args;
const engine = engineOf(config);

if (args.includes("--nightly")) {
  await nightly();
} else {
  const file = args.find((a) => !a.startsWith("--"));
  const unknown = args.filter((a) => a.startsWith("--"));
  if (unknown.length) {
    console.error(`Unknown option ${unknown[0]}. Usage: deno task backup [FILE | -] [--nightly]`);
    Deno.exit(2);
  }
  try {
    const now = new Date();
    const backup = await takeBackup(config, now);
    const summary = `${Object.values(backup.rows).reduce((a, b) => a + b, 0)} rows in ` +
      `${Object.keys(backup.rows).length} tables`;
    if (file === "-") {
      await Deno.stdout.write(new TextEncoder().encode(backup.script));
      console.error(`Backup written to standard output (${summary}).`);
    } else {
      const path = await writeBackupFile(backup, { file, dir: config.backupDir, engine, now });
      console.error(`Backup written to ${path} (${summary}).`);
    }
  } catch (err) {
    console.error(`Backup failed: ${err instanceof Error ? err.message : err}`);
    Deno.exit(1);
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
    const now = new Date();
    try {
      const backup = await takeBackup(config, now);
      const path = await writeBackupFile(backup, { dir: config.backupDir, engine, now });
      logger.log("info", "backup written", { path, rows: backup.rows });
    } catch (err) {
      logger.log("error", "backup failed", { error: String(err) });
    }
    const names: string[] = [];
    for await (const e of Deno.readDir(config.backupDir)) if (e.isFile) names.push(e.name);
    for (const name of backupsToPrune(names, keep)) {
      await Deno.remove(join(config.backupDir, name));
      logger.log("info", "old backup removed", { name });
    }
  };

  // A fresh start (or a container recreated after days) gets one at once.
  let newest = 0;
  for await (const e of Deno.readDir(config.backupDir)) {
    if (e.isFile && /^lensdesk-.*\.sql$/.test(e.name)) {
      newest = Math.max(newest, (await Deno.stat(join(config.backupDir, e.name))).mtime!.getTime());
    }
  }
  if (Date.now() - newest > 24 * 60 * 60 * 1000) await runOnce();

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
