// The one way a request gets a work order PDF (the PDF call and the e-mail
// to the lab): the sheets are made here, rendered by a PDF renderer process;
// a full pool or a render out of time is a 429/503 with Retry-After.
import type { DB } from "../db/database.ts";
import type { OrderBundle } from "./views.ts";
import type { Branding } from "../settings/settings.ts";
import { type Paper, workOrderSheet } from "./work_order.ts";
import { HttpError } from "../http/errors.ts";
import { type PdfPool, PdfUnavailableError } from "../pdf/pdf_pool.ts";
import { logoBytesFor } from "../pdf/logo_source.ts";

export const workOrderFilename = (jobNumbers: string[]) =>
  `Work-order-${jobNumbers.join("_").replace(/[^A-Za-z0-9._-]+/g, "_")}.pdf`;

export async function renderWorkOrder(
  db: DB,
  pdfs: PdfPool,
  bundle: OrderBundle,
  jobs: OrderBundle["jobs"],
  branding: Branding,
  paper: Paper,
  userId: string,
): Promise<Uint8Array> {
  const sheets = jobs.map((j) => workOrderSheet(j, bundle, branding));
  // The logo the printed sheet shows (its print copy), read as the quote PDF reads it.
  const logo = sheets.length ? await logoBytesFor(sheets[0].logoUrl, db) : undefined;
  try {
    return await pdfs.workOrder(sheets, paper, logo, userId);
  } catch (err) {
    if (err instanceof PdfUnavailableError) {
      throw new HttpError(err.reason === "caller" ? 429 : 503, err.message, undefined, {
        "Retry-After": String(err.retryAfterSeconds),
      });
    }
    throw err;
  }
}
