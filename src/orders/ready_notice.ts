// The client's "your glasses are ready" e-mail: queued through the outbox
// when a job becomes READY, held for the store's undo window (a step back
// before then takes it back, so a wrong click sends nothing) and, outside
// opening hours, until the store opens.
import type { DB } from "../db/database.ts";
import type { AuditActor } from "../audit/audit_log.ts";
import { composeReadyNotice } from "../mail/messages/ready_notice.tsx";
import { findBranding, settingsOfStore } from "../settings/settings.ts";
import { hoursText, nextOpenInstant } from "./opening_hours.ts";
import { findStoreHours } from "./store_hours.ts";

/**
 * Queues the notice, due at the end of the undo window or the next opening
 * after it. Returns when it will go, or why it will not (no e-mail on file).
 */
export async function queueReadyNotice(
  trx: DB,
  jobId: string,
  actor: AuditActor,
  now: Date,
): Promise<{ sendAt: Date } | { skipped: string }> {
  const job = await trx.selectFrom("jobs")
    .innerJoin("orders", "orders.id", "jobs.orderId")
    .innerJoin("clients", "clients.id", "orders.clientId")
    .select(["jobs.jobNumber", "jobs.pickupStoreId", "clients.firstName", "clients.email"])
    .where("jobs.id", "=", jobId).executeTakeFirstOrThrow();
  if (!job.email?.trim()) return { skipped: "The client has no e-mail address." };
  // The store the glasses wait in: its wording, its name and address, its hours.
  const settings = await settingsOfStore(trx, job.pickupStoreId)
    .select((eb) => [
      eb.fn.coalesce("stores.readyEmailSubject", "settings.readyEmailSubject")
        .as("readyEmailSubject"),
      eb.fn.coalesce("stores.readyEmailBody", "settings.readyEmailBody").as("readyEmailBody"),
      "settings.readyUndoMinutes",
    ]).executeTakeFirstOrThrow();
  const hours = await findStoreHours(trx, job.pickupStoreId);
  const branding = await findBranding(trx, job.pickupStoreId);
  const mail = composeReadyNotice(
    branding,
    { subject: settings.readyEmailSubject, body: settings.readyEmailBody },
    { firstName: job.firstName, jobNumber: job.jobNumber, storeHours: hoursText(hours) },
  );
  const sendAt = nextOpenInstant(
    new Date(now.getTime() + settings.readyUndoMinutes * 60_000),
    hours,
  );
  await trx.insertInto("emailOutbox").values({
    quoteId: null,
    jobId,
    kind: "READY_NOTICE",
    toAddress: job.email.trim(),
    subject: mail.subject,
    html: mail.html,
    textBody: mail.text,
    createdBy: actor.id,
    nextAttemptAt: sendAt,
  }).execute();
  return { sendAt };
}

/** Takes back a notice not yet tried (the job stepped back from READY). */
export async function cancelReadyNotice(trx: DB, jobId: string): Promise<number> {
  const rows = await trx.deleteFrom("emailOutbox")
    .where("jobId", "=", jobId).where("kind", "=", "READY_NOTICE")
    .where("status", "=", "PENDING").where("attempts", "=", 0)
    .returning("id").execute();
  return rows.length;
}
