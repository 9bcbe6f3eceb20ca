// `deno task migrate`: bring the configured database's schema up to date.
// A failure (the embedded database held by the running app, a server that
// cannot be reached) is one line, as start-up says it, and exit 1.
import { type Config, loadConfig } from "../src/config/config.ts";
import { type DatabaseHandle, openDatabase } from "../src/db/database.ts";
import { migrateToLatest } from "../src/db/migrate.ts";
import { startupProblem } from "../src/config/startup_problem.ts";

let config: Config | undefined;
let database: DatabaseHandle | undefined;
try {
  config = await loadConfig();
  database = await openDatabase(config.databaseUrl, config.dataDir);
  const applied = await migrateToLatest(database.db);
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Schema is up to date.");
} catch (err) {
  console.error(
    `Migrate failed: ${
      startupProblem(err, {
        dataDir: config?.dataDir ?? Deno.env.get("DATA_DIR") ?? "./data",
        databaseUrl: config?.databaseUrl ?? (Deno.env.get("DATABASE_URL") || undefined),
      })
    }`,
  );
  // Not Deno.exit: the database is closed properly first (finally).
  Deno.exitCode = 1;
} finally {
  await database?.close();
}
