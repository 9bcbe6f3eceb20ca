// The signed copy of an online acceptance (issue 33): the chosen options'
// client copy with a signature page, rendered by the PDF pool after the
// acceptance commits, kept with the acceptance, and e-mailed once to the
// address the link was sent to, through the outbox.
import type { DB } from "../db/database.ts";
import type { Config } from "../config/config.ts";
import type { Logger } from "../http/logger.ts";
import type { PdfPool } from "../pdf/pdf_pool.ts";
import { renderSignedQuotePdf, signedPdfFilename } from "../pdf/render_quote_pdf.ts";
import { findQuoteBundle } from "./quote_bundle.ts";
import { findBranding } from "../settings/settings.ts";
import { isMailConfigured } from "../mail/mail_settings.ts";
import { deliverEmail, enqueueEmail } from "../mail/outbox.ts";
import { composeSignedCopyEmail } from "../mail/online_answer_mail.ts";

async function findAcceptance(db: DB, quoteId: string) {
  return await db.selectFrom("quoteAcceptances")
    .leftJoin("quoteLinks", "quoteLinks.id", "quoteAcceptances.linkId")
    .select([
      "quoteAcceptances.signerName",
      "quoteAcceptances.acceptedAt",
      "quoteAcceptances.chosenOptionIds",
      "quoteAcceptances.signaturePng",
      "quoteAcceptances.signedPdf",
      "quoteLinks.sentTo",
    ])
    .where("quoteAcceptances.quoteId", "=", quoteId).executeTakeFirst();
}

/**
 * The signed copy's bytes and file name: the one kept, else made now and
 * kept (a render that failed after the acceptance is made again here).
 * Undefined when the quote was not accepted online.
 */
export async function signedCopyOf(db: DB, pdfs: PdfPool, quoteId: string) {
  const [acceptance, bundle] = await Promise.all([
    findAcceptance(db, quoteId),
    findQuoteBundle(db, quoteId),
  ]);
  if (!acceptance || !bundle) return undefined;
  const filename = signedPdfFilename(bundle);
  if (acceptance.signedPdf) return { pdf: acceptance.signedPdf, filename, acceptance, bundle };
  const pdf = await renderSignedQuotePdf(db, pdfs, bundle, await findBranding(db), {
    signerName: acceptance.signerName,
    acceptedAt: new Date(acceptance.acceptedAt),
    chosenOptionIds: [...acceptance.chosenOptionIds],
    signaturePng: acceptance.signaturePng,
  });
  await db.updateTable("quoteAcceptances").set({ signedPdf: pdf })
    .where("quoteId", "=", quoteId).where("signedPdf", "is", null).execute();
  return { pdf, filename, acceptance, bundle };
}

/** Makes and keeps the signed copy, and e-mails it to the client once. Never throws. */
export async function sendSignedCopy(
  db: DB,
  pdfs: PdfPool,
  config: Pick<Config, "secretKey">,
  quoteId: string,
  logger: Logger,
): Promise<void> {
  try {
    const made = await signedCopyOf(db, pdfs, quoteId);
    if (!made?.acceptance.sentTo || !await isMailConfigured(db)) return;
    const branding = await findBranding(db);
    const mail = composeSignedCopyEmail({
      storeName: branding.storeName,
      storePhone: branding.storePhone,
      storeEmail: branding.storeEmail,
      quoteNumber: made.bundle.quote.quoteNumber,
      signerName: made.acceptance.signerName,
    });
    const outboxId = await enqueueEmail(db, {
      quoteId,
      to: made.acceptance.sentTo,
      ...mail,
      attachmentName: made.filename,
      attachment: made.pdf,
      createdBy: null,
    });
    await deliverEmail(db, config.secretKey, outboxId, new Date(), logger);
  } catch (err) {
    // The acceptance stands; staff can still download the copy (made again then).
    logger.log("error", "signed copy failed", {
      quoteId,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}
