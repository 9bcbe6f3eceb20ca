// The one way a request gets a quote PDF (the PDF call and the quote e-mail):
// the client copy model and the logo bytes are made here, the rendering is
// done by a renderer process of the PDF pool, and a pool that is full or a
// render that ran out of time becomes a 503 with Retry-After, never a hang.
// The server itself never loads react-pdf and its fonts: only renderers do.
import type { DB } from "../db/database.ts";
import type { QuoteBundle } from "../quotes/views.ts";
import type { Branding } from "../settings/settings.ts";
import { type ClientCopy, clientCopy, signedCopy } from "../print/print_model.ts";
import { HttpError } from "../http/errors.ts";
import { logoBytesFor } from "./logo_source.ts";
import { type PdfPool, PdfUnavailableError } from "./pdf_pool.ts";
import { shortId } from "../clients/views.ts";

/** `Quote-Q-001234.pdf`: what the browser saves and the e-mail attaches. */
export function quotePdfFilename(bundle: QuoteBundle): string {
  const number = bundle.quote.quoteNumber || shortId(bundle.quote.id);
  // The name goes into a Content-Disposition header and a mail attachment.
  return `Quote-${number.replace(/[^A-Za-z0-9._-]+/g, "_")}.pdf`;
}

/** The client copy of a quote as PDF bytes: one LETTER page per option. */
export async function renderQuotePdf(
  db: DB,
  pdfs: PdfPool,
  bundle: QuoteBundle,
  branding: Branding,
  /** Who asks: one user has at most a few PDFs rendering or waiting at once. */
  userId: string,
): Promise<Uint8Array> {
  return await renderModel(db, pdfs, clientCopy(bundle, branding), userId);
}

/** `Quote-Q-001234-signed.pdf`: the signed copy of an online acceptance. */
export const signedPdfFilename = (bundle: QuoteBundle) =>
  quotePdfFilename(bundle).replace(/\.pdf$/, "-signed.pdf");

/** The signed copy of an online acceptance (chosen options and the signature page). */
export async function renderSignedQuotePdf(
  db: DB,
  pdfs: PdfPool,
  bundle: QuoteBundle,
  branding: Branding,
  acceptance: Parameters<typeof signedCopy>[2],
  store: Parameters<typeof signedCopy>[3],
): Promise<Uint8Array> {
  return await renderModel(db, pdfs, signedCopy(bundle, branding, acceptance, store));
}

async function renderModel(
  db: DB,
  pdfs: PdfPool,
  model: ClientCopy,
  userId?: string,
): Promise<Uint8Array> {
  const logo = await logoBytesFor(model.header.logoUrl, db);
  try {
    return await pdfs.render(model, logo, userId);
  } catch (err) {
    if (err instanceof PdfUnavailableError) {
      // Too many of one's own is one's own to wait for (429); a full pool is the server's (503).
      throw new HttpError(err.reason === "caller" ? 429 : 503, err.message, undefined, {
        "Retry-After": String(err.retryAfterSeconds),
      });
    }
    throw err;
  }
}
