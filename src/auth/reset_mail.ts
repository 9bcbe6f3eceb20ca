import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import type { Logger } from "../http/logger.ts";
import { deliverEmail, enqueueEmail } from "../mail/outbox.ts";
import { isMailConfigured } from "../mail/mail_settings.ts";
import {
  composePasswordResetEmail,
  REDACTED_RESET_BODY,
} from "../mail/messages/password_reset.tsx";
import { findBranding } from "../settings/settings.ts";
import { recordAudit } from "../audit/audit_log.ts";
import { issueResetToken, RESET_TOKEN_TTL_MS, resetLink } from "./password_reset.ts";
import { takeResetAllowance } from "./reset_limits.ts";

export interface ResetMailDeps {
  db: DB;
  appUrl: string;
  secretKey: Uint8Array;
  logger: Logger;
}

export interface ResetMailTarget {
  id: string;
  username: string;
  firstName: string;
  email: string | null;
}

export type ResetMailResult =
  | { status: "sent" | "queued"; to: string }
  | { status: "no_email" | "not_configured" | "limited" };

/**
 * Issues a reset link for one account and mails it through the outbox: the
 * row is queued, then sent at once; when the mail server is down the outbox
 * worker retries. The link lives in the stored row only until it is sent
 * (or could no longer work), then it is removed: the database never keeps a
 * usable token, only the hash.
 */
export async function sendResetMail(
  deps: ResetMailDeps,
  user: ResetMailTarget,
  requestedBy?: { id: string; label: string; name: string },
): Promise<ResetMailResult> {
  const { db } = deps;
  if (!user.email) return { status: "no_email" };
  if (!await isMailConfigured(db)) return { status: "not_configured" };
  if (await takeResetAllowance(db, [{ kind: "user", value: user.id }]) > 0) {
    await recordAudit(
      db,
      requestedBy ?? { id: null, label: "password reset" },
      "auth.password_reset_limited",
      "user",
      user.id,
      {},
    );
    return { status: "limited" };
  }
  const token = await issueResetToken(db, user.id);
  const branding = await findBranding(db, null);
  const mail = composePasswordResetEmail(branding, {
    name: user.firstName.trim() || user.username,
    username: user.username,
    link: resetLink(deps.appUrl, token),
    minutes: RESET_TOKEN_TTL_MS / 60_000,
    requestedBy: requestedBy?.name,
  });
  const outboxId = await enqueueEmail(db, {
    kind: "PASSWORD_RESET",
    quoteId: null,
    to: user.email,
    ...mail,
    createdBy: requestedBy?.id ?? null,
  });
  await recordAudit(
    db,
    requestedBy ?? { id: user.id, label: user.username },
    requestedBy ? "user.send_reset_email" : "auth.password_reset_requested",
    "user",
    user.id,
    { to: user.email, outboxId },
  );
  const result = await deliverEmail(db, deps.secretKey, outboxId, new Date(), deps.logger);
  await redactResetMails(db);
  return { status: result.status === "sent" ? "sent" : "queued", to: user.email };
}

/**
 * Removes the link from reset mails that no longer need it: sent or given up,
 * or older than a link lives (those still pending are given up: a late mail
 * would carry a dead link). Cheap: reset mails are few and the filter is on kind.
 */
export async function redactResetMails(db: DB, now = new Date()) {
  const lapsed = new Date(now.getTime() - RESET_TOKEN_TTL_MS);
  await db.updateTable("emailOutbox").set({
    html: REDACTED_RESET_BODY,
    textBody: REDACTED_RESET_BODY,
    status: sql`case when status = 'PENDING' then 'FAILED' else status end`,
    lastError: sql`case when status = 'PENDING'
      then 'The reset link expired before the mail could be sent.' else last_error end`,
  })
    .where("kind", "=", "PASSWORD_RESET")
    .where("html", "!=", REDACTED_RESET_BODY)
    .where((eb) => eb.or([eb("status", "!=", "PENDING"), eb("createdAt", "<=", lapsed)]))
    .execute();
}

/** Accounts a forgotten-password request for this address may reach (not provider owners). */
export function findResettableUsersByEmail(db: DB, email: string) {
  return db.selectFrom("users").select(["id", "username", "firstName", "email"])
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.trim().toLowerCase()))
    .where("isExternal", "=", false)
    .execute();
}
