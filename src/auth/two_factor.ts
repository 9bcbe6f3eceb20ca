import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { decodeBase64, encodeBase64 } from "@oslojs/encoding";
import type { DB } from "../db/database.ts";
import type { Role } from "../../db/schema.ts";
import { decryptSecret, encryptSecret } from "../mail/secret_box.ts";
import { generateSessionToken, hashToken } from "./session.ts";
import {
  hashRecoveryCode,
  manualKey,
  matchTotpStep,
  newRecoveryCodes,
  newTotpKey,
  totpQrDataUrl,
  totpUri,
} from "./totp.ts";

/** Roles that may (and, when the owner requires it, must) use a second factor. */
export const canUseTwoFactor = (role: Role) => role === "ADMIN" || role === "OWNER";

export async function isTwoFactorRequired(db: DB): Promise<boolean> {
  const s = await db.selectFrom("settings").select("requireTwoFactor").where("id", "=", 1)
    .executeTakeFirstOrThrow();
  return s.requireTwoFactor;
}

/**
 * What a right password leads to: a session at once, the code step, or (the
 * store requires a second factor and the account has none) enrolment first.
 * Accounts of the owner provider never come here (the provider signs them in).
 */
export async function secondFactorStep(
  db: DB,
  user: { role: Role; totpEnabledAt: Date | null },
): Promise<"none" | "verify" | "enrol"> {
  if (user.totpEnabledAt) return "verify";
  if (canUseTwoFactor(user.role) && await isTwoFactorRequired(db)) return "enrol";
  return "none";
}

// ---- The step between the password and the second factor ----

const CHALLENGE_MS = 10 * 60_000;
/** Wrong codes allowed on one challenge; then the password must be typed again. */
export const CHALLENGE_ATTEMPTS = 5;
const challengeCookie = (secure: boolean) => secure ? "__Host-lensdesk_2fa" : "lensdesk_2fa";

export async function startChallenge(
  c: Context,
  db: DB,
  userId: string,
  returnTo: string,
  secure: boolean,
) {
  const token = generateSessionToken();
  const now = Date.now();
  await db.deleteFrom("twoFactorChallenges")
    .where((eb) => eb.or([eb("userId", "=", userId), eb("expiresAt", "<=", new Date(now))]))
    .execute();
  await db.insertInto("twoFactorChallenges").values({
    id: hashToken(token),
    userId,
    expiresAt: new Date(now + CHALLENGE_MS),
    returnTo,
  }).execute();
  setCookie(c, challengeCookie(secure), token, {
    httpOnly: true,
    sameSite: "Strict",
    secure,
    path: "/",
    maxAge: CHALLENGE_MS / 1000,
  });
}

/** The challenge this browser holds, if it is still good. */
export async function readChallenge(c: Context, db: DB, secure: boolean) {
  const token = getCookie(c, challengeCookie(secure));
  if (!token) return undefined;
  const row = await db.selectFrom("twoFactorChallenges").selectAll()
    .where("id", "=", hashToken(token)).executeTakeFirst();
  if (!row || row.expiresAt.getTime() <= Date.now() || row.attempts >= CHALLENGE_ATTEMPTS) {
    return undefined;
  }
  return row;
}

/** Counts a wrong code; returns how many tries are left. */
export async function failChallenge(db: DB, id: string): Promise<number> {
  const row = await db.updateTable("twoFactorChallenges")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where("id", "=", id).returning("attempts").executeTakeFirst();
  return Math.max(0, CHALLENGE_ATTEMPTS - (row?.attempts ?? CHALLENGE_ATTEMPTS));
}

export async function endChallenge(c: Context, db: DB, id: string, secure: boolean) {
  await db.deleteFrom("twoFactorChallenges").where("id", "=", id).execute();
  deleteCookie(c, challengeCookie(secure), { path: "/", secure });
}

// ---- Enrolment ----

export interface EnrolmentMaterial {
  /** otpauth:// URI, also inside the QR code. */
  uri: string;
  qrDataUrl: string;
  /** The key in base32 groups, for typing into an app by hand. */
  manualKey: string;
}

/** A fresh secret, kept pending (encrypted) until a code from it confirms it. */
export async function beginEnrolment(
  db: DB,
  secretKey: Uint8Array,
  user: { id: string; username: string },
  issuer: string,
): Promise<EnrolmentMaterial> {
  const key = newTotpKey();
  await db.updateTable("users")
    .set({ totpPendingSecretEnc: await encryptSecret(secretKey, encodeBase64(key)) })
    .where("id", "=", user.id).execute();
  const uri = totpUri(key, issuer, user.username);
  return { uri, qrDataUrl: totpQrDataUrl(uri), manualKey: manualKey(key) };
}

async function keyOf(secretKey: Uint8Array, enc: string | null): Promise<Uint8Array | null> {
  if (!enc) return null;
  const b64 = await decryptSecret(secretKey, enc);
  return b64 ? decodeBase64(b64) : null;
}

/**
 * Confirms enrolment with a code from the pending secret; returns the new
 * recovery codes (shown once; only their hashes are kept), or null.
 */
export async function confirmEnrolment(
  db: DB,
  secretKey: Uint8Array,
  userId: string,
  code: string,
  nowMs = Date.now(),
): Promise<string[] | null> {
  const user = await db.selectFrom("users").select(["totpPendingSecretEnc"])
    .where("id", "=", userId).executeTakeFirstOrThrow();
  const key = await keyOf(secretKey, user.totpPendingSecretEnc);
  if (!key) return null;
  const step = matchTotpStep(key, code.trim(), nowMs, null);
  if (step === null) return null;
  const codes = newRecoveryCodes();
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({
      totpSecretEnc: user.totpPendingSecretEnc,
      totpPendingSecretEnc: null,
      totpEnabledAt: new Date(nowMs),
      totpLastStep: step.toString(),
    }).where("id", "=", userId).execute();
    await trx.deleteFrom("totpRecoveryCodes").where("userId", "=", userId).execute();
    await trx.insertInto("totpRecoveryCodes")
      .values(codes.map((c) => ({ id: hashRecoveryCode(c), userId }))).execute();
  });
  return codes;
}

/** Turns the second factor off: secret, pending secret and recovery codes (in the caller's transaction, if any). */
export async function disableTwoFactor(db: DB, userId: string) {
  const atOnce = (work: (trx: DB) => Promise<void>) =>
    db.isTransaction ? work(db) : db.transaction().execute(work);
  await atOnce(async (trx) => {
    await trx.updateTable("users").set({
      totpSecretEnc: null,
      totpPendingSecretEnc: null,
      totpEnabledAt: null,
      totpLastStep: null,
    }).where("id", "=", userId).execute();
    await trx.deleteFrom("totpRecoveryCodes").where("userId", "=", userId).execute();
  });
}

/**
 * Checks a second factor: a 6-digit code (claimed with a conditional UPDATE
 * of the last step, so the same code cannot pass twice, even at once) or an
 * unused recovery code (claimed likewise). Returns what was used, or null.
 */
export async function verifySecondFactor(
  db: DB,
  secretKey: Uint8Array,
  userId: string,
  input: string,
  nowMs = Date.now(),
): Promise<"totp" | "recovery" | null> {
  const code = input.trim();
  if (/^\d{6}$/.test(code)) {
    const user = await db.selectFrom("users").select(["totpSecretEnc", "totpLastStep"])
      .where("id", "=", userId).executeTakeFirstOrThrow();
    const key = await keyOf(secretKey, user.totpSecretEnc);
    if (!key) return null;
    const last = user.totpLastStep === null ? null : BigInt(user.totpLastStep);
    const step = matchTotpStep(key, code, nowMs, last);
    if (step === null) return null;
    const claimed = await db.updateTable("users").set({ totpLastStep: step.toString() })
      .where("id", "=", userId)
      .where((eb) =>
        eb.or([eb("totpLastStep", "is", null), eb("totpLastStep", "<", step.toString())])
      )
      .returning("id").executeTakeFirst();
    return claimed ? "totp" : null;
  }
  // A recovery code: 26 characters (10 for codes made before they had 128 bits), typed with
  // or without its dashes and spaces.
  if (code.length < 10 || code.length > 40) return null;
  const used = await db.updateTable("totpRecoveryCodes").set({ usedAt: new Date(nowMs) })
    .where("id", "=", hashRecoveryCode(code)).where("userId", "=", userId)
    .where("usedAt", "is", null).returning("id").executeTakeFirst();
  return used ? "recovery" : null;
}

export async function remainingRecoveryCodes(db: DB, userId: string): Promise<number> {
  const row = await db.selectFrom("totpRecoveryCodes")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("userId", "=", userId).where("usedAt", "is", null).executeTakeFirstOrThrow();
  return Number(row.n);
}
