// Start-up: configuration, database, migrations, first owner, server, and a
// graceful shutdown that lets in-flight requests finish.
import "./src/http/react_production.ts"; // first: React's build is chosen when it loads
import { loadConfig } from "./src/config/config.ts";
import { openDatabase } from "./src/db/database.ts";
import { migrateToLatest } from "./src/db/migrate.ts";
import { ensureFirstOwner } from "./src/auth/owner_bootstrap.ts";
import { ensureDefaultCatalog } from "./src/catalog/default_catalog.ts";
import { ensureDefaultHeardHow } from "./src/settings/heard_how.ts";
import { deleteExpiredSessions } from "./src/auth/session.ts";
import { deleteExpiredKioskSessions } from "./src/kiosk/kiosk_session.ts";
import { deleteOldPasswordFailures } from "./src/auth/password_failures.ts";
import { readManifest } from "./src/assets/manifest.ts";
import { createApp } from "./routes/app.ts";
import { loggerFor } from "./src/http/logger.ts";
import { Metrics } from "./src/http/metrics.ts";
import { startOutboxWorker } from "./src/mail/outbox.ts";
import { withStartupLock } from "./src/db/startup_lock.ts";
import { PdfPool } from "./src/pdf/pdf_pool.ts";

const config = await loadConfig();
const logger = loggerFor(config.logFormat);
const manifest = await readManifest();
const database = await openDatabase(config.databaseUrl, config.dataDir);
logger.log("info", "database opened", { kind: database.kind });
const applied = await migrateToLatest(database.db).catch((err) => {
  // The usual first-week failure: POSTGRES_PASSWORD (or POSTGRES_USER) changed
  // in .env after the database volume was created with the old one, which it keeps.
  const code = err?.cause?.code ?? err?.code;
  if (code === "28P01" || code === "28000") {
    logger.log("error", "the database refused the user or password in DATABASE_URL", {
      error: String(err?.cause?.message ?? err?.message ?? err),
      hint: "POSTGRES_USER and POSTGRES_PASSWORD are applied only when the database volume is " +
        "first created; to change the password later see the README, 'Changing the database " +
        "password'",
    });
    Deno.exit(1);
  }
  throw err;
});
if (applied.length) logger.log("info", "migrations applied", { migrations: applied });

// Several app processes may start together on one database: one at a time here.
const { filled, heardHow, owner } = await withStartupLock(database.db, async (trx) => ({
  filled: await ensureDefaultCatalog(trx),
  heardHow: await ensureDefaultHeardHow(trx),
  owner: await ensureFirstOwner(trx, config.owner),
}));
if (filled.length) logger.log("info", "default catalog installed", { sections: filled });
if (heardHow) logger.log("info", "default heard-how options installed");
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

const metrics = new Metrics();
// Renderer processes start on the first PDF, not here.
const pdf = new PdfPool(config.pdf);
const app = createApp({
  db: database.db,
  config,
  manifest,
  logger,
  metrics,
  pool: database.pool,
  pdf,
});
const server = Deno.serve({
  port: config.port,
  hostname: config.host,
  onListen: ({ hostname, port }) =>
    logger.log("info", "listening", { url: `http://${hostname}:${port}`, appUrl: config.appUrl }),
}, app.fetch);

// Hourly: expired sessions, and password-check failures older than any throttle window.
const sweep = setInterval(() => {
  Promise.all([
    deleteExpiredSessions(database.db),
    deleteExpiredKioskSessions(database.db),
  ]).catch((err) => logger.log("error", "session sweep failed", { error: String(err) }));
  deleteOldPasswordFailures(database.db).catch((err) =>
    logger.log("error", "password failure sweep failed", { error: String(err) })
  );
}, 60 * 60 * 1000);
Deno.unrefTimer(sweep);

const outbox = startOutboxWorker(database.db, config.secretKey, logger, {
  intervalMs: config.outboxPollMs,
  onPass: (tried) => metrics.recordOutboxPass(tried),
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.log("info", "shutting down", { signal });
  clearInterval(sweep);
  // In-flight requests finish first, PDFs they wait for included; then the PDF renderers end.
  await server.shutdown();
  const { workers } = pdf.stats();
  pdf.close();
  logger.log("info", "pdf renderers ended", { workers });
  await outbox.stop();
  await database.close();
  logger.log("info", "stopped");
  Deno.exit(0);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => shutdown(signal));
}
