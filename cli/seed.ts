// `deno task seed`: fill an empty database with a demo store (catalog, staff,
// clients and quotes in every status). Refuses, without changing anything,
// when the database already holds clients.
// A failure (the embedded database held by the running app, a server that
// cannot be reached) is one line, as start-up says it, and exit 1.
import { type Config, loadConfig } from "../src/config/config.ts";
import { type DatabaseHandle, openDatabase } from "../src/db/database.ts";
import { migrateToLatest } from "../src/db/migrate.ts";
import { ensureFirstOwner } from "../src/auth/owner_bootstrap.ts";
import { seedDemoStore } from "../src/seed/demo_store.ts";
import { startupProblem } from "../src/config/startup_problem.ts";

let config: Config | undefined;
let database: DatabaseHandle | undefined;
try {
  config = await loadConfig();
  if (config.databaseUrl === "memory://") {
    console.error("DATABASE_URL=memory:// is thrown away when the seed ends; nothing to seed.");
    Deno.exit(1);
  }
  database = await openDatabase(config.databaseUrl, config.dataDir);
  const db = database.db;
  const applied = await migrateToLatest(db);
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);

  const hasClients = await db.selectFrom("clients").select("id").limit(1).executeTakeFirst();
  if (!hasClients) {
    // The app creates the first OWNER only while no user exists; seeded staff
    // would prevent that, so create it now exactly as a start-up would.
    const owner = await ensureFirstOwner(db, config.owner);
    if (owner.created) {
      console.log(
        owner.generatedPassword
          ? `First owner account created: ${owner.username} / ${owner.generatedPassword} ` +
            "(shown only this once: sign in and change it)."
          : `First owner account created: ${owner.username}.`,
      );
    }
  }

  const result = await seedDemoStore(db);
  if (result.status === "refused") {
    console.log(result.message);
  } else {
    const { counts } = result;
    console.log(
      `Demo store seeded: ${counts.clients} clients, ${counts.quotes} quotes ` +
        `(${counts.options} options, ${counts.items} items), catalog, heard-how options ` +
        `and store settings.`,
    );
    console.log(`Demo staff (password for new accounts: ${result.password}):`);
    for (const user of result.users) {
      const note = user.created ? "" : "  (already existed, left unchanged)";
      console.log(`  ${user.username.padEnd(16)} ${user.role}${note}`);
    }
  }
} catch (err) {
  console.error(`Seed failed: ${startupProblem(err, where(config))}`);
  // Not Deno.exit: the database is closed properly first (finally).
  Deno.exitCode = 1;
} finally {
  await database?.close();
}

function where(config: Config | undefined) {
  return {
    dataDir: config?.dataDir ?? Deno.env.get("DATA_DIR") ?? "./data",
    databaseUrl: config?.databaseUrl ?? (Deno.env.get("DATABASE_URL") || undefined),
  };
}
