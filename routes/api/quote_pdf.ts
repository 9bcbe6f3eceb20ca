import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { notFound } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { findQuoteBundle } from "../../src/quotes/quote_bundle.ts";
import { findBranding } from "../../src/settings/settings.ts";
import { quotePdfFilename, renderQuotePdf } from "../../src/pdf/render_quote_pdf.ts";

export const quotePdfApi = new Hono<AppEnv>();

// Only this path: the sub-app is mounted before the quotes API, and a wider
// pattern would put its guard in front of routes it does not own.
quotePdfApi.use("/quotes/:id/pdf", requireUser());

/** The client copy as a PDF, shown in the browser's viewer (and saved under a useful name). */
quotePdfApi.get("/quotes/:id/pdf", async (c) => {
  const [bundle, branding] = await Promise.all([
    findQuoteBundle(c.var.db, c.req.param("id")),
    findBranding(c.var.db),
  ]);
  if (!bundle) throw notFound("Quote not found");
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
