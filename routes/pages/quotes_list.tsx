import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { pageListedStoreId } from "../../src/stores/current_store.ts";
import { storeListingOf } from "../../src/stores/store_listing.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import { renderPage } from "../render_page.tsx";
import { Island } from "../../components/Island.tsx";
import QuoteManager, { type QuoteManagerProps } from "../../islands/QuoteManager.tsx";
import { listQuotes } from "../../src/quotes/quote_list.ts";
import { QUOTE_STATUSES } from "../../src/quotes/rules.ts";
import { isMailConfigured } from "../../src/mail/mail_settings.ts";
import { readQuery } from "../../src/http/errors.ts";
import { quotesPageQuery } from "../../src/schemas/query.ts";
import { QUOTE_PAGE_SIZE, type QuoteListFilter } from "../../components/quote_manager/queries.ts";

/** `?filter=expired` wins over `?status=`; an unknown status shows everything rather than fail. */
function filterFromQuery(status: string | undefined, filter: string | undefined): QuoteListFilter {
  if (filter === "expired") return "expired";
  return QUOTE_STATUSES.includes(status as QuoteStatus) ? status as QuoteStatus : "";
}

export function quotesListPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  // The first page for the filter and search in the URL is loaded here, so
  // the island starts with rows instead of a round trip.
  app.get("/quotes", async (c) => {
    const db = c.var.db;
    const query = readQuery(c, quotesPageQuery);
    const filter = filterFromQuery(query.status, query.filter);
    const q = (query.q ?? "").trim().slice(0, 200);
    const storeId = await pageListedStoreId(c, query.store);
    const [first, emailConfigured, stores] = await Promise.all([
      listQuotes(db, {
        q: q || undefined,
        status: filter === "expired" || filter === "" ? undefined : filter,
        expired: filter === "expired",
        limit: QUOTE_PAGE_SIZE,
        offset: 0,
        storeId,
      }),
      isMailConfigured(db),
      storeListingOf(c, storeId),
    ]);
    const props: QuoteManagerProps = {
      initialQuery: q,
      initialFilter: filter,
      initialRows: first.rows,
      initialTotal: first.total,
      initialTotalAtLeast: first.atLeast,
      emailConfigured,
      stores,
    };
    return renderPage(
      c,
      manifest,
      <Island name="QuoteManager" component={QuoteManager} props={props} />,
      { title: "Quote Management" },
    );
  });

  return app;
}
