import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import type { DB } from "../db/database.ts";
import { hashToken } from "./session.ts";
import { hashPassword } from "./password.ts";
import { recordAudit } from "../audit/audit_log.ts";
import { deleteAccountFailures } from "./password_failures.ts";

/** How long a reset link works. */
export const RESET_TOKEN_TTL_MS = 30 * 60_000;

/** 256 random bits, URL-safe: the only copy travels in the e-mail. */
export function generateResetToken(): string {
  return encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)));
}

export function resetLink(appUrl: string, token: string): string {
  const url = new URL("/reset-password", appUrl);
  url.searchParams.set("token", token);
  return url.toString();
}

/**
 * A new reset token for a user; only its SHA-256 is stored. Every link of the
 * user still open is marked replaced, so only the newest mail works.
 */
export async function issueResetToken(db: DB, userId: string, now = new Date()) {
  const token = generateResetToken();
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("passwordResetTokens").set({ replacedAt: now })
      .where("userId", "=", userId).where("usedAt", "is", null).where("replacedAt", "is", null)
      .execute();
    await trx.insertInto("passwordResetTokens").values({
      id: hashToken(token),
      userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
    }).execute();
  });
  return token;
}

export const RESET_TOKEN_MESSAGES = {
  unknown: "This password reset link is not valid. Please request a new one.",
  used: "This password reset link has already been used. Please request a new one.",
  expired: "This password reset link has expired. Please request a new one.",
  replaced: "A newer password reset link was sent; only the newest one works. Please use it.",
  external:
    "This account signs in through the owner sign-in provider, so it has no password here to reset.",
} as const;
export type ResetRefusal = keyof typeof RESET_TOKEN_MESSAGES;

/**
 * Sets a new password with a reset token. The token is claimed with one
 * conditional UPDATE, so two requests with the same link cannot both use it;
 * every session of the user ends and every other open link is cancelled.
 */
export async function resetPasswordWithToken(
  db: DB,
  token: string,
  newPassword: string,
  meta: { ip: string },
  now = new Date(),
): Promise<{ ok: true; userId: string } | { ok: false; reason: ResetRefusal }> {
  const id = hashToken(token);
  // Hashed before the transaction: argon2 takes a while and holds no lock.
  const passwordHash = await hashPassword(newPassword);
  return await db.transaction().execute(async (trx) => {
    const claimed = await trx.updateTable("passwordResetTokens").set({ usedAt: now })
      .where("id", "=", id).where("usedAt", "is", null).where("replacedAt", "is", null)
      .where("expiresAt", ">", now)
      .returning("userId").executeTakeFirst();
    if (!claimed) {
      const row = await trx.selectFrom("passwordResetTokens")
        .select(["usedAt", "replacedAt", "expiresAt"]).where("id", "=", id).executeTakeFirst();
      const reason: ResetRefusal = !row
        ? "unknown"
        : row.usedAt
        ? "used"
        : row.replacedAt
        ? "replaced"
        : "expired";
      return { ok: false, reason } as const;
    }
    const user = await trx.selectFrom("users").select(["id", "username", "isExternal"])
      .where("id", "=", claimed.userId).forUpdate().executeTakeFirstOrThrow();
    if (user.isExternal) return { ok: false, reason: "external" } as const;
    await trx.updateTable("users").set({ passwordHash, updatedAt: now })
      .where("id", "=", user.id).execute();
    await trx.updateTable("passwordResetTokens").set({ replacedAt: now })
      .where("userId", "=", user.id).where("usedAt", "is", null).where("replacedAt", "is", null)
      .execute();
    // Whoever was signed in with the old password is signed out everywhere.
    await trx.deleteFrom("sessions").where("userId", "=", user.id).execute();
    // And the back-off that guesses at the old password built up is lifted:
    // the person proved they hold the account's mailbox.
    await deleteAccountFailures(trx, user.id, "password");
    await recordAudit(
      trx,
      { id: user.id, label: user.username },
      "auth.password_reset",
      "user",
      user.id,
      {
        ip: meta.ip,
      },
    );
    return { ok: true, userId: user.id } as const;
  });
}
