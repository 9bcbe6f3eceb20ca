import { Hono } from "hono";
import type { AppEnv } from "../src/http/app_env.ts";
import type { PoolStats } from "../src/db/database.ts";
import { type Metrics, sameSecret } from "../src/http/metrics.ts";
import { findMigrationStatus } from "../src/db/migrate.ts";
import { findOutboxBacklog } from "../src/mail/outbox.ts";
import { findBackupStatus } from "../src/backup/runs.ts";

/** A due e-mail waiting longer than this means no worker is picking the queue up. */
export const OUTBOX_STALLED_SECONDS = 15 * 60;

/** A scrape waits this long for the database before answering without its figures. */
const SCRAPE_DB_MS = 3000;

/** The value, or undefined when it failed or took longer than SCRAPE_DB_MS. */
function withinScrape<T>(work: Promise<T>): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), SCRAPE_DB_MS);
  });
  return Promise.race([work.catch(() => undefined), late]).finally(() => clearTimeout(timer));
}

/**
 * /readyz and /metrics, for a load balancer and a Prometheus scraper. Both
 * sit before sessions and the cross-site guard: they are GET-only and carry
 * no user data.
 */
export function opsRoutes(deps: { metrics: Metrics; pool?: PoolStats }): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  /**
   * Ready when the database answers and its schema is exactly the one this
   * code expects (no pending migration, none from a newer release): an
   * emptied database answers and names every migration as pending. The
   * outbox and the last backups are reported but never make the process
   * unready: a stalled queue is a mail problem, and taking every replica out
   * of the load balancer for it would stop the store, not the mail; nor does
   * a missed backup stop the store. Either reads "unknown" while its table
   * cannot be read (the schema is not there yet).
   */
  routes.get("/readyz", async (c) => {
    const { db, logger } = c.var;
    let migrations;
    try {
      migrations = await findMigrationStatus(db);
    } catch (err) {
      logger.log("error", "readyz: database check failed", { error: String(err) });
      return c.json({ status: "error", database: "unreachable" }, 503);
    }
    const migrationsOk = migrations.pending.length === 0 && migrations.unknown.length === 0;
    const outbox = await findOutboxBacklog(db).then(
      (o) => ({ status: o.oldestDueSeconds > OUTBOX_STALLED_SECONDS ? "stalled" : "ok", ...o }),
      () => ({ status: "unknown" }),
    );
    const backup = await findBackupStatus(db).catch(() => ({ status: "unknown" }));
    return c.json({
      status: migrationsOk ? "ok" : "error",
      database: "ok",
      migrations: {
        status: migrationsOk ? "ok" : "error",
        applied: migrations.applied.length,
        pending: migrations.pending,
        unknown: migrations.unknown,
      },
      outbox,
      backup,
    }, migrationsOk ? 200 : 503);
  });

  /** Off (404) unless METRICS_TOKEN is set; then only for `Authorization: Bearer <token>`. */
  routes.get("/metrics", async (c) => {
    const token = c.var.config.metricsToken;
    if (!token) return c.notFound();
    const given = /^Bearer (.+)$/i.exec(c.req.header("authorization") ?? "")?.[1] ?? "";
    if (!sameSecret(given, token)) {
      c.header("WWW-Authenticate", 'Bearer realm="metrics"');
      return c.json({ message: "Unauthorized: /metrics needs its bearer token" }, 401);
    }
    // The database's figures when it answers; this process's own counters always.
    const [outbox, backup] = await Promise.all([
      withinScrape(findOutboxBacklog(c.var.db)),
      withinScrape(findBackupStatus(c.var.db)),
    ]);
    c.header("Cache-Control", "no-store");
    return c.body(deps.metrics.render({ outbox, backup, pool: deps.pool }), 200, {
      "Content-Type": "text/plain; version=0.0.4; charset=utf-8",
    });
  });

  return routes;
}
