import { shownStoreId } from "../../src/stores/current_store.ts";
import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { Island } from "../../components/Island.tsx";
import QuoteBuilder, { type QuoteBuilderProps } from "../../islands/QuoteBuilder.tsx";
import { findOrderIdOfQuote } from "../../src/orders/order_read.ts";
import { readQuoteBundle } from "../../src/quotes/quote_bundle.ts";
import { type BuilderCatalog, readBuilderCatalog } from "../../src/catalog/catalog.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";
import { renderNotFound } from "./not_found.tsx";
import { pageSettings } from "../../src/http/page_settings.ts";

/**
 * The builder's props, one object per kept bundle, catalog and what else
 * they hold, so Island renders the builder once per kept bundle instead of
 * once per request (components/Island.tsx): both reads are kept between
 * requests (src/db/read_through.ts), the bundle for at most a second.
 */
const propsKept = new WeakMap<QuoteBundle, Map<string, QuoteBuilderProps>>();
const catalogIds = new WeakMap<BuilderCatalog, number>();
let nextCatalogId = 0;

function builderProps(
  bundle: QuoteBundle,
  catalog: BuilderCatalog,
  emailConfigured: boolean,
  userRole: QuoteBuilderProps["userRole"],
  orderId: string | null,
): QuoteBuilderProps {
  let catalogId = catalogIds.get(catalog);
  if (catalogId === undefined) catalogIds.set(catalog, catalogId = nextCatalogId++);
  const key = `${catalogId}:${emailConfigured}:${userRole}:${orderId}`;
  let byKey = propsKept.get(bundle);
  if (!byKey) propsKept.set(bundle, byKey = new Map());
  let props = byKey.get(key);
  if (!props) byKey.set(key, props = { bundle, catalog, emailConfigured, userRole, orderId });
  return props;
}

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
      readBuilderCatalog(db),
      // The settings the staff bar reads too (its store's): one read for both.
      shownStoreId(c).then((storeId) => pageSettings(c, storeId)),
    ]);
    if (!bundle) return renderNotFound(c, manifest);
    // Only a finalized quote can have an order: the others skip the read.
    const orderId = bundle.quote.status === "FINALIZED"
      ? await findOrderIdOfQuote(db, bundle.quote.id)
      : null;
    const props = builderProps(bundle, catalog, settings.mailConfigured, c.var.user!.role, orderId);
    return renderPage(
      c,
      manifest,
      <Island name="QuoteBuilder" component={QuoteBuilder} props={props} />,
      { title: `Quote ${bundle.quote.quoteNumber} · ${bundle.quote.clientName}` },
    );
  });

  return app;
}
