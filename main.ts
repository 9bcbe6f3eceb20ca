// Start-up: configuration, database, migrations, first owner, server, and a
// graceful shutdown that lets in-flight requests finish.
import { loadConfig } from "./src/config/config.ts";
import { openDatabase } from "./src/db/database.ts";
import { migrateToLatest } from "./src/db/migrate.ts";
import { ensureFirstOwner } from "./src/auth/owner_bootstrap.ts";
import { ensureDefaultCatalog } from "./src/catalog/default_catalog.ts";
import { ensureDefaultHeardHow } from "./src/settings/heard_how.ts";
import { deleteExpiredSessions } from "./src/auth/session.ts";
import { readManifest } from "./src/assets/manifest.ts";
import { createApp } from "./src/http/app.ts";
import { jsonLogger as logger } from "./src/http/logger.ts";
import { startOutboxWorker } from "./src/mail/outbox.ts";

const config = await loadConfig();
const manifest = await readManifest();
const database = await openDatabase(config.databaseUrl, config.dataDir);
logger.log("info", "database opened", { kind: database.kind });
const applied = await migrateToLatest(database.db);
if (applied.length) logger.log("info", "migrations applied", { migrations: applied });

const filled = await ensureDefaultCatalog(database.db);
if (filled.length) logger.log("info", "default catalog installed", { sections: filled });
if (await ensureDefaultHeardHow(database.db)) {
  logger.log("info", "default heard-how options installed");
}

const owner = await ensureFirstOwner(database.db, config.owner);
if (owner.created && owner.generatedPassword) {
  // Printed once, on purpose outside the JSON log so it stands out.
  console.log(
    `\n  First owner account created.\n    username: ${owner.username}\n    password: ${owner.generatedPassword}\n  It is shown only this once: sign in and change it.\n`,
  );
} else if (owner.created) {
  logger.log("info", "first owner account created", { username: owner.username });
}
if (config.oidc && config.oidc.ownerEmails.length === 0) {
  logger.log("warn", "OIDC is configured but OWNER_EMAILS is empty: nobody can sign in with it");
}

const app = createApp({ db: database.db, config, manifest, logger });
const server = Deno.serve({
  port: config.port,
  hostname: config.host,
  onListen: ({ hostname, port }) =>
    logger.log("info", "listening", { url: `http://${hostname}:${port}`, appUrl: config.appUrl }),
}, app.fetch);

const sweep = setInterval(() => {
  deleteExpiredSessions(database.db).catch((err) =>
    logger.log("error", "session sweep failed", { error: String(err) })
  );
}, 60 * 60 * 1000);
Deno.unrefTimer(sweep);

const outbox = startOutboxWorker(database.db, config.secretKey, logger);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.log("info", "shutting down", { signal });
  clearInterval(sweep);
  await server.shutdown();
  await outbox.stop();
  await database.close();
  logger.log("info", "stopped");
  Deno.exit(0);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => shutdown(signal));
}
