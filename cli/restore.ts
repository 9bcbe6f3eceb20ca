// `deno task restore FILE [--force] [--unverified]`: loads a backup made by
// `deno task backup` into the configured database (PGlite in DATA_DIR, or the
// server in DATABASE_URL), in one transaction. `-` reads standard input. The
// file must end with its end marker and match its checksum, and every table
// must hold the rows its header counted, or nothing changes. A database that
// already holds tables is refused unless --force, which replaces everything in
// it. --unverified accepts a file made before backups carried a checksum.
// The backup loaded becomes the store's last good backup (`backup --check`).
// Stop the app first.
//
// A refusal leaves nothing behind: the file is checked before the database is
// opened (which creates an embedded one on first use), no secret key is
// written, and an embedded database this run created is removed again.
import { dirname, join } from "node:path";
import { type Config, loadConfig } from "../src/config/config.ts";
import { type DatabaseHandle, openDatabase } from "../src/db/database.ts";
import { checkBackupFile, restoreDatabase, RestoreRefused } from "../src/backup/restore.ts";

const args = Deno.args;
const force = args.includes("--force");
const unsealed = args.includes("--unverified");
const files = args.filter((a) => a !== "--force" && a !== "--unverified");
if (files.length !== 1 || files[0].startsWith("--")) {
  console.error(
    "Usage: deno task restore FILE [--force] [--unverified]   (FILE may be - for standard input)",
  );
  Deno.exit(2);
}
const from = files[0] === "-" ? null : files[0];

let config: Config | undefined;
let database: DatabaseHandle | undefined;
/** What opening an embedded database makes that was not there before this run. */
let created: string[] = [];
let ok = false;
try {
  config = await loadConfig(Deno.env.toObject(), { createSecretKey: false });
  if (config.databaseUrl === "memory://") {
    throw new RestoreRefused(
      "DATABASE_URL=memory:// is thrown away at exit: nothing to restore into.",
    );
  }
  const backup = await checkBackupFile(
    from === null ? await new Response(Deno.stdin.readable).text() : await Deno.readTextFile(from),
    { unsealed },
  );
  if (!config.databaseUrl) created = await madeByOpening(config.dataDir);
  database = await openDatabase(config.databaseUrl, config.dataDir);
  const result = await restoreDatabase(database, backup, { force, unsealed, from });
  ok = true;
  const total = Object.values(result.rows).reduce((a, b) => a + b, 0);
  console.error(
    `Restored the backup taken ${result.header.takenAt.toISOString()} ` +
      `(${result.header.engine}) into ${config.databaseUrl ? "the server" : config.dataDir}` +
      `${result.replaced ? ", replacing what was there" : ""}: ${total} rows in ` +
      `${Object.keys(result.rows).length} tables.`,
  );
  for (const [table, n] of Object.entries(result.rows)) {
    console.error(`  ${table.padEnd(28)} ${n}`);
  }
  if (!result.recorded) {
    console.error(
      "(This backup predates the backup status: no last good backup is recorded until the " +
        "next backup.)",
    );
  }
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  // Everything ran in one transaction, so a failure anywhere left the database as it was.
  console.error(
    err instanceof RestoreRefused ? message : `Restore failed: ${message}. Nothing was changed.`,
  );
  // Not Deno.exit: the database is closed properly first (finally).
  Deno.exitCode = 1;
} finally {
  await database?.close();
  // A database folder this run made for a restore that did not happen goes again.
  if (!ok) {
    for (const path of created) await Deno.remove(path, { recursive: true }).catch(() => {});
  }
}

/**
 * What opening the embedded database in `dataDir` will create: the outermost
 * missing folder of the path when DATA_DIR is not there, else whichever of the
 * database folder and its lock file are not there yet.
 */
async function madeByOpening(dataDir: string): Promise<string[]> {
  const outermost = await outermostMissing(dataDir);
  if (outermost) return [outermost];
  const missing = [];
  for (const name of ["pgdata", "pgdata.lock"]) {
    if (await outermostMissing(join(dataDir, name))) missing.push(join(dataDir, name));
  }
  return missing;
}

/** The outermost of `path` and its parents that does not exist yet; undefined when it does. */
async function outermostMissing(path: string): Promise<string | undefined> {
  let missing: string | undefined;
  for (let p = path;; p = dirname(p)) {
    try {
      await Deno.stat(p);
      return missing;
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
      missing = p;
    }
    if (dirname(p) === p) return missing;
  }
}
