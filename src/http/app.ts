import { Hono } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { requestId } from "hono/request-id";
import { compress } from "hono/compress";
import { serveStatic } from "hono/deno";
import { fileURLToPath } from "node:url";
import type { AppEnv } from "./app_env.ts";
import type { DB } from "../db/database.ts";
import type { Config } from "../config/config.ts";
import type { AssetManifest } from "../assets/manifest.ts";
import { jsonLogger, type Logger } from "./logger.ts";
import { HttpError } from "./errors.ts";
import { bodyLimit, clientAddress, crossSiteGuard, loadSession, requestLog } from "./middleware.ts";
import {
  createLoginThrottle,
  createPublicLimits,
  type LoginThrottle,
  type PublicLimits,
} from "../auth/throttle.ts";
import { sql } from "kysely";
import { authApi } from "../../routes/api/auth.ts";
import { clientsApi } from "../../routes/api/clients.ts";
import { quotesApi } from "../../routes/api/quotes.ts";
import { publicPages, renderLanding } from "../../routes/pages/public.tsx";
import { renderDashboard } from "../../routes/pages/dashboard.tsx";
import { renderNotFound } from "../../routes/pages/not_found.tsx";
import { intakePages } from "../../routes/pages/intake.tsx";
import { clientsPages } from "../../routes/pages/clients.tsx";
import { quotePages } from "../../routes/pages/quote.tsx";
import { tabletPages } from "../../routes/pages/tablet.tsx";
import { printPages } from "../../routes/pages/print.tsx";
import { quotesListPages } from "../../routes/pages/quotes_list.tsx";
import { adminSettingsPages } from "../../routes/pages/admin_settings.tsx";
import { adminCatalogPages } from "../../routes/pages/admin_catalog.tsx";
import { adminUsersPages } from "../../routes/pages/admin_users.tsx";
import { quotePdfApi } from "../../routes/api/quote_pdf.ts";
import { quoteEmailApi } from "../../routes/api/quote_email.ts";
import { adminSettingsApi } from "../../routes/api/admin_settings.ts";
import { adminUsersApi } from "../../routes/api/admin_users.ts";
import { adminCatalogApi } from "../../routes/api/admin_catalog.ts";

export interface AppDeps {
  db: DB;
  config: Config;
  manifest: AssetManifest;
  logger?: Logger;
  loginThrottle?: LoginThrottle;
  publicLimits?: PublicLimits;
}

/** Paths only signed-in staff may open; visitors are sent to sign in first. */
export const PROTECTED_PREFIXES = [
  "/dashboard",
  "/clients",
  "/quotes",
  "/quote",
  "/admin",
  "/print",
  "/tablet",
];

export function isProtectedPath(path: string): boolean {
  return PROTECTED_PREFIXES.some((p) => path === p || path.startsWith(p + "/"));
}

const staticRoot = fileURLToPath(new URL("../../static", import.meta.url));

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const { db, config, manifest } = deps;
  const logger = deps.logger ?? jsonLogger;
  const loginThrottle = deps.loginThrottle ?? createLoginThrottle();
  const publicLimits = deps.publicLimits ?? createPublicLimits();
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    c.set("db", db);
    c.set("config", config);
    c.set("logger", logger);
    c.set("loginThrottle", loginThrottle);
    c.set("publicLimits", publicLimits);
    c.set("user", null);
    c.set("session", null);
    await next();
  });
  app.use(requestId({ limitLength: 64 }));
  app.use(clientAddress);
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

  app.use(secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: [NONCE, "'strict-dynamic'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "data:"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
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

  app.use(
    "/static/build/*",
    async (c, next) => {
      await next();
      // Names carry a content hash: a changed file is a new URL.
      if (c.res.ok) c.header("Cache-Control", "public, max-age=31536000, immutable");
    },
  );
  const rewriteRequestPath = (p: string) => p.replace(/^\/static/, "");
  // The build writes .br and .gz beside each file; the best one accepted is sent.
  app.use(
    "/static/build/*",
    serveStatic({ root: staticRoot, rewriteRequestPath, precompressed: true }),
  );
  app.use("/static/*", serveStatic({ root: staticRoot, rewriteRequestPath }));

  app.get("/healthz", async (c) => {
    try {
      await sql`select 1`.execute(db);
      return c.json({ status: "ok", database: "ok" });
    } catch (err) {
      logger.log("error", "healthz: database unreachable", { error: String(err) });
      return c.json({ status: "error", database: "unreachable" }, 503);
    }
  });

  app.use(crossSiteGuard);
  app.use(bodyLimit(config.maxJsonBytes));
  app.use(loadSession);

  // API
  const api = new Hono<AppEnv>();
  api.route("/", authApi);
  api.route("/", clientsApi);
  api.route("/", quotePdfApi);
  api.route("/", quoteEmailApi);
  api.route("/", adminSettingsApi);
  api.route("/", adminUsersApi);
  api.route("/", adminCatalogApi);
  api.route("/", quotesApi);
  api.all("*", (c) => c.json({ message: `No API route for ${c.req.method} ${c.req.path}` }, 404));
  app.route("/api", api);

  // Pages
  app.use(async (c, next) => {
    if (!c.var.user && isProtectedPath(c.req.path)) {
      const url = new URL(c.req.url);
      return c.redirect(`/staff?returnTo=${encodeURIComponent(url.pathname + url.search)}`, 302);
    }
    await next();
  });
  app.get("/", (c) => c.var.user ? renderDashboard(c, manifest) : renderLanding(c, manifest));
  app.get("/dashboard", (c) => renderDashboard(c, manifest));
  app.route("/", publicPages(manifest));
  app.route("/", intakePages(manifest));
  app.route("/", clientsPages(manifest));
  app.route("/", quotePages(manifest));
  app.route("/", tabletPages(manifest));
  app.route("/", printPages(manifest));
  app.route("/", quotesListPages(manifest));
  app.route("/", adminSettingsPages(manifest));
  app.route("/", adminCatalogPages(manifest));
  app.route("/", adminUsersPages(manifest));

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
      return c.json(
        err.errors ? { message: err.message, errors: err.errors } : { message: err.message },
        err.status,
      );
    }
    logger.log("error", "unhandled error", {
      reqId: c.var.requestId,
      path: c.req.path,
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
