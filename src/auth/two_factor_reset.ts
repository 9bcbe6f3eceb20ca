import type { DB } from "../db/database.ts";
import type { Logger } from "../http/logger.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import { deliverEmail, enqueueEmail } from "../mail/outbox.ts";
import { isMailConfigured } from "../mail/mail_settings.ts";
import { composeTwoFactorResetEmail } from "../mail/messages/two_factor_reset.tsx";
import { findBranding } from "../settings/settings.ts";
import { isUuid } from "../db/ids.ts";
import { disableTwoFactor } from "./two_factor.ts";
import { deleteAccountFailures, SECOND_FACTOR_PURPOSE } from "./password_failures.ts";
import { invalidateUserSessions } from "./session.ts";

/** How the user was told: by e-mail (sent now or queued for a retry), or not at all and why. */
export type ResetNotice = "sent" | "queued" | "no_email" | "not_configured";

export type TwoFactorResetResult =
  | { ok: true; username: string; notice: ResetNotice; to: string | null }
  | { ok: false; status: 403 | 404 | 409; message: string };

/**
 * An owner turns another user's second factor off: the way back for an admin
 * who lost their phone and their recovery codes, or whose codes are locked
 * after too many wrong ones. The secret, the recovery codes, the open sign-in
 * challenges, the wrong-code count and every session of the user go; it is
 * audited, and the user is told by e-mail (through the outbox), so a reset
 * they did not ask for does not go unnoticed.
 */
export async function resetTwoFactorByOwner(
  deps: { db: DB; appUrl: string; secretKey: Uint8Array; logger: Logger },
  actor: AuditActor & { id: string; role: string; name: string },
  targetId: string,
): Promise<TwoFactorResetResult> {
  const { db } = deps;
  if (actor.role !== "OWNER") {
    return { ok: false, status: 403, message: "Only an owner can reset two-factor sign-in" };
  }
  const user = isUuid(targetId)
    ? await db.selectFrom("users")
      .select(["id", "username", "firstName", "email", "totpEnabledAt"])
      .where("id", "=", targetId).executeTakeFirst()
    : undefined;
  if (!user) return { ok: false, status: 404, message: "User not found" };
  if (user.id === actor.id) {
    return {
      ok: false,
      status: 403,
      message: "Change your own two-factor sign-in on your account page, with a current code.",
    };
  }
  if (!user.totpEnabledAt) {
    return { ok: false, status: 409, message: "This user has no two-factor sign-in to reset." };
  }
  await db.transaction().execute(async (trx) => {
    await disableTwoFactor(trx, user.id);
    await trx.deleteFrom("twoFactorChallenges").where("userId", "=", user.id).execute();
    await deleteAccountFailures(trx, user.id, SECOND_FACTOR_PURPOSE);
    await invalidateUserSessions(trx, user.id);
    await recordAudit(trx, actor, "user.two_factor_reset", "user", user.id, {
      username: user.username,
    });
  });
  if (!user.email) return { ok: true, username: user.username, notice: "no_email", to: null };
  if (!await isMailConfigured(db)) {
    return { ok: true, username: user.username, notice: "not_configured", to: user.email };
  }
  const mail = composeTwoFactorResetEmail(await findBranding(db, null), {
    name: user.firstName.trim() || user.username,
    username: user.username,
    resetBy: actor.name,
    appUrl: deps.appUrl,
  });
  const outboxId = await enqueueEmail(db, {
    kind: "SECURITY_NOTICE",
    quoteId: null,
    to: user.email,
    ...mail,
    createdBy: actor.id,
  });
  const sent = await deliverEmail(db, deps.secretKey, outboxId, new Date(), deps.logger);
  return {
    ok: true,
    username: user.username,
    notice: sent.status === "sent" ? "sent" : "queued",
    to: user.email,
  };
}
