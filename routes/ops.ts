import { Hono } from "hono";
import type { AppEnv } from "../src/http/app_env.ts";
import type { PoolStats } from "../src/db/database.ts";
import { type Metrics, sameSecret } from "../src/http/metrics.ts";
import { findMigrationStatus } from "../src/db/migrate.ts";
import { findOutboxBacklog } from "../src/mail/outbox.ts";

/** A due e-mail waiting longer than this means no worker is picking the queue up. */
export const OUTBOX_STALLED_SECONDS = 15 * 60;

/**
 * /readyz and /metrics, for a load balancer and a Prometheus scraper. Both
 * sit before sessions and the cross-site guard: they are GET-only and carry
 * no user data.
 */
export function opsRoutes(deps: { metrics: Metrics; pool?: PoolStats }): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  /**
   * Ready when the database answers and its schema is exactly the one this
   * code expects (no pending migration, none from a newer release). The
   * outbox is reported but never makes the process unready: a stalled queue
   * is a mail problem, and taking every replica out of the load balancer
   * for it would stop the store, not the mail.
   */
  routes.get("/readyz", async (c) => {
    const { db, logger } = c.var;
    try {
      const migrations = await findMigrationStatus(db);
      const outbox = await findOutboxBacklog(db);
      const migrationsOk = migrations.pending.length === 0 && migrations.unknown.length === 0;
      const outboxStatus = outbox.oldestDueSeconds > OUTBOX_STALLED_SECONDS ? "stalled" : "ok";
      return c.json({
        status: migrationsOk ? "ok" : "error",
        database: "ok",
        migrations: {
          status: migrationsOk ? "ok" : "error",
          applied: migrations.applied.length,
          pending: migrations.pending,
          unknown: migrations.unknown,
        },
        outbox: { status: outboxStatus, ...outbox },
      }, migrationsOk ? 200 : 503);
    } catch (err) {
      logger.log("error", "readyz: database check failed", { error: String(err) });
      return c.json({ status: "error", database: "unreachable" }, 503);
    }
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
    const outbox = await findOutboxBacklog(c.var.db);
    c.header("Cache-Control", "no-store");
    return c.body(deps.metrics.render({ outbox, pool: deps.pool }), 200, {
      "Content-Type": "text/plain; version=0.0.4; charset=utf-8",
    });
  });

  return routes;
}
