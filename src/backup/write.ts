import { join } from "node:path";
import type { Config } from "../config/config.ts";
import { openDatabase } from "../db/database.ts";
import { type Backup, dumpDatabase } from "./dump.ts";
import { backupFileName } from "./format.ts";

/** Takes a backup of the configured database: the database is open only for that. */
export async function takeBackup(config: Config, now = new Date()): Promise<Backup> {
  const database = await openDatabase(config.databaseUrl, config.dataDir);
  try {
    return await dumpDatabase(database, now);
  } finally {
    await database.close();
  }
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
