// `deno task restore FILE [--force] [--unverified]`: loads a backup made by
// `deno task backup` into the configured database (PGlite in DATA_DIR, or the
// server in DATABASE_URL), in one transaction. `-` reads standard input. The
// file must end with its end marker and match its checksum, and every table
// must hold the rows its header counted, or nothing changes. A database that
// already holds tables is refused unless --force, which replaces everything in
// it. --unverified accepts a file made before backups carried a checksum.
// Stop the app first.
import { loadConfig } from "../src/config/config.ts";
import { openDatabase } from "../src/db/database.ts";
import { restoreDatabase, RestoreRefused } from "../src/backup/restore.ts";

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
const config = await loadConfig();
let database;
try {
  const script = files[0] === "-"
    ? await new Response(Deno.stdin.readable).text()
    : await Deno.readTextFile(files[0]);
  database = await openDatabase(config.databaseUrl, config.dataDir);
  const result = await restoreDatabase(database, script, { force, unsealed });
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
}
