// Start-up: configuration, database, migrations, first owner, server, and a
// graceful shutdown that lets in-flight requests finish.
import "./src/http/react_production.ts"; // first: React's build is chosen when it loads
import { type Config, loadConfig } from "./src/config/config.ts";
import { startupProblem } from "./src/config/startup_problem.ts";
import { openAppDatabase } from "./src/db/start.ts";
import { embeddedStopped } from "./src/db/embedded.ts";
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
import { retryOwedSignedCopies } from "./src/quotes/online_signed_copy.ts";
import { deleteOldRateEvents } from "./src/auth/rate_counts.ts";
import { deleteExpiredKeys } from "./src/idempotency/key_store.ts";
import { withStartupLock } from "./src/db/startup_lock.ts";
import { PdfPool } from "./src/pdf/pdf_pool.ts";

// A start-up that fails prints one line saying why and what to do, and exits 1
// (src/config/startup_problem.ts), never a stack trace.
const startupEnv = Deno.env.toObject();
let config: Config;
try {
  config = await loadConfig(startupEnv);
} catch (err) {
  loggerFor(startupEnv.LOG_FORMAT === "text" ? "text" : "json").log(
    "error",
    `cannot start: ${startupProblem(err, { dataDir: startupEnv.DATA_DIR ?? "./data" })}`,
  );
  Deno.exit(1);
}
const logger = loggerFor(config.logFormat);
function cannotStart(err: unknown): never {
  logger.log(
    "error",
    `cannot start: ${
      startupProblem(err, {
        host: config.host,
        port: config.port,
        dataDir: config.dataDir,
        databaseUrl: config.databaseUrl,
      })
    }`,
  );
  Deno.exit(1);
}

// The port first: one in use is said before the database is touched (or a
// first owner's password printed for a server that then cannot listen).
try {
  Deno.listen({ hostname: config.host, port: config.port }).close();
} catch (err) {
  cannotStart(err);
}
const manifest = await readManifest().catch(cannotStart);
// A server that is not up yet is waited for (src/db/start.ts); the database
// is known to answer once the migrations have run, so that is when it says so.
const { database, prepared } = await openAppDatabase(config, logger, async (db) => ({
  applied: await migrateToLatest(db),
  // Several app processes may start together on one database: one at a time here.
  ...await withStartupLock(db, async (trx) => ({
    filled: await ensureDefaultCatalog(trx),
    heardHow: await ensureDefaultHeardHow(trx),
    owner: await ensureFirstOwner(trx, config.owner),
  })),
})).catch(cannotStart);
const { applied, filled, heardHow, owner } = prepared;
// An embedded database that stopped (its disk filled up) is never entered again:
// say why in one line and exit, for the restart policy or the person to act on.
embeddedStopped(database)?.then((err) => {
  logger.log("error", err.message);
  Deno.exit(1);
});
logger.log("info", "database opened", { kind: database.kind });
if (applied.length) logger.log("info", "migrations applied", { migrations: applied });
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
// Listened for before the server listens: a SIGTERM at any moment from here on
// stops cleanly (what has started is ended, in order).
let server: Deno.HttpServer | undefined;
// Assigned once the worker starts, below; read by a shutdown that may come first.
// deno-lint-ignore prefer-const
let outbox: ReturnType<typeof startOutboxWorker> | undefined;
const timers: ReturnType<typeof setInterval>[] = [];
let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.log("info", "shutting down", { signal });
  for (const timer of timers) clearInterval(timer);
  // In-flight requests finish first, PDFs they wait for included; then the PDF renderers end.
  await server?.shutdown();
  const { workers } = pdf.stats();
  await pdf.close();
  logger.log("info", "pdf renderers ended", { workers });
  await outbox?.stop();
  await database.close();
  logger.log("info", "stopped");
  Deno.exit(0);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => shutdown(signal));
}

try {
  server = Deno.serve({
    port: config.port,
    hostname: config.host,
    onListen: ({ hostname, port }) => {
      logger.log("info", "listening", { url: `http://${hostname}:${port}`, appUrl: config.appUrl });
      // One plain line for the person who started it (outside the JSON log, as the first
      // owner's password is): where to sign in. PORT=0 takes a free port: the real one.
      const base = config.appUrl === "http://localhost:0"
        ? `http://localhost:${port}`
        : config.appUrl;
      console.log(`Lensdesk is ready: sign in at ${base}/staff`);
    },
  }, app.fetch);
} catch (err) {
  cannotStart(err);
}

// Every minute: signed-out limits' events no rule reads any more, and kept
// Idempotency-Key answers past their life (a flood of new addresses or keys
// leaves at most a window's worth).
const quickSweep = setInterval(() => {
  deleteOldRateEvents(database.db).catch((err) =>
    logger.log("error", "rate limit sweep failed", { error: String(err) })
  );
  deleteExpiredKeys(database.db, new Date()).catch((err) =>
    logger.log("error", "idempotency sweep failed", { error: String(err) })
  );
}, 60 * 1000);
Deno.unrefTimer(quickSweep);
timers.push(quickSweep);

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
timers.push(sweep);

outbox = startOutboxWorker(database.db, config.secretKey, logger, {
  intervalMs: config.outboxPollMs,
  // A client's signed copy whose render failed after the acceptance: tried again.
  beforePass: () => retryOwedSignedCopies(database.db, pdf, config, logger),
  onPass: (tried) => metrics.recordOutboxPass(tried),
});
