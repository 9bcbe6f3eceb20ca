// Kiosk sessions: what a browser runs on after staff press "Hand to client".
// Built like staff sessions (src/auth/session.ts): a random token in an
// HttpOnly cookie, only its SHA-256 in the database. It carries no user: the
// person holding the tablet is a client, and every guard that needs a staff
// member refuses them; src/kiosk/scope.ts lists the few things they may do.
import type { Context } from "hono";
import { appCookie } from "../http/app_cookie.ts";
import type { DB } from "../db/database.ts";
import type { KioskKind } from "../../db/schema.ts";
import { generateSessionToken, hashToken } from "../auth/session.ts";
import { displayName } from "../users/users.ts";

/**
 * A kiosk lives 30 minutes from the hand-over, however busy: long enough for
 * an intake form or a choice of options, short enough that a tablet left with
 * a client does not stay usable for long. It is not extended by use.
 */
export const KIOSK_TTL_MS = 30 * 60 * 1000;

export interface KioskSession {
  id: string;
  kind: KioskKind;
  /** QUOTE: the quote handed over. INTAKE: the quote created with the client, once submitted. */
  quoteId: string | null;
  /** INTAKE: the client it created, once submitted. */
  clientId: string | null;
  expiresAt: Date;
  /** Its one write (the confirmation, the intake) is done: nothing more may be written. */
  completed: boolean;
  /** The staff member who handed the tablet over: shown on the return form. */
  handedOverBy: { id: string; username: string; displayName: string };
  /** The store that handed it over: what it writes (an intake's client and quote) belongs there. */
  storeId: string;
}

export async function createKioskSession(
  db: DB,
  init: {
    kind: KioskKind;
    quoteId: string | null;
    handedOverBy: string;
    storeId: string;
    ip?: string;
    userAgent?: string;
  },
  now = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = generateSessionToken();
  const expiresAt = new Date(now.getTime() + KIOSK_TTL_MS);
  await db.insertInto("kioskSessions").values({
    id: hashToken(token),
    kind: init.kind,
    quoteId: init.quoteId,
    handedOverBy: init.handedOverBy,
    storeId: init.storeId,
    createdAt: now,
    expiresAt,
    ip: init.ip ?? null,
    userAgent: init.userAgent?.slice(0, 400) ?? null,
  }).execute();
  return { token, expiresAt };
}

/** The kiosk a cookie's token stands for, or undefined (unknown or expired: then it is gone). */
export async function validateKioskToken(
  db: DB,
  token: string,
  now = new Date(),
): Promise<KioskSession | undefined> {
  const id = hashToken(token);
  const row = await db.selectFrom("kioskSessions")
    .innerJoin("users", "users.id", "kioskSessions.handedOverBy")
    .select([
      "kioskSessions.id",
      "kioskSessions.kind",
      "kioskSessions.quoteId",
      "kioskSessions.clientId",
      "kioskSessions.expiresAt",
      "kioskSessions.completedAt",
      "kioskSessions.storeId",
      "users.id as userId",
      "users.username",
      "users.firstName",
      "users.email",
    ])
    .where("kioskSessions.id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  if (now.getTime() >= row.expiresAt.getTime()) {
    await endKioskSession(db, id);
    return undefined;
  }
  return {
    id: row.id,
    kind: row.kind,
    quoteId: row.quoteId,
    clientId: row.clientId,
    expiresAt: row.expiresAt,
    completed: row.completedAt !== null,
    handedOverBy: { id: row.userId, username: row.username, displayName: displayName(row) },
    storeId: row.storeId,
  };
}

/**
 * Takes the kiosk's one write for the caller: true for the first caller only,
 * so two taps on Confirm (or two intake posts) cannot both go through. The
 * caller gives it back with releaseKioskWrite when its write fails.
 */
export async function claimKioskWrite(db: DB, id: string, now = new Date()): Promise<boolean> {
  const result = await db.updateTable("kioskSessions").set({ completedAt: now })
    .where("id", "=", id).where("completedAt", "is", null).where("expiresAt", ">", now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function releaseKioskWrite(db: DB, id: string): Promise<void> {
  await db.updateTable("kioskSessions").set({ completedAt: null }).where("id", "=", id).execute();
}

/** An intake kiosk's result: the client it created and that client's new quote. */
export async function recordKioskIntake(
  db: DB,
  id: string,
  created: { clientId: string; quoteId: string },
): Promise<void> {
  await db.updateTable("kioskSessions")
    .set({ clientId: created.clientId, quoteId: created.quoteId })
    .where("id", "=", id).execute();
}

export async function endKioskSession(db: DB, id: string): Promise<void> {
  await db.deleteFrom("kioskSessions").where("id", "=", id).execute();
}

export async function deleteExpiredKioskSessions(db: DB, now = new Date()): Promise<void> {
  await db.deleteFrom("kioskSessions").where("expiresAt", "<=", now).execute();
}

/** Where the browser goes once staff are back: the quote the kiosk was about. */
export function staffLanding(kiosk: KioskSession | null): string {
  if (!kiosk) return "/dashboard";
  if (kiosk.quoteId) return `/quote/${kiosk.quoteId}`;
  return "/intake";
}

// Its own name, so the staff cookie and the kiosk cookie are never confused.
// Strict: no other site can make the tablet send it, not even by a link.
const kioskCookie = appCookie("lensdesk_kiosk", "Strict");

export function readKioskCookie(c: Context, secure: boolean): string | undefined {
  return kioskCookie.read(c, secure);
}

export function setKioskCookie(c: Context, token: string, expiresAt: Date, secure: boolean) {
  kioskCookie.set(c, token, expiresAt, secure);
}

export function deleteKioskCookie(c: Context, secure: boolean) {
  kioskCookie.delete(c, secure);
}
