import { type Config, loadConfig } from "../../src/config/config.ts";
import type { DB } from "../../src/db/database.ts";
import { readManifest } from "../../src/assets/manifest.ts";
import { createApp } from "../../routes/app.ts";
import { type Logger, silentLogger } from "../../src/http/logger.ts";
import { openMigratedTestDatabase } from "./database.ts";
import { hashPassword } from "../../src/auth/password.ts";
import { insertUser } from "../../src/users/users.ts";
import { createSession, generateSessionToken } from "../../src/auth/session.ts";
import type { KioskKind, Role } from "../../db/schema.ts";
import { createKioskSession } from "../../src/kiosk/kiosk_session.ts";
import { addUserStores, findFirstStore } from "../../src/stores/stores.ts";
import { request as httpRequest } from "node:http";
import { Buffer } from "node:buffer";
import { PdfPool } from "../../src/pdf/pdf_pool.ts";
export { waitUntil } from "./wait.ts";

export interface TestApp {
  baseUrl: string;
  /** The Hono app being served: its `routes` list every route (the route-table test reads it). */
  app: ReturnType<typeof createApp>;
  db: DB;
  config: Config;
  /** The app's PDF pool, closed with the app so no test leaks a renderer process. */
  pdf: PdfPool;
  close(): Promise<void>;
}

/** A logger that keeps every line, for tests of what goes to the server log. */
export function capturingLogger() {
  const lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = [];
  const logger: Logger = {
    log(level, message, fields) {
      lines.push({ level, message, fields });
    },
  };
  return { logger, lines };
}

/** The real app on a real socket and its own migrated database. */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { logger?: Logger; clock?: () => Date } = {},
): Promise<TestApp> {
  const testDb = await openMigratedTestDatabase();
  const database = testDb.handle;
  const config = await loadConfig({
    DATABASE_URL: testDb.url,
    PORT: "0",
    LOG_REQUESTS: "0",
    ...env,
  });
  const pdf = new PdfPool(config.pdf);
  const app = createApp({
    db: database.db,
    config,
    pdf,
    manifest: await readManifest(),
    logger: options.logger ?? silentLogger,
    pool: database.pool,
    clock: options.clock,
  });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
  const baseUrl = `http://127.0.0.1:${server.addr.port}`;
  config.appUrl = baseUrl;
  return {
    baseUrl,
    app,
    db: database.db,
    config,
    pdf,
    async close() {
      await server.shutdown();
      await pdf.close();
      await testDb.close();
    },
  };
}

/**
 * Another app process on the same database, as a second replica behind a
 * proxy is: its own app, memory and PDF pool, on its own socket.
 */
export async function startReplica(of: TestApp): Promise<Pick<TestApp, "baseUrl" | "close">> {
  const pdf = new PdfPool(of.config.pdf);
  const app = createApp({
    db: of.db,
    config: of.config,
    pdf,
    manifest: await readManifest(),
    logger: silentLogger,
  });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}`,
    async close() {
      await server.shutdown();
      await pdf.close();
    },
  };
}

let userCounter = 0;

/*
 * One argon2id hash per password a process: a hash takes ~40 ms of CPU and
 * the suite makes hundreds of staff users. Users sharing a hash
 * changes nothing a test reads: each signs in with its own name.
 */
const hashes = new Map<string, Promise<string>>();
export function testHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, hash = hashPassword(password));
  return hash;
}

export interface TestUser {
  id: string;
  username: string;
  password: string;
  role: Role;
}

export async function createTestUser(
  db: DB,
  init: {
    role?: Role;
    username?: string;
    password?: string;
    firstName?: string;
    email?: string;
    /** An owner who signed in through the OIDC provider: no local password. */
    external?: boolean;
    /** The stores they work in (else the chain's first; an OWNER works in all anyway). */
    storeIds?: string[];
    /** An ADMIN of the whole chain (the default, as every admin before 0037) or of their stores. */
    chainAdmin?: boolean;
  } = {},
): Promise<TestUser> {
  const username = init.username ?? `user${++userCounter}_${crypto.randomUUID().slice(0, 6)}`;
  const password = init.password ?? "correct horse";
  const role = init.role ?? "AUTHORIZED_USER";
  const user = await insertUser(db, {
    username,
    firstName: init.firstName ?? "",
    email: init.email ?? null,
    role,
    passwordHash: init.external ? null : await testHash(password),
    ...(init.external ? { isExternal: true, externalSubject: crypto.randomUUID() } : {}),
    ...(init.chainAdmin === undefined ? {} : { chainAdmin: init.chainAdmin }),
  });
  await addUserStores(db, user.id, init.storeIds ?? [(await findFirstStore(db)).id]);
  return { id: user.id, username, password, role };
}

/** A staff user (createTestUser) and the Cookie header of a session of theirs: the sign-in fixture. */
export async function signedInUser(db: DB, init: Parameters<typeof createTestUser>[1] = {}) {
  const user = await createTestUser(db, init);
  return { user, cookie: await sessionCookieFor(db, user.id) };
}

/** Signs a user in the way the app does, minus the form: returns the Cookie header. */
export async function sessionCookieFor(db: DB, userId: string): Promise<string> {
  const token = generateSessionToken();
  await createSession(db, token, userId);
  return `lensdesk_session=${token}`;
}

/**
 * Signs in with a password over HTTP, as the sign-in form does, against any
 * server (a process, a container): returns the Cookie header.
 */
export async function passwordSignIn(
  app: Pick<TestApp, "baseUrl">,
  username: string,
  password: string,
): Promise<string> {
  const res = await call(app, "POST", "/api/staff/login", { body: { username, password } });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${res.text.slice(0, 300)}`);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

/**
 * A browser handed to a client, minus the button: inserts a kiosk session
 * (as "Hand to client" does) and returns its Cookie header.
 */
export async function kioskCookieFor(
  db: DB,
  init: { kind: KioskKind; quoteId?: string; handedOverBy: string; storeId?: string },
): Promise<string> {
  const { token } = await createKioskSession(db, {
    kind: init.kind,
    quoteId: init.quoteId ?? null,
    handedOverBy: init.handedOverBy,
    storeId: init.storeId ?? (await findFirstStore(db)).id,
  });
  return `lensdesk_kiosk=${token}`;
}

export interface CallResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** The `name=value` pair a response sets for a cookie (not a deletion), for the next call's Cookie header. */
export function cookieFrom(res: { headers: Headers }, name: string): string | undefined {
  for (const header of res.headers.getSetCookie()) {
    const [pair] = header.split(";");
    if (pair.startsWith(`${name}=`) && pair.length > name.length + 1) return pair;
  }
  return undefined;
}

/** A JSON API call as a browser on this site would make it. */
export async function call<T = Record<string, unknown>>(
  app: Pick<TestApp, "baseUrl">,
  method: string,
  path: string,
  options: {
    body?: unknown;
    cookie?: string;
    headers?: Record<string, string>;
    /**
     * The loopback address to call from (e.g. "127.0.0.7"), so tests can stand
     * for several client addresses; the server sees it as the socket's peer.
     */
    from?: string;
  } = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers["content-type"] ??= "application/json";
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  }
  const res = options.from
    ? await requestFrom(options.from, app.baseUrl + path, method, headers, body)
    : await fetch(app.baseUrl + path, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON; keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** fetch() cannot choose its source address; node:http can. */
function requestFrom(
  localAddress: string,
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; headers: Headers; text(): Promise<string> }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: target.hostname,
      port: target.port,
      path: target.pathname + target.search,
      method,
      headers,
      localAddress,
    }, (res) => {
      const chunks: Uint8Array[] = [];
      res.on("data", (chunk: Uint8Array) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const out = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : [value ?? ""]) out.append(name, v);
        }
        const text = new TextDecoder().decode(Buffer.concat(chunks));
        resolve({ status: res.statusCode ?? 0, headers: out, text: () => Promise.resolve(text) });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}
