// Staff hear of a client's online answer by e-mail, through the outbox: the
// quote's optician (the staff member who created it, when they have an
// address), else the store's address. Sent after the answer is committed; a
// mail server that is down leaves it queued for the outbox's retries.
import type { DB } from "../db/database.ts";
import type { Config } from "../config/config.ts";
import type { Logger } from "../http/logger.ts";
import { isMailConfigured } from "../mail/mail_settings.ts";
import { deliverEmail, enqueueEmail } from "../mail/outbox.ts";
import { composeOnlineAnswerEmail, type OnlineAnswer } from "../mail/messages/online_answer.tsx";
import { findBranding } from "../settings/settings.ts";

/** Where the notice goes, or null when neither the optician nor the store has an address. */
export async function staffNoticeAddress(db: DB, quoteId: string): Promise<string | null> {
  const row = await db.selectFrom("quotes")
    .leftJoin("users", "users.id", "quotes.createdBy")
    .innerJoin("settings", (j) => j.on("settings.id", "=", 1))
    .select(["users.email as opticianEmail", "settings.storeEmail", "settings.smtpFromEmail"])
    .where("quotes.id", "=", quoteId).executeTakeFirst();
  if (!row) return null;
  return row.opticianEmail?.trim() || row.storeEmail?.trim() || row.smtpFromEmail?.trim() || null;
}

export async function notifyStaffOfAnswer(
  db: DB,
  config: Pick<Config, "appUrl" | "secretKey">,
  quoteId: string,
  answer: OnlineAnswer,
  logger: Logger,
): Promise<void> {
  try {
    if (!await isMailConfigured(db)) return;
    const to = await staffNoticeAddress(db, quoteId);
    if (!to) return;
    const quote = await db.selectFrom("quotes").select(["quoteNumber", "clientName", "storeId"])
      .where("id", "=", quoteId).executeTakeFirstOrThrow();
    const mail = composeOnlineAnswerEmail(await findBranding(db, quote.storeId), {
      quoteNumber: quote.quoteNumber,
      clientName: quote.clientName,
      quoteUrl: `${config.appUrl}/quote/${quoteId}`,
      answer,
    });
    // No quote id on the message: delivering a notice must not mark the quote EMAILED.
    const outboxId = await enqueueEmail(db, {
      kind: "STAFF_NOTICE",
      quoteId: null,
      to,
      ...mail,
      createdBy: null,
    });
    await deliverEmail(db, config.secretKey, outboxId, new Date(), logger);
  } catch (err) {
    // The client's answer is saved; a notice that could not even be queued is logged.
    logger.log("error", "online answer notice failed", {
      quoteId,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}
