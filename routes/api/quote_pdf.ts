import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { notFound } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { readQuoteBundle } from "../../src/quotes/quote_bundle.ts";
import { pageSettings } from "../../src/http/page_settings.ts";
import { quotePdfFilename, renderQuotePdf } from "../../src/pdf/render_quote_pdf.ts";

export const quotePdfApi = new Hono<AppEnv>();

// Only this path: the sub-app is mounted before the quotes API, and a wider
// pattern would put its guard in front of routes it does not own.
quotePdfApi.use("/quotes/:id/pdf", requireUser());

/** The client copy as a PDF, shown in the browser's viewer (and saved under a useful name). */
quotePdfApi.get("/quotes/:id/pdf", async (c) => {
  // The quote and the branding as the quote's page reads them: kept between
  // requests, and read again once their tables are written (by any process),
  // so an edit shows in the next PDF. Reading both afresh was a few ms of
  // every PDF, which is printed again and again while a quote is discussed.
  const bundle = await readQuoteBundle(c.var.db, c.req.param("id"));
  if (!bundle) throw notFound("Quote not found");
  const { branding } = await pageSettings(c, bundle.quote.storeId);
  // A copy typed as backed by a plain ArrayBuffer, which is what a body takes.
  const pdf = new Uint8Array(
    await renderQuotePdf(c.var.db, c.var.pdf, bundle, branding, c.var.user!.id),
  );
  return c.body(pdf, 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `inline; filename="${quotePdfFilename(bundle)}"`,
    // Client details: never kept by a shared cache or the browser's disk cache.
    "Cache-Control": "private, no-store",
  });
});
