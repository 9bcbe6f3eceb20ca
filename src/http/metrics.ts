import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "./app_env.ts";
import type { PoolStats } from "../db/database.ts";
import type { OutboxBacklog } from "../mail/outbox.ts";
import type { BackupStatus } from "../backup/runs.ts";

/** Upper bounds (seconds) of the request duration histogram. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The methods the app answers; anything else is refused before any work
 * (refuseUnknownMethods) and counted under "other". A method is whatever token
 * the client sends, so it never becomes a label of its own.
 */
export const ROUTED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const ROUTED = new Set<string>(ROUTED_METHODS);
/** Standard methods the app has no route for: 405, where a made-up one gets 501. */
const STANDARD_UNROUTED = new Set(["CONNECT", "TRACE"]);

/** The method as a label: one of ROUTED_METHODS, or "other". */
export const methodLabel = (method: string) => ROUTED.has(method) ? method : "other";

/**
 * At most this many request series. The labels come from fixed sets (a
 * method of ROUTED_METHODS or "other", a route pattern of the app, a status
 * the app answers), so a store never comes near it; past it, new series are
 * folded into one per method and status under route "(other)", which keeps
 * /metrics small (a series is about 2 KB of text) whatever is requested.
 */
export const MAX_REQUEST_SERIES = 500;
export const OVERFLOW_ROUTE = "(other)";

interface RequestSeries {
  method: string;
  route: string;
  status: string;
  count: number;
  sum: number;
  /** Cumulative counts per DURATION_BUCKETS entry. */
  buckets: number[];
}

/**
 * This process's counters in the Prometheus text format. Each app process
 * keeps its own (scrape every replica); the queue and database figures are
 * read from the shared database at scrape time, so they agree across them.
 */
export class Metrics {
  readonly startedAt = Date.now();
  #requests = new Map<string, RequestSeries>();
  outboxPasses = 0;
  outboxTried = 0;

  observeRequest(rawMethod: string, rawRoute: string, status: number, seconds: number): void {
    const method = methodLabel(rawMethod);
    let route = rawRoute;
    let key = `${method}\n${route}\n${status}`;
    let series = this.#requests.get(key);
    if (!series && this.#requests.size >= MAX_REQUEST_SERIES) {
      route = OVERFLOW_ROUTE;
      key = `${method}\n${route}\n${status}`;
      series = this.#requests.get(key);
    }
    if (!series) {
      series = {
        method,
        route,
        status: String(status),
        count: 0,
        sum: 0,
        buckets: DURATION_BUCKETS.map(() => 0),
      };
      this.#requests.set(key, series);
    }
    series.count++;
    series.sum += seconds;
    DURATION_BUCKETS.forEach((le, i) => {
      if (seconds <= le) series.buckets[i]++;
    });
  }

  recordOutboxPass(tried: number): void {
    this.outboxPasses++;
    this.outboxTried += tried;
  }

  /**
   * `outbox` and `backup` come from the database; when it cannot be read they
   * are left out and `lensdesk_database_up` says 0, while this process's own
   * counters are still served.
   */
  render(shared: { outbox?: OutboxBacklog; backup?: BackupStatus; pool?: PoolStats }): string {
    const out: string[] = [];
    const help = (name: string, type: string, text: string) =>
      out.push(`# HELP ${name} ${text}`, `# TYPE ${name} ${type}`);
    const series = [...this.#requests.values()].sort((a, b) =>
      a.route.localeCompare(b.route) || a.method.localeCompare(b.method) ||
      a.status.localeCompare(b.status)
    );

    help(
      "lensdesk_http_requests_total",
      "counter",
      "HTTP requests answered by this process, by method, route pattern and status.",
    );
    for (const s of series) {
      out.push(`lensdesk_http_requests_total${labels(s)} ${s.count}`);
    }
    help(
      "lensdesk_http_request_duration_seconds",
      "histogram",
      "Time from receiving a request to its answer, by method, route pattern and status.",
    );
    for (const s of series) {
      DURATION_BUCKETS.forEach((le, i) => {
        out.push(
          `lensdesk_http_request_duration_seconds_bucket${labels(s, { le: String(le) })} ${
            s.buckets[i]
          }`,
        );
      });
      out.push(
        `lensdesk_http_request_duration_seconds_bucket${labels(s, { le: "+Inf" })} ${s.count}`,
        `lensdesk_http_request_duration_seconds_sum${labels(s)} ${s.sum}`,
        `lensdesk_http_request_duration_seconds_count${labels(s)} ${s.count}`,
      );
    }

    const { outbox, backup, pool } = shared;
    help(
      "lensdesk_database_up",
      "gauge",
      "1 when the database answered this scrape; 0 when it did not (its figures are then left out).",
    );
    out.push(`lensdesk_database_up ${outbox ? 1 : 0}`);
    if (outbox) {
      help(
        "lensdesk_outbox_messages",
        "gauge",
        "E-mails in the outbox: pending (waiting, due now or later), due (pending and due now), " +
          "failed (given up).",
      );
      out.push(
        `lensdesk_outbox_messages{state="pending"} ${outbox.pending}`,
        `lensdesk_outbox_messages{state="due"} ${outbox.due}`,
        `lensdesk_outbox_messages{state="failed"} ${outbox.failed}`,
      );
      help(
        "lensdesk_outbox_oldest_due_seconds",
        "gauge",
        "How long the oldest due e-mail has waited past its time (0 when none).",
      );
      out.push(`lensdesk_outbox_oldest_due_seconds ${outbox.oldestDueSeconds}`);
    }
    if (backup) {
      help(
        "lensdesk_backup_last_success_timestamp_seconds",
        "gauge",
        "When the last good backup finished (Unix time; 0 when none is recorded).",
      );
      out.push(
        `lensdesk_backup_last_success_timestamp_seconds ${unixTime(backup.lastSuccess?.at)}`,
      );
      help("lensdesk_backup_last_success_bytes", "gauge", "Size of the last good backup file.");
      out.push(`lensdesk_backup_last_success_bytes ${backup.lastSuccess?.bytes ?? 0}`);
      help(
        "lensdesk_backup_last_failure_timestamp_seconds",
        "gauge",
        "When the last failed backup gave up (Unix time; 0 when none is recorded).",
      );
      out.push(
        `lensdesk_backup_last_failure_timestamp_seconds ${unixTime(backup.lastFailure?.at)}`,
      );
      help(
        "lensdesk_backup_ok",
        "gauge",
        "1 when the last backup succeeded within the last 26 hours (as /readyz's backup.status).",
      );
      out.push(`lensdesk_backup_ok ${backup.status === "ok" ? 1 : 0}`);
    }
    help(
      "lensdesk_outbox_worker_passes_total",
      "counter",
      "Passes this process's outbox worker has finished.",
    );
    out.push(`lensdesk_outbox_worker_passes_total ${this.outboxPasses}`);
    help(
      "lensdesk_outbox_worker_tried_total",
      "counter",
      "E-mails this process's outbox worker has tried to send.",
    );
    out.push(`lensdesk_outbox_worker_tried_total ${this.outboxTried}`);

    if (pool) {
      help(
        "lensdesk_db_pool_connections",
        "gauge",
        "This process's database connections: in use by a query or transaction, and the pool size.",
      );
      out.push(
        `lensdesk_db_pool_connections{state="in_use"} ${pool.inUse}`,
        `lensdesk_db_pool_connections{state="max"} ${pool.max}`,
      );
      help(
        "lensdesk_db_pool_waiting",
        "gauge",
        "Queries of this process waiting for a free database connection.",
      );
      out.push(`lensdesk_db_pool_waiting ${pool.waiting}`);
    }

    help("process_start_time_seconds", "gauge", "When this process started (Unix time).");
    out.push(`process_start_time_seconds ${Math.floor(this.startedAt / 1000)}`);
    help("process_resident_memory_bytes", "gauge", "Resident memory of this process.");
    out.push(`process_resident_memory_bytes ${Deno.memoryUsage().rss}`);
    return out.join("\n") + "\n";
  }
}

const unixTime = (iso: string | undefined) => iso ? Math.floor(Date.parse(iso) / 1000) : 0;

function labels(s: RequestSeries, extra: Record<string, string> = {}): string {
  const all = { method: s.method, route: s.route, status: s.status, ...extra };
  return `{${
    Object.entries(all).map(([k, v]) => `${k}="${v.replace(/[\\"\n]/g, escapeLabel)}"`).join(",")
  }}`;
}

function escapeLabel(ch: string): string {
  return ch === "\n" ? "\\n" : `\\${ch}`;
}

/**
 * The route pattern that answered (`/api/quotes/:id`), never the raw path, so
 * the number of series stays bounded whatever URLs are requested. Requests no
 * route claimed (the 404 page) share one label.
 */
export function routeLabel(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string {
  const path = routePath(c);
  return !path || path === "*" || path === "/*" ? "(unmatched)" : path;
}

/**
 * Answers a method the app does not route (a made-up token, TRACE, CONNECT)
 * at once: 501 for a method HTTP does not define, 405 for one it does, before
 * sessions, logging or anything else is done for it.
 */
export const refuseUnknownMethods: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (ROUTED.has(c.req.method)) return await next();
  const status = STANDARD_UNROUTED.has(c.req.method) ? 405 : 501;
  return c.body(
    JSON.stringify({ message: "This method is not supported here." }),
    status,
    {
      "Content-Type": "application/json; charset=UTF-8",
      Allow: ROUTED_METHODS.join(", "),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  );
};

/** Times every request and counts it under its route pattern and status. */
export function metricsMiddleware(metrics: Metrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    metrics.observeRequest(
      c.req.method,
      routeLabel(c),
      c.res.status,
      (performance.now() - started) / 1000,
    );
  };
}

/** Compares two secrets in time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
