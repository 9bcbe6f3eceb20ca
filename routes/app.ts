import { Hono } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { requestId } from "hono/request-id";
import { compress } from "hono/compress";
import { serveStatic } from "hono/deno";
import { fileURLToPath } from "node:url";
import type { AppEnv } from "../src/http/app_env.ts";
import type { DB, PoolStats } from "../src/db/database.ts";
import type { Config } from "../src/config/config.ts";
import type { AssetManifest } from "../src/assets/manifest.ts";
import { jsonLogger, type Logger } from "../src/http/logger.ts";
import type { PdfPool } from "../src/pdf/pdf_pool.ts";
import { HttpError } from "../src/http/errors.ts";
import {
  bodyLimit,
  clientAddress,
  crossSiteGuard,
  loadSession,
  loggedPath,
  queryGuard,
  requestLog,
} from "../src/http/middleware.ts";
import { createPublicLimits, type PublicLimits } from "../src/auth/rate_counts.ts";
import { sql } from "kysely";
import { Metrics, metricsMiddleware, refuseUnknownMethods } from "../src/http/metrics.ts";
import { opsRoutes } from "./ops.ts";
import { authApi } from "./api/auth.ts";
import { clientsApi } from "./api/clients.ts";
import { prescriptionsApi } from "./api/prescriptions.ts";
import { quoteCarryOverApi } from "./api/quote_carry_over.ts";
import { quotesApi } from "./api/quotes.ts";
import { ordersApi } from "./api/orders.ts";
import { publicPages, renderLanding } from "./pages/public.tsx";
import { onlineQuotePages } from "./pages/online_quote.tsx";
import { renderDashboard } from "./pages/dashboard.tsx";
import { renderNotFound } from "./pages/not_found.tsx";
import { renderBadRequest } from "./pages/bad_request.tsx";
import { renderUnavailablePage, RETRY_AFTER_SECONDS } from "./pages/unavailable.ts";
import {
  isDatabaseUnavailable,
  isRetryableConflict,
  isStatementTimeout,
} from "../src/db/errors.ts";
import { isDiskFull, isEmbeddedStopped } from "../src/db/embedded_faults.ts";
import { intakePages } from "./pages/intake.tsx";
import { clientsPages } from "./pages/clients.tsx";
import { quotePages } from "./pages/quote.tsx";
import { tabletPages } from "./pages/tablet.tsx";
import { printPages } from "./pages/print.tsx";
import { quotesListPages } from "./pages/quotes_list.tsx";
import { ordersPages } from "./pages/orders.tsx";
import { adminSettingsPages } from "./pages/admin_settings.tsx";
import { adminCatalogPages } from "./pages/admin_catalog.tsx";
import { adminUsersPages } from "./pages/admin_users.tsx";
import { adminStoresPages } from "./pages/admin_stores.tsx";
import { adminAuditPages } from "./pages/admin_audit.tsx";
import { reportsPages } from "./pages/reports.tsx";
import { passwordRecoveryPages } from "./pages/password_recovery.tsx";
import { reportsApi } from "./api/reports.ts";
import { quotePdfApi } from "./api/quote_pdf.ts";
import { quoteEmailApi } from "./api/quote_email.ts";
import { quoteLinksApi } from "./api/quote_links.ts";
import { adminSettingsApi } from "./api/admin_settings.ts";
import { adminUsersApi } from "./api/admin_users.ts";
import { storesApi } from "./api/stores.ts";
import { storeSwitchApi } from "./api/store_switch.ts";
import { adminCatalogApi } from "./api/admin_catalog.ts";
import { historyApi } from "./api/history.ts";
import { CATALOG_IMPORT_PATH, catalogCsvApi } from "./api/catalog_csv.ts";
import { CSV_MAX_BYTES } from "../src/catalog/catalog_csv.ts";
import { CATALOG_CSV_TOO_LARGE } from "../src/schemas/catalog.ts";
import { kioskApi } from "./api/kiosk.ts";
import { renderKioskNotice } from "./pages/kiosk.tsx";
import { kioskGate } from "../src/kiosk/gate.ts";
import { type IdempotentRoute, idempotentWrites } from "../src/http/idempotency.ts";
import { searchApi } from "./api/search.ts";
import { UPLOAD_CSP, uploadedFiles, uploadsApi } from "./api/uploads.ts";
import { isUploadPut } from "../src/uploads/upload_url.ts";
import { TrustedProxies } from "../src/http/client_address.ts";
import { MAX_UPLOAD_BYTES } from "../src/uploads/image_rules.ts";

export interface AppDeps {
  db: DB;
  config: Config;
  manifest: AssetManifest;
  /** Made and closed by the caller (main.ts, the test app), which owns the workers. */
  pdf: PdfPool;
  logger?: Logger;
  publicLimits?: PublicLimits;
  /** This process's request counters for /metrics (a fresh set when omitted). */
  metrics?: Metrics;
  /** The database pool's live figures for /metrics. */
  pool?: PoolStats;
  /** The app's clock: the order rules and the Idempotency-Key store read it (tests move it
   * instead of waiting). */
  clock?: () => Date;
}

/**
 * The writes that honour an Idempotency-Key: the intake and its consents
 * (signed out, staff and kiosk), the quote save, which carries the tablet's
 * selection and the kiosk's confirmation, and the money and job writes of
 * orders (a payment or refund sent again after a lost answer is taken once).
 */
export const IDEMPOTENT_ROUTES: readonly IdempotentRoute[] = [
  { method: "POST", path: /^\/api\/clients$/ },
  { method: "POST", path: /^\/api\/consent$/ },
  { method: "PUT", path: /^\/api\/quotes\/[^/]+$/ },
  { method: "POST", path: /^\/api\/quotes\/[^/]+\/order$/ },
  { method: "POST", path: /^\/api\/orders\/[^/]+\/payments$/ },
  { method: "POST", path: /^\/api\/jobs\/[^/]+\/step$/ },
  { method: "PUT", path: /^\/api\/jobs\/[^/]+\/promised-date$/ },
];

/** Paths only signed-in staff may open; visitors are sent to sign in first. */
export const PROTECTED_PREFIXES = [
  "/dashboard",
  "/clients",
  "/quotes",
  "/quote",
  "/admin",
  "/print",
  "/tablet",
  "/reports",
  "/orders",
];

export function isProtectedPath(path: string): boolean {
  return PROTECTED_PREFIXES.some((p) => path === p || path.startsWith(p + "/"));
}

const staticRoot = fileURLToPath(new URL("../static", import.meta.url));

/** The service worker of the intake and tablet pages. */
export const SERVICE_WORKER_PATH = "/static/sw.js";

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const { db, config, manifest } = deps;
  const logger = deps.logger ?? jsonLogger;
  const app = new Hono<AppEnv>();
  const clock = deps.clock ?? (() => new Date());
  const publicLimits = deps.publicLimits ?? createPublicLimits(() => clock().getTime());

  // Counted (under "other", one series) and refused before anything else.
  const metrics = deps.metrics ?? new Metrics();
  app.use(metricsMiddleware(metrics));
  app.use(refuseUnknownMethods);
  app.use(async (c, next) => {
    c.set("db", db);
    c.set("config", config);
    c.set("logger", logger);
    c.set("pdf", deps.pdf);
    c.set("publicLimits", publicLimits);
    c.set("user", null);
    c.set("session", null);
    c.set("kiosk", null);
    c.set("clock", clock);
    await next();
  });
  app.use(requestId({ limitLength: 64 }));
  const trustedProxies = new TrustedProxies(config.trustedProxies);
  // Host names are looked up in the background; until then they trust nothing.
  trustedProxies.start().catch(() => {});
  app.use(clientAddress(trustedProxies));
  app.use(requestLog);
  // Pages and JSON; built assets are served precompressed instead.
  app.use(compress());
  app.use(async (c, next) => {
    await next();
    // Registered before secureHeaders so it runs after it on the way out.
    // Chrome shows a PDF through its built-in viewer, which a page CSP such as
    // object-src 'none' can block; the PDF itself runs no script.
    if (c.res.headers.get("content-type")?.startsWith("application/pdf")) {
      c.res.headers.delete("Content-Security-Policy");
    }
  });
  app.use("/uploads/*", async (c, next) => {
    await next();
    // Replaces the page CSP (same ordering trick): an uploaded SVG opened on
    // its own is a sandboxed document with no script source.
    c.res.headers.set("Content-Security-Policy", UPLOAD_CSP);
  });

  app.use(secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: [NONCE, "'strict-dynamic'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "data:"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      // The tablets' service worker, /static/sw.js (script-src alone would refuse it).
      workerSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
    },
    referrerPolicy: "strict-origin-when-cross-origin",
    strictTransportSecurity: config.secureCookies ? "max-age=31536000; includeSubDomains" : false,
    crossOriginEmbedderPolicy: false,
    xFrameOptions: "DENY",
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  }));

  // Nothing but the static files and the uploaded branding images (public,
  // under content-hashed names) may be kept by the browser: every page and
  // API answer (JSON, PDF, redirect, error) says no-store, so after Logout the
  // Back button asks the server again (and is sent to sign in) instead of
  // showing the last client from the cache. A no-store page is also not kept
  // in Chrome's back/forward cache once the session cookie has changed.
  app.use(async (c, next) => {
    await next();
    if (c.req.path.startsWith("/static/") || c.req.path.startsWith("/uploads/")) return;
    // A route may say more (the PDF's "private, no-store"), never less.
    const said = c.res.headers.get("Cache-Control") ?? "";
    const headers = c.res.headers;
    if (!/\bno-store\b/.test(said)) headers.set("Cache-Control", "no-store");
    // Said here for compress() too, which would otherwise add it with
    // c.header(). Headers are set on the answer itself (as secureHeaders
    // does), never with c.header() once a handler has answered: that copies
    // the answer into a new Response around its body's stream, and a page
    // then leaves through the streaming path instead of as one string, which
    // cost /clients about a third of its throughput.
    if (!/\baccept-encoding\b/i.test(headers.get("Vary") ?? "")) {
      headers.append("Vary", "Accept-Encoding");
    }
  });

  app.use(
    "/static/build/*",
    async (c, next) => {
      await next();
      // Names carry a content hash: a changed file is a new URL.
      if (c.res.ok) c.res.headers.set("Cache-Control", "public, max-age=31536000, immutable");
    },
  );
  const rewriteRequestPath = (p: string) => p.replace(/^\/static/, "");
  // The build writes .br and .gz beside each file; the best one accepted is sent.
  app.use(
    "/static/build/*",
    serveStatic({ root: staticRoot, rewriteRequestPath, precompressed: true }),
  );
  app.use("/static/*", async (c, next) => {
    await next();
    if (c.req.path !== SERVICE_WORKER_PATH || !c.res.ok) return;
    // Served under /static/ but scoped to the whole site; checked for an update
    // on every navigation rather than kept like the other static files.
    c.res.headers.set("Service-Worker-Allowed", "/");
    c.res.headers.set("Cache-Control", "no-cache");
  });
  app.use("/static/*", serveStatic({ root: staticRoot, rewriteRequestPath }));
  app.route("/uploads", uploadedFiles);

  app.get("/healthz", async (c) => {
    try {
      await sql`select 1`.execute(db);
      return c.json({ status: "ok", database: "ok" });
    } catch (err) {
      logger.log("error", "healthz: database unreachable", { error: String(err) });
      return c.json({ status: "error", database: "unreachable" }, 503);
    }
  });

  app.route("/", opsRoutes({ metrics, pool: deps.pool }));

  app.use(crossSiteGuard);
  app.use(bodyLimit(config.maxJsonBytes, [
    {
      matches: (_method, path) => CATALOG_IMPORT_PATH.test(path),
      maxBytes: CSV_MAX_BYTES,
      message: CATALOG_CSV_TOO_LARGE,
    },
    // The route caps each upload further at its purpose's size (logo 5 MB, favicon 1 MB).
    { matches: isUploadPut, maxBytes: MAX_UPLOAD_BYTES },
  ]));
  app.use(queryGuard);
  app.use(loadSession);
  app.use(kioskGate((c) => renderKioskNotice(c, manifest)));
  // The writes a tablet may send again after a lost answer.
  app.use("/api/*", idempotentWrites(IDEMPOTENT_ROUTES, clock));

  // API
  const api = new Hono<AppEnv>();
  // First: for a kiosk session it answers the few writes a kiosk may make.
  api.route("/", kioskApi);
  api.route("/", authApi);
  api.route("/", historyApi);
  api.route("/", catalogCsvApi);
  api.route("/", reportsApi);
  api.route("/", clientsApi);
  api.route("/", prescriptionsApi);
  api.route("/", quoteCarryOverApi);
  api.route("/", quotePdfApi);
  api.route("/", quoteEmailApi);
  api.route("/", quoteLinksApi);
  api.route("/", adminSettingsApi);
  api.route("/", adminUsersApi);
  api.route("/", storesApi);
  api.route("/", storeSwitchApi);
  api.route("/", adminCatalogApi);
  api.route("/", ordersApi);
  api.route("/", quotesApi);
  api.route("/", searchApi);
  api.route("/", uploadsApi);
  api.all("*", (c) => c.json({ message: `No API route for ${c.req.method} ${c.req.path}` }, 404));
  app.route("/api", api);

  // Pages
  app.use(async (c, next) => {
    // A kiosk got past the gate only on its own pages, which it may open.
    if (!c.var.user && !c.var.kiosk && isProtectedPath(c.req.path)) {
      const url = new URL(c.req.url);
      return c.redirect(`/staff?returnTo=${encodeURIComponent(url.pathname + url.search)}`, 302);
    }
    await next();
  });
  app.get("/", (c) => c.var.user ? renderDashboard(c, manifest) : renderLanding(c, manifest));
  app.get("/dashboard", (c) => renderDashboard(c, manifest));
  app.route("/", publicPages(manifest));
  app.route("/", onlineQuotePages(manifest));
  app.route("/", intakePages(manifest));
  app.route("/", clientsPages(manifest));
  app.route("/", quotePages(manifest));
  app.route("/", tabletPages(manifest));
  app.route("/", printPages(manifest));
  app.route("/", quotesListPages(manifest));
  app.route("/", ordersPages(manifest));
  app.route("/", adminSettingsPages(manifest));
  app.route("/", adminCatalogPages(manifest));
  app.route("/", adminUsersPages(manifest));
  app.route("/", adminStoresPages(manifest));
  app.route("/", adminAuditPages(manifest));
  app.route("/", reportsPages(manifest));
  app.route("/", passwordRecoveryPages(manifest));

  app.notFound((c) => {
    if (c.req.path.startsWith("/api/") || c.req.path === "/api") {
      return c.json({ message: "Not found" }, 404);
    }
    return renderNotFound(c, manifest);
  });

  app.onError((err, c) => {
    const wantsJson = c.req.path.startsWith("/api") ||
      (c.req.header("accept") ?? "").includes("application/json");
    if (err instanceof HttpError) {
      if (err.headers) { for (const [k, v] of Object.entries(err.headers)) c.header(k, v); }
      if (!wantsJson && err.status === 404) return renderNotFound(c, manifest);
      if (!wantsJson && err.status === 400) return renderBadRequest(c, manifest, err.message);
      return c.json(
        err.errors ? { message: err.message, errors: err.errors } : { message: err.message },
        err.status,
      );
    }
    const unavailable = databaseUnavailableMessage(err);
    if (unavailable) {
      // Said once per request, without a stack: the server's own log has the why.
      logger.log("warn", "database unavailable", {
        reqId: c.var.requestId,
        path: loggedPath(c.req.path),
        error: err instanceof Error ? err.message : String(err),
      });
      if (!wantsJson) return renderUnavailablePage(c, unavailable);
      return c.json({ message: unavailable }, 503, {
        "Retry-After": String(RETRY_AFTER_SECONDS),
      });
    }
    logger.log("error", "unhandled error", {
      reqId: c.var.requestId,
      path: loggedPath(c.req.path),
      error: err instanceof Error ? err.stack ?? err.message : String(err),
    });
    return c.json(
      {
        message: `Something went wrong on our side (request ${c.var.requestId}). Please try again.`,
      },
      500,
    );
  });

  return app;
}

/**
 * What a request is told when the database, not the request, is why it
 * failed; undefined for any other error. The write, if any, either committed
 * whole or not at all: sent again with its Idempotency-Key it is answered
 * from what committed, never done twice.
 */
export function databaseUnavailableMessage(err: unknown): string | undefined {
  if (isEmbeddedStopped(err)) {
    return "The store's database has stopped: the disk it keeps its data on is full. " +
      "Lensdesk is restarting; this change was not saved.";
  }
  if (isDiskFull(err)) {
    return "The disk of the computer running Lensdesk is full: this change was not saved. " +
      "Free space on it, then try again.";
  }
  if (isDatabaseUnavailable(err)) {
    return "The store's database is not answering right now (it may be restarting). " +
      "Please try again in a few seconds.";
  }
  if (isStatementTimeout(err)) {
    return "The database took too long to answer this and stopped it. Please try again; " +
      "if it keeps happening, ask for less at once (a shorter period, a narrower search).";
  }
  if (isRetryableConflict(err)) {
    return "This met another change made at the same moment and was not saved. " +
      "Please try again.";
  }
  return undefined;
}
