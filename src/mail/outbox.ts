import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import { findMailSettings, recordMailOutcome } from "./mail_settings.ts";
import { sendViaSmtp } from "./transport.ts";
import type { Logger } from "../http/logger.ts";

/** Minutes to wait after the 1st, 2nd, … failed attempt; then the message is FAILED. */
export const RETRY_DELAYS_MIN = [1, 5, 15, 30, 60, 120, 240];
export const MAX_ATTEMPTS = RETRY_DELAYS_MIN.length + 1;
/** How long a claimed message is held before another worker may try it. */
const CLAIM_MINUTES = 5;

export interface NewEmail {
  quoteId: string | null;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachmentName?: string;
  attachment?: Uint8Array;
  createdBy: string | null;
}

export async function enqueueEmail(db: DB, email: NewEmail): Promise<string> {
  const row = await db.insertInto("emailOutbox").values({
    quoteId: email.quoteId,
    toAddress: email.to,
    subject: email.subject,
    html: email.html,
    textBody: email.text,
    attachmentName: email.attachmentName ?? null,
    attachment: email.attachment ?? null,
    createdBy: email.createdBy,
  }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export type DeliveryResult =
  | { status: "sent"; messageId: string }
  | { status: "retrying"; error: string; nextAttemptAt: Date }
  | { status: "failed"; error: string }
  | { status: "busy" };

/**
 * Tries to send one queued message now. The row is claimed atomically first,
 * so the request that queued it and the background worker never both send it.
 * Success marks a quote EMAILED (unless it has moved past that: accepted,
 * finalized or closed).
 */
export async function deliverEmail(
  db: DB,
  secretKey: Uint8Array,
  id: string,
  now = new Date(),
): Promise<DeliveryResult> {
  const claimed = await db.updateTable("emailOutbox")
    .set({ nextAttemptAt: new Date(now.getTime() + CLAIM_MINUTES * 60_000) })
    .where("id", "=", id).where("status", "=", "PENDING").where("nextAttemptAt", "<=", now)
    .returning([
      "id",
      "quoteId",
      "toAddress",
      "subject",
      "html",
      "textBody",
      "attachmentName",
      "attachment",
      "attempts",
    ])
    .executeTakeFirst();
  if (!claimed) return { status: "busy" };
  const settings = await findMailSettings(db, secretKey);
  try {
    if (!settings.configured) throw new Error("Email is not configured");
    const messageId = await sendViaSmtp(settings, {
      to: claimed.toAddress,
      subject: claimed.subject,
      html: claimed.html,
      text: claimed.textBody,
      attachment: claimed.attachment && claimed.attachmentName
        ? { filename: claimed.attachmentName, content: claimed.attachment }
        : undefined,
    });
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("emailOutbox").set({
        status: "SENT",
        sentAt: new Date(),
        messageId,
        attempts: claimed.attempts + 1,
        lastError: null,
      }).where("id", "=", id).execute();
      if (claimed.quoteId) {
        await trx.updateTable("quotes").set((eb) => ({
          status: sql`case when status in ('ACCEPTED', 'FINALIZED', 'CLOSED') then status
            else 'EMAILED' end`,
          emailedAt: new Date(),
          version: eb("version", "+", 1),
          updatedAt: new Date(),
        })).where("id", "=", claimed.quoteId).execute();
      }
    });
    await recordMailOutcome(db, null);
    return { status: "sent", messageId };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    const attempts = claimed.attempts + 1;
    await recordMailOutcome(db, error);
    if (attempts >= MAX_ATTEMPTS) {
      await db.updateTable("emailOutbox").set({ status: "FAILED", attempts, lastError: error })
        .where("id", "=", id).execute();
      return { status: "failed", error };
    }
    const nextAttemptAt = new Date(now.getTime() + RETRY_DELAYS_MIN[attempts - 1] * 60_000);
    await db.updateTable("emailOutbox").set({ attempts, lastError: error, nextAttemptAt })
      .where("id", "=", id).execute();
    return { status: "retrying", error, nextAttemptAt };
  }
}

/** Sends every message whose time has come; returns how many were tried. */
export async function deliverDue(db: DB, secretKey: Uint8Array, now = new Date()) {
  const due = await db.selectFrom("emailOutbox").select("id").where("status", "=", "PENDING")
    .where("nextAttemptAt", "<=", now).orderBy("nextAttemptAt").limit(20).execute();
  for (const { id } of due) await deliverEmail(db, secretKey, id, now);
  return due.length;
}

/** Retries queued mail in the background until stopped. */
export function startOutboxWorker(
  db: DB,
  secretKey: Uint8Array,
  logger: Logger,
  intervalMs = 30_000,
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => deliverDue(db, secretKey)).catch((err) =>
      logger.log("error", "outbox delivery failed", { error: String(err) })
    );
  }, intervalMs);
  Deno.unrefTimer(timer);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
