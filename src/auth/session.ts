import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import type { Context } from "hono";
import { appCookie } from "../http/app_cookie.ts";
import type { CompiledQuery } from "kysely";
import { type DB, preparedOnServer } from "../db/database.ts";
import type { Role } from "../../db/schema.ts";

/** Idle expiry: a session unused for this long is gone. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** Absolute expiry: no session outlives this, however busy. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
// Extending the idle deadline on every request would write on every request;
// once a minute keeps the 30-minute window accurate to within a minute.
const SLIDE_AFTER_MS = 60 * 1000;

export interface Session {
  id: string;
  userId: string;
  expiresAt: Date;
  absoluteExpiresAt: Date;
}

export interface SessionUser {
  id: string;
  firstName: string;
  lastName: string;
  username: string;
  email: string | null;
  role: Role;
  isExternal: boolean;
  /** An ADMIN of the whole chain, not only of their stores (src/stores/scope.ts). */
  chainAdmin: boolean;
}

export type SessionValidationResult =
  | { session: Session; user: SessionUser }
  | { session: null; user: null };

/** 160 random bits, base32: the only copy lives in the user's cookie. */
export function generateSessionToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return encodeBase32LowerCaseNoPadding(bytes);
}

/** What the database stores: the SHA-256 of the token, never the token. */
export function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

export async function createSession(
  db: DB,
  token: string,
  userId: string,
  meta: { ip?: string; userAgent?: string } = {},
  now = new Date(),
): Promise<Session> {
  const session: Session = {
    id: hashToken(token),
    userId,
    expiresAt: new Date(now.getTime() + SESSION_IDLE_MS),
    absoluteExpiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
  };
  await db.insertInto("sessions").values({
    ...session,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 400) ?? null,
  }).execute();
  return session;
}

function lookupQuery(db: DB, sessionId: string) {
  return db.selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.userId")
    .select([
      "sessions.id as sessionId",
      "sessions.expiresAt",
      "sessions.absoluteExpiresAt",
      "users.id",
      "users.firstName",
      "users.lastName",
      "users.username",
      "users.email",
      "users.role",
      "users.isExternal",
      "users.chainAdmin",
    ])
    .where("sessions.id", "=", sessionId);
}

type LookupRow = Awaited<ReturnType<ReturnType<typeof lookupQuery>["executeTakeFirstOrThrow"]>>;
const compiledLookups = new WeakMap<DB, CompiledQuery<LookupRow>>();

/**
 * The lookup runs on every signed-in request and only its parameter changes:
 * it is built and compiled once per database handle, not per request, and a
 * server prepares it once per connection (a lookup by the primary key has
 * one plan for every session).
 */
function compiledLookup(db: DB, sessionId: string): CompiledQuery<LookupRow> {
  let compiled = compiledLookups.get(db);
  if (!compiled) {
    compiled = lookupQuery(db, "").compile();
    if (compiled.parameters.length !== 1) {
      throw new Error("The session lookup takes one parameter.");
    }
    compiledLookups.set(db, preparedOnServer(compiled));
  }
  return { ...compiled, parameters: [sessionId] };
}

export async function validateSessionToken(
  db: DB,
  token: string,
  now = new Date(),
): Promise<SessionValidationResult> {
  const sessionId = hashToken(token);
  const row = (await db.executeQuery(compiledLookup(db, sessionId))).rows[0];
  if (!row) return { session: null, user: null };
  const nowMs = now.getTime();
  if (nowMs >= row.expiresAt.getTime() || nowMs >= row.absoluteExpiresAt.getTime()) {
    await db.deleteFrom("sessions").where("id", "=", sessionId).execute();
    return { session: null, user: null };
  }
  let expiresAt = row.expiresAt;
  if (row.expiresAt.getTime() - nowMs <= SESSION_IDLE_MS - SLIDE_AFTER_MS) {
    expiresAt = new Date(Math.min(nowMs + SESSION_IDLE_MS, row.absoluteExpiresAt.getTime()));
    await db.updateTable("sessions").set({ expiresAt }).where("id", "=", sessionId).execute();
  }
  return {
    session: {
      id: sessionId,
      userId: row.id,
      expiresAt,
      absoluteExpiresAt: row.absoluteExpiresAt,
    },
    user: {
      id: row.id,
      firstName: row.firstName,
      lastName: row.lastName,
      username: row.username,
      email: row.email,
      role: row.role,
      isExternal: row.isExternal,
      chainAdmin: row.chainAdmin,
    },
  };
}

export async function invalidateSession(db: DB, sessionId: string): Promise<void> {
  await db.deleteFrom("sessions").where("id", "=", sessionId).execute();
}

export async function invalidateUserSessions(db: DB, userId: string): Promise<void> {
  await db.deleteFrom("sessions").where("userId", "=", userId).execute();
}

export async function deleteExpiredSessions(db: DB, now = new Date()): Promise<void> {
  await db.deleteFrom("sessions")
    .where((eb) => eb.or([eb("expiresAt", "<=", now), eb("absoluteExpiresAt", "<=", now)]))
    .execute();
}

const sessionCookie = appCookie("lensdesk_session", "Lax");

export function readSessionCookie(c: Context, secure: boolean): string | undefined {
  return sessionCookie.read(c, secure);
}

export function setSessionCookie(c: Context, token: string, session: Session, secure: boolean) {
  // The browser keeps the cookie until the absolute expiry; the server enforces
  // the idle limit, so the cookie need not be rewritten on every request.
  sessionCookie.set(c, token, session.absoluteExpiresAt, secure);
}

export function deleteSessionCookie(c: Context, secure: boolean) {
  sessionCookie.delete(c, secure);
}
