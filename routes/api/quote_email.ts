import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { auditActor } from "../../src/http/actor.ts";
import { HttpError, notFound, readJson } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { quoteEmailSchema } from "../../src/schemas/settings.ts";
import { findQuoteBundle } from "../../src/quotes/quote_bundle.ts";
import { findMailSettings } from "../../src/mail/mail_settings.ts";
import { composeQuoteEmail } from "../../src/mail/messages/quote_email.tsx";
import { deliverEmail, enqueueEmail, sendOutcome } from "../../src/mail/outbox.ts";
import { findBranding } from "../../src/settings/settings.ts";
import { quotePdfFilename, renderQuotePdf } from "../../src/pdf/render_quote_pdf.ts";
import { recordAudit } from "../../src/audit/audit_log.ts";
import { expiredBlocker, FINALIZABLE } from "../../src/quotes/rules.ts";
import { createQuoteLink } from "../../src/quotes/online_links.ts";

export const quoteEmailApi = new Hono<AppEnv>();

/**
 * E-mails the client copy (PDF attached). The message is queued first and
 * then sent at once; when the mail server cannot be reached the answer says
 * so (202) and the outbox keeps retrying, so nothing is lost.
 */
quoteEmailApi.post("/quotes/:id/email", requireUser(), async (c) => {
  const { email, note } = await readJson(c, quoteEmailSchema);
  const { db, config } = c.var;
  const bundle = await findQuoteBundle(db, c.req.param("id"));
  if (!bundle) throw notFound("Quote not found");
  if (bundle.quote.isClosed) {
    throw new HttpError(409, "This quote is closed and cannot be emailed.");
  }
  const expired = expiredBlocker(bundle.quote, "email");
  if (expired) throw new HttpError(409, expired);
  const settings = await findMailSettings(db, config.secretKey);
  if (!settings.configured) {
    throw new HttpError(
      409,
      "Email is not configured. Quote emailing is disabled until email settings are configured.",
    );
  }
  const branding = await findBranding(db, bundle.quote.storeId);
  // Made before anything is queued: when the PDF renderers are busy and the queue is full the call
  // answers 503 and nothing is sent or recorded.
  const attachment = await renderQuotePdf(c.var.db, c.var.pdf, bundle, branding, c.var.user!.id);
  const user = c.var.user!;
  // Each send gets its own online link, at the version it shows; a quote that
  // cannot be accepted now (finalized, awaiting measurements) goes without one.
  const onlineUrl = FINALIZABLE.includes(bundle.quote.status)
    ? `${config.appUrl}/q/${await createQuoteLink(db, {
      quoteId: bundle.quote.id,
      quoteVersion: bundle.quote.version,
      sentTo: email,
      createdBy: user.id,
    })}`
    : undefined;
  const composed = composeQuoteEmail(bundle, settings, branding, note, onlineUrl);
  const outboxId = await enqueueEmail(db, {
    quoteId: bundle.quote.id,
    to: email,
    ...composed,
    attachmentName: quotePdfFilename(bundle),
    attachment,
    createdBy: user.id,
  });
  // Queued, not sent: the outbox records "sent" when the mail server took it.
  await recordAudit(
    db,
    auditActor(c),
    "quote.email_queued",
    "quote",
    bundle.quote.id,
    { to: email, outboxId },
  );
  const outcome = await sendOutcome(
    db,
    outboxId,
    await deliverEmail(db, config.secretKey, outboxId, new Date(), c.var.logger),
  );
  if (outcome.status === "sent") {
    return c.json({ status: "sent", message: `Quote emailed to ${email}`, outboxId });
  }
  if (outcome.status === "sending") {
    // Another process's outbox worker claimed it between the queueing and
    // this try: it is sending it now.
    return c.json({
      status: "queued",
      message: `The quote e-mail to ${email} is being sent by the outbox right now; ` +
        "its delivery shows in the quote's history.",
      outboxId,
    }, 202);
  }
  return c.json({
    status: "queued",
    message: `The mail server could not be reached, so the quote was not sent yet. ` +
      `It is saved and will be sent automatically (next try at ${outcome.nextTry}).`,
    outboxId,
  }, 202);
});
