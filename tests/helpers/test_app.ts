import { type Config, loadConfig } from "../../src/config/config.ts";
import { type DB, openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrate.ts";
import { readManifest } from "../../src/assets/manifest.ts";
import { createApp } from "../../src/http/app.ts";
import { silentLogger } from "../../src/http/logger.ts";
import { createTestDatabase } from "./database.ts";
import { hashPassword } from "../../src/auth/password.ts";
import { insertUser } from "../../src/users/users.ts";
import { createSession, generateSessionToken } from "../../src/auth/session.ts";
import type { Role } from "../../db/schema.ts";

export interface TestApp {
  baseUrl: string;
  db: DB;
  config: Config;
  close(): Promise<void>;
}

/** The real app on a real socket and its own migrated database. */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const testDb = await createTestDatabase();
  const database = await openDatabase(testDb.url, "/nonexistent");
  await migrateToLatest(database.db);
  const config = await loadConfig({
    DATABASE_URL: testDb.url,
    PORT: "0",
    LOG_REQUESTS: "0",
    ...env,
  });
  const app = createApp({
    db: database.db,
    config,
    manifest: await readManifest(),
    logger: silentLogger,
  });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
  const baseUrl = `http://127.0.0.1:${server.addr.port}`;
  config.appUrl = baseUrl;
  return {
    baseUrl,
    db: database.db,
    config,
    async close() {
      await server.shutdown();
      await database.close();
      await testDb.drop();
    },
  };
}

let userCounter = 0;

export interface TestUser {
  id: string;
  username: string;
  password: string;
  role: Role;
}

export async function createTestUser(
  db: DB,
  init: { role?: Role; username?: string; password?: string; firstName?: string; email?: string } =
    {},
): Promise<TestUser> {
  const username = init.username ?? `user${++userCounter}_${crypto.randomUUID().slice(0, 6)}`;
  const password = init.password ?? "correct horse";
  const role = init.role ?? "AUTHORIZED_USER";
  const user = await insertUser(db, {
    username,
    firstName: init.firstName ?? "",
    email: init.email ?? null,
    role,
    passwordHash: await hashPassword(password),
  });
  return { id: user.id, username, password, role };
}

/** Signs a user in the way the app does, minus the form: returns the Cookie header. */
export async function sessionCookieFor(db: DB, userId: string): Promise<string> {
  const token = generateSessionToken();
  await createSession(db, token, userId);
  return `lensdesk_session=${token}`;
}

export interface CallResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A JSON API call as a browser on this site would make it. */
export async function call<T = Record<string, unknown>>(
  app: TestApp,
  method: string,
  path: string,
  options: { body?: unknown; cookie?: string; headers?: Record<string, string> } = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers["content-type"] ??= "application/json";
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  }
  const res = await fetch(app.baseUrl + path, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON; keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}
