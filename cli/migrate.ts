// `deno task migrate`: bring the configured database's schema up to date.
import { loadConfig } from "../src/config/config.ts";
import { openDatabase } from "../src/db/database.ts";
import { migrateToLatest } from "../src/db/migrate.ts";

const config = await loadConfig();
const database = await openDatabase(config.databaseUrl, config.dataDir);
try {
  const applied = await migrateToLatest(database.db);
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Schema is up to date.");
} finally {
  await database.close();
}
