// The client's "your glasses are ready" e-mail: queued through the outbox
// when a job becomes READY, held for the store's undo window (a step back
// before then takes it back, so a wrong click sends nothing) and, outside
// opening hours, until the store opens.
import type { DB } from "../db/database.ts";
import type { AuditActor } from "../audit/audit_log.ts";
import { fillTemplate } from "../mail/templates.ts";
import { findBranding } from "../settings/settings.ts";
import { hoursText, nextOpenInstant } from "./opening_hours.ts";
import { findStoreHours } from "./store_hours.ts";

export const READY_SUBJECT_DEFAULT = "Your glasses are ready";
export const READY_BODY_DEFAULT = "Hello {firstName},\n\n" +
  "Your glasses (job {jobNumber}) are ready for pickup at {storeName}.\n\n" +
  "Our hours: {storeHours}\n\nSee you soon,\n{storeName}";

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

/** The e-mail's words from the store's template (Settings), or the built-in ones. */
export function composeReadyNotice(
  template: { subject: string | null; body: string | null },
  vars: { firstName: string; jobNumber: string; storeName: string; storeHours: string },
) {
  const subject = fillTemplate(template.subject?.trim() || READY_SUBJECT_DEFAULT, vars);
  const text = fillTemplate(template.body?.trim() || READY_BODY_DEFAULT, vars);
  const html = text.split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`).join("\n");
  return { subject, text, html };
}

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
    .select(["jobs.jobNumber", "clients.firstName", "clients.email"])
    .where("jobs.id", "=", jobId).executeTakeFirstOrThrow();
  if (!job.email?.trim()) return { skipped: "The client has no e-mail address." };
  const settings = await trx.selectFrom("settings")
    .select(["readyEmailSubject", "readyEmailBody", "readyUndoMinutes"])
    .where("id", "=", 1).executeTakeFirstOrThrow();
  const hours = await findStoreHours(trx);
  const branding = await findBranding(trx);
  const mail = composeReadyNotice(
    { subject: settings.readyEmailSubject, body: settings.readyEmailBody },
    {
      firstName: job.firstName,
      jobNumber: job.jobNumber,
      storeName: branding.storeName,
      storeHours: hoursText(hours),
    },
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
