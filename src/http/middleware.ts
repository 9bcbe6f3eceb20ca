import type { MiddlewareHandler } from "hono";
import { getConnInfo } from "hono/deno";
import type { AppEnv } from "./app_env.ts";
import { forbidden, HttpError, unauthorized } from "./errors.ts";
import { deleteSessionCookie, readSessionCookie, validateSessionToken } from "../auth/session.ts";
import type { Role } from "../../db/schema.ts";

/** The caller's address as the socket saw it (no proxy headers are trusted). */
export const clientAddress: MiddlewareHandler<AppEnv> = async (c, next) => {
  let ip = "unknown";
  try {
    const info = getConnInfo(c);
    ip = info.remote.address ?? "unknown";
  } catch {
    // app.request() in tests has no socket.
  }
  c.set("clientIp", ip);
  await next();
};

/** One line per request with its id, so a support call can be traced in the log. */
export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = performance.now();
  await next();
  if (!c.var.config.logRequests) return;
  c.var.logger.log(c.res.status >= 500 ? "error" : "info", "request", {
    reqId: c.var.requestId,
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    ms: Math.round(performance.now() - started),
    user: c.var.user?.id,
  });
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses unsafe requests sent by another site, whatever their content type:
 * SameSite=Lax cookies already stop most of them, this stops the rest (for
 * example a same-site subdomain). Non-browser callers send neither header.
 */
export const crossSiteGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!SAFE_METHODS.has(c.req.method)) {
    const site = c.req.header("sec-fetch-site");
    const origin = c.req.header("origin");
    const allowed = new Set([new URL(c.var.config.appUrl).origin, new URL(c.req.url).origin]);
    if (site && site !== "same-origin" && site !== "none") {
      throw new HttpError(403, "Cross-site request blocked");
    }
    if (origin && !allowed.has(origin)) throw new HttpError(403, "Cross-site request blocked");
  }
  await next();
};

/**
 * Caps request bodies before they are read. A declared Content-Length over the
 * limit is refused at once; a chunked body is counted as it streams.
 */
export function bodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const declared = c.req.header("content-length");
    if (declared !== undefined && Number(declared) > maxBytes) throw tooLarge(maxBytes);
    if (declared === undefined && c.req.raw.body) {
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of c.req.raw.body) {
        size += chunk.byteLength;
        if (size > maxBytes) throw tooLarge(maxBytes);
        chunks.push(chunk);
      }
      const body = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        body.set(chunk, offset);
        offset += chunk.byteLength;
      }
      c.req.raw = new Request(c.req.raw, { body });
    }
    await next();
  };
}

function tooLarge(maxBytes: number) {
  return new HttpError(413, `Request body too large (limit ${Math.round(maxBytes / 1024)} KiB)`);
}

/** Sets c.var.user and c.var.session from the session cookie, if any. */
export const loadSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const secure = c.var.config.secureCookies;
  const token = readSessionCookie(c, secure);
  c.set("user", null);
  c.set("session", null);
  if (token) {
    const { session, user } = await validateSessionToken(c.var.db, token);
    if (session) {
      c.set("session", session);
      c.set("user", user);
    } else {
      deleteSessionCookie(c, secure);
    }
  }
  await next();
};

/** API guard: 401 without a session, 403 when the role is not among `roles`. */
export function requireUser(...roles: Role[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const user = c.var.user;
    if (!user) throw unauthorized();
    if (roles.length && !roles.includes(user.role)) throw forbidden();
    await next();
  };
}
