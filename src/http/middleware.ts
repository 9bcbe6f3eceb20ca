import type { MiddlewareHandler } from "hono";
import { getConnInfo } from "hono/deno";
import type { AppEnv } from "./app_env.ts";
import { forbidden, HttpError, unauthorized } from "./errors.ts";
import { deleteSessionCookie, readSessionCookie, validateSessionToken } from "../auth/session.ts";
import type { Role } from "../../db/schema.ts";
import { deleteKioskCookie, readKioskCookie, validateKioskToken } from "../kiosk/kiosk_session.ts";
import { CONTROL_CHARS_MESSAGE, safeText } from "../schemas/text.ts";
import { clientAddressOf, type TrustedProxies } from "./client_address.ts";

/**
 * The caller's address: the socket's peer, or the client a trusted proxy
 * names (src/http/client_address.ts).
 */
export function clientAddress(trusted: TrustedProxies): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let ip = "unknown";
    try {
      const info = getConnInfo(c);
      ip = info.remote.address ?? "unknown";
    } catch {
      // app.request() in tests has no socket.
    }
    c.set("clientIp", clientAddressOf(ip, c.req.header("x-forwarded-for"), trusted));
    await next();
  };
}

/**
 * A path as the log shows it. An online quote link's token works like a
 * password (whoever holds it may accept the quote), so it is never written:
 * `/q/{token}/accept` is logged as `/q/:token/accept`.
 */
export const loggedPath = (path: string) => path.replace(/^\/q\/[^/]*/, "/q/:token");

/** One line per request with its id, so a support call can be traced in the log. */
export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = performance.now();
  await next();
  if (!c.var.config.logRequests) return;
  c.var.logger.log(c.res.status >= 500 ? "error" : "info", "request", {
    reqId: c.var.requestId,
    method: c.req.method,
    path: loggedPath(c.req.path),
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
 * limit is refused at once; a chunked body is counted as it streams. A few
 * routes that take files rather than JSON have a larger limit of their own.
 */
export function bodyLimit(
  defaultMaxBytes: number,
  /** Routes with a limit of their own (the CSV import takes 5 MB, a file upload 10 MB). */
  overrides: BodyLimitOverride[] = [],
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const override = overrides.find((o) => o.matches(c.req.method, c.req.path));
    const maxBytes = override?.maxBytes ?? defaultMaxBytes;
    const declared = c.req.header("content-length");
    if (declared !== undefined && Number(declared) > maxBytes) {
      throw tooLarge(maxBytes, override?.message);
    }
    if (declared === undefined && c.req.raw.body) {
      const body = await readBodyWithin(c.req.raw, maxBytes, override?.message);
      c.req.raw = new Request(c.req.raw, { body });
    }
    await next();
  };
}

export interface BodyLimitOverride {
  matches: (method: string, path: string) => boolean;
  maxBytes: number;
  /** The 413's message, when the generic one would not tell the user what to do. */
  message?: string;
}

/** The whole request body as bytes, with a 413 as soon as it passes `maxBytes`. */
export async function readBodyWithin(
  req: Request,
  maxBytes: number,
  message?: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes, message);
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req.body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge(maxBytes, message);
    chunks.push(chunk);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function tooLarge(maxBytes: number, message?: string) {
  if (message) return new HttpError(413, message);
  const limit = maxBytes > 1024 * 1024
    ? `${Math.round(maxBytes / (1024 * 1024))} MB`
    : `${Math.round(maxBytes / 1024)} KiB`;
  return new HttpError(413, `Request body too large (limit ${limit})`);
}

/**
 * Sets c.var.user and c.var.session from the session cookie, if any, or
 * c.var.kiosk from the kiosk cookie. A live kiosk wins over any staff cookie:
 * a browser handed to a client is never staff until a staff password is typed.
 */
export const loadSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const secure = c.var.config.secureCookies;
  c.set("user", null);
  c.set("session", null);
  c.set("kiosk", null);
  const kioskToken = readKioskCookie(c, secure);
  if (kioskToken) {
    const kiosk = await validateKioskToken(c.var.db, kioskToken);
    if (kiosk) {
      c.set("kiosk", kiosk);
      return await next();
    }
    deleteKioskCookie(c, secure);
  }
  const token = readSessionCookie(c, secure);
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

const queryText = safeText();

/**
 * Every query parameter of every route, names and values, goes through the
 * shared string block before any handler: a NUL in `?q=` used to reach the
 * database and come back as a 500. Routes still validate their own
 * parameters; this catches the ones a route only compares or forgets.
 */
export const queryGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const params = new URL(c.req.url).searchParams;
  for (const [name, value] of params) {
    if (!queryText.safeParse(name).success || !queryText.safeParse(value).success) {
      const field = queryText.safeParse(name).success ? name : "query";
      throw new HttpError(
        400,
        `${field}: ${CONTROL_CHARS_MESSAGE.toLowerCase()}`,
        { [field]: CONTROL_CHARS_MESSAGE },
      );
    }
  }
  await next();
};
