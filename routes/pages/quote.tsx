import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { Island } from "../../components/Island.tsx";
import QuoteBuilder, { type QuoteBuilderProps } from "../../islands/QuoteBuilder.tsx";
import { readQuoteBundle } from "../../src/quotes/quote_bundle.ts";
import { loadBuilderCatalog } from "../../src/catalog/catalog.ts";
import { renderNotFound } from "./not_found.tsx";
import { pageSettings } from "../../src/http/page_settings.ts";

export function quotePages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  // A quote is always opened for a client; without an id, start from the clients.
  app.get("/quote", (c) => c.redirect("/clients", 302));
  app.get("/quote/", (c) => c.redirect("/clients", 302));

  // The quote and the catalog go to the island with the page, so the first
  // paint is the finished form, not a spinner waiting on two calls.
  app.get("/quote/:id", async (c) => {
    const db = c.var.db;
    const [bundle, catalog, settings] = await Promise.all([
      readQuoteBundle(db, c.req.param("id")),
      loadBuilderCatalog(db),
      pageSettings(c),
    ]);
    if (!bundle) return renderNotFound(c, manifest);
    const props: QuoteBuilderProps = {
      bundle,
      catalog,
      emailConfigured: settings.mailConfigured,
      userRole: c.var.user!.role,
    };
    return renderPage(
      c,
      manifest,
      <Island name="QuoteBuilder" component={QuoteBuilder} props={props} />,
      { title: `Quote ${bundle.quote.quoteNumber} · ${bundle.quote.clientName}` },
    );
  });

  return app;
}
