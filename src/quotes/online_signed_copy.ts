// The signed copy of an online acceptance: the chosen options'
// client copy with a signature page, rendered by the PDF pool after the
// acceptance commits, kept with the acceptance, and e-mailed once to the
// address the link was sent to, through the outbox; a render that fails is
// tried again in the background (migration 0029). A copy that cannot be
// made (a signature image the PDF cannot draw, kept before acceptances
// checked it) is a 422 saying so, and is not tried again (migration 0033).
import type { DB } from "../db/database.ts";
import type { Config } from "../config/config.ts";
import type { Logger } from "../http/logger.ts";
import type { PdfPool } from "../pdf/pdf_pool.ts";
import { renderSignedQuotePdf, signedPdfFilename } from "../pdf/render_quote_pdf.ts";
import { pngProblem } from "../pdf/image_check.ts";
import { signedAtText } from "../print/print_model.ts";
import { HttpError } from "../http/errors.ts";
import { findQuoteBundle } from "./quote_bundle.ts";
import { findBranding } from "../settings/settings.ts";
import { isMailConfigured } from "../mail/mail_settings.ts";
import { deliverEmail, enqueueEmail } from "../mail/outbox.ts";
import { composeSignedCopyEmail } from "../mail/messages/signed_copy.tsx";

async function findAcceptance(db: DB, quoteId: string) {
  return await db.selectFrom("quoteAcceptances")
    .leftJoin("quoteLinks", "quoteLinks.id", "quoteAcceptances.linkId")
    .select([
      "quoteAcceptances.signerName",
      "quoteAcceptances.acceptedAt",
      "quoteAcceptances.chosenOptionIds",
      "quoteAcceptances.signaturePng",
      "quoteAcceptances.signedPdf",
      "quoteAcceptances.termsText",
      "quoteLinks.sentTo",
    ])
    .where("quoteAcceptances.quoteId", "=", quoteId).executeTakeFirst();
}

/**
 * Why a signed copy cannot be made; the acceptance itself stands. A 422 for
 * staff's download; `permanent` when no later try can make it either.
 */
export class SignedCopyError extends HttpError {
  constructor(message: string, readonly permanent: boolean) {
    super(422, message);
  }
}

const stands = (
  acceptance: { signerName: string; acceptedAt: Date | string },
  timeZone: string,
) =>
  `The acceptance itself stands (signed by ${acceptance.signerName} on ${
    signedAtText(new Date(acceptance.acceptedAt), timeZone)
  }).`;

/** The quote's store's time zone (its own, else the chain's) and the acceptance terms of now. */
const signingSettings = (db: DB, quoteId: string) =>
  db.selectFrom("settings")
    .innerJoin("quotes", (join) => join.on("quotes.id", "=", quoteId))
    .innerJoin("stores", "stores.id", "quotes.storeId")
    .select((eb) => [
      eb.fn.coalesce("stores.timeZone", "settings.timeZone").as("timeZone"),
      "settings.acceptanceTermsText",
    ])
    .where("settings.id", "=", 1).executeTakeFirst();

/**
 * The signed copy's bytes and file name: the one kept, else made now and
 * kept (a render that failed after the acceptance is made again here).
 * Undefined when the quote was not accepted online. Throws SignedCopyError
 * when it cannot be made: a damaged signature image is found before any
 * renderer sees it, and kept as the copy's problem, so the background pass
 * stops trying; a PDF pool that is busy stays a 503 (HttpError).
 */
export async function signedCopyOf(db: DB, pdfs: PdfPool, quoteId: string) {
  const [acceptance, bundle, settings] = await Promise.all([
    findAcceptance(db, quoteId),
    findQuoteBundle(db, quoteId),
    signingSettings(db, quoteId),
  ]);
  if (!acceptance || !bundle || !settings) return undefined;
  const filename = signedPdfFilename(bundle);
  if (acceptance.signedPdf) return { pdf: acceptance.signedPdf, filename, acceptance, bundle };
  if (acceptance.signaturePng && pngProblem(acceptance.signaturePng)) {
    const message = "The signed copy cannot be made: the signature image stored with this " +
      `acceptance is damaged. ${stands(acceptance, settings.timeZone)}`;
    await db.updateTable("quoteAcceptances")
      .set({ signedCopyProblem: message, signedCopyNextAt: null })
      .where("quoteId", "=", quoteId).execute();
    throw new SignedCopyError(message, true);
  }
  let pdf: Uint8Array;
  try {
    pdf = await renderSignedQuotePdf(
      db,
      pdfs,
      bundle,
      await findBranding(db, bundle.quote.storeId),
      {
        signerName: acceptance.signerName,
        acceptedAt: new Date(acceptance.acceptedAt),
        chosenOptionIds: [...acceptance.chosenOptionIds],
        signaturePng: acceptance.signaturePng,
      },
      {
        timeZone: settings.timeZone,
        // The terms the client ticked, kept with the acceptance; older ones: today's.
        terms: acceptance.termsText || settings.acceptanceTermsText || "",
      },
    );
  } catch (err) {
    if (err instanceof HttpError) throw err; // the pool busy or stopping: try again later
    throw new SignedCopyError(
      `The signed copy cannot be made: its PDF could not be rendered. ${
        stands(acceptance, settings.timeZone)
      }`,
      false,
    );
  }
  await db.updateTable("quoteAcceptances").set({ signedPdf: pdf })
    .where("quoteId", "=", quoteId).where("signedPdf", "is", null).execute();
  return { pdf, filename, acceptance, bundle };
}

/** Tries at the client's e-mail of a signed copy before it is left to staff's download. */
export const SIGNED_COPY_MAX_ATTEMPTS = 10;
/** How long a try holds its acceptance: other processes (and passes) leave it alone meanwhile. */
const CLAIM_MS = 10 * 60_000;
/** An acceptance older than this is not e-mailed any more: staff have long had the copy. */
const OWED_FOR_MS = 7 * 86_400_000;
/** Acceptances one background pass tries at most (each is a render). */
const PER_PASS = 5;

/** The wait after `failed` failed tries: 1, 2, 4 … minutes, at most an hour (10 tries ≈ 4 h). */
export function signedCopyBackoffMs(failed: number): number {
  return Math.min(60, 2 ** Math.max(0, failed - 1)) * 60_000;
}

export type SignedCopyOutcome =
  | "queued"
  | "none_owed"
  | "no_mail"
  | "not_due"
  | "failed"
  | "given_up";

/**
 * Makes and keeps the signed copy, and e-mails it to the client once: the
 * acceptance is claimed first (one process, one try at a time), and the
 * e-mail goes into the outbox in the same transaction that settles it. A
 * failed render waits its backoff for the background pass
 * (retryOwedSignedCopies); without mail settings nothing is tried yet. Never
 * throws: the acceptance stands whatever happens here.
 */
export async function sendSignedCopy(
  db: DB,
  pdfs: PdfPool,
  config: Pick<Config, "secretKey">,
  quoteId: string,
  logger: Logger,
  now = new Date(),
): Promise<SignedCopyOutcome> {
  let attempt = 0;
  try {
    if (!await isMailConfigured(db)) return "no_mail";
    const claimed = await db.updateTable("quoteAcceptances")
      .set((eb) => ({
        signedCopyAttempts: eb("signedCopyAttempts", "+", 1),
        signedCopyNextAt: new Date(now.getTime() + CLAIM_MS),
      }))
      .where("quoteId", "=", quoteId)
      .where("signedCopySettledAt", "is", null)
      .where("signedCopyProblem", "is", null)
      .where("signedCopyAttempts", "<", SIGNED_COPY_MAX_ATTEMPTS)
      .where((eb) => eb.or([eb("signedCopyNextAt", "is", null), eb("signedCopyNextAt", "<=", now)]))
      .returning("signedCopyAttempts").executeTakeFirst();
    if (!claimed) return "not_due";
    attempt = claimed.signedCopyAttempts;
    const made = await signedCopyOf(db, pdfs, quoteId);
    if (!made) return "none_owed"; // the quote is gone, and its acceptance with it
    if (!made.acceptance.sentTo) {
      await settle(db, quoteId, now);
      return "none_owed";
    }
    const mail = composeSignedCopyEmail(await findBranding(db, made.bundle.quote.storeId), {
      quoteNumber: made.bundle.quote.quoteNumber,
      signerName: made.acceptance.signerName,
    });
    const sentTo = made.acceptance.sentTo;
    const outboxId = await db.transaction().execute(async (trx) => {
      const id = await enqueueEmail(trx, {
        quoteId,
        to: sentTo,
        ...mail,
        attachmentName: made.filename,
        attachment: made.pdf,
        createdBy: null,
        sendAt: now,
      });
      await settle(trx, quoteId, now);
      return id;
    });
    await deliverEmail(db, config.secretKey, outboxId, now, logger);
    return "queued";
  } catch (err) {
    // A copy that can never be made (its problem is kept already) is not tried again.
    const hopeless = err instanceof SignedCopyError && err.permanent;
    const givenUp = hopeless || attempt >= SIGNED_COPY_MAX_ATTEMPTS;
    if (attempt > 0) {
      await db.updateTable("quoteAcceptances")
        .set({
          signedCopyNextAt: givenUp ? null : new Date(now.getTime() + signedCopyBackoffMs(attempt)),
          ...(givenUp && !hopeless ? { signedCopyProblem: givenUpProblem(attempt) } : {}),
        })
        .where("quoteId", "=", quoteId).where("signedCopySettledAt", "is", null).execute()
        .catch(() => {}); // the claim then runs out by itself
    }
    // The acceptance stands; staff can still download the copy (made again then).
    logger.log("error", givenUp ? "signed copy given up" : "signed copy failed", {
      quoteId,
      attempt,
      error: err instanceof Error ? err.message : String(err),
    });
    return givenUp ? "given_up" : "failed";
  }
}

/** What staff read of a copy whose every try failed: it may still download. */
const givenUpProblem = (tries: number) =>
  `The signed copy was not e-mailed to the client: making it failed ${tries} times. ` +
  "Download it with “Signed copy” and send it to them yourself.";

async function settle(db: DB, quoteId: string, now: Date) {
  await db.updateTable("quoteAcceptances").set({ signedCopySettledAt: now, signedCopyNextAt: null })
    .where("quoteId", "=", quoteId).execute();
}

/**
 * One background pass (the outbox worker's, every process): the signed copies
 * still owed whose backoff is over, oldest first, a few at a time. Returns
 * how many were tried.
 */
export async function retryOwedSignedCopies(
  db: DB,
  pdfs: PdfPool,
  config: Pick<Config, "secretKey">,
  logger: Logger,
  now = new Date(),
): Promise<number> {
  if (!await isMailConfigured(db)) return 0;
  const owed = await db.selectFrom("quoteAcceptances").select("quoteId")
    .where("signedCopySettledAt", "is", null)
    .where("signedCopyProblem", "is", null)
    .where("signedCopyAttempts", "<", SIGNED_COPY_MAX_ATTEMPTS)
    .where((eb) => eb.or([eb("signedCopyNextAt", "is", null), eb("signedCopyNextAt", "<=", now)]))
    .where("acceptedAt", ">", new Date(now.getTime() - OWED_FOR_MS))
    .orderBy("acceptedAt").limit(PER_PASS).execute();
  for (const { quoteId } of owed) await sendSignedCopy(db, pdfs, config, quoteId, logger, now);
  return owed.length;
}
