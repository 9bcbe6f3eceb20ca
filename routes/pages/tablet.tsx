import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { findBranding } from "../../src/settings/settings.ts";
import { findQuoteBundle } from "../../src/quotes/quote_bundle.ts";
import { Island } from "../../components/Island.tsx";
import { tabletQuote } from "../../components/tablet/tablet_view.ts";
import TabletSelect, { type TabletSelectProps } from "../../islands/TabletSelect.tsx";
import { kioskStaffProps } from "./kiosk.tsx";

// The client holds the tablet: no staff bar, nothing that leads into staff screens.
// Staff open it here to preview; "Hand to client" opens it in a kiosk session.
const TABLET_PAGE = { chrome: false, bodyClass: "tablet-page" } as const;

export function tabletPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  app.get("/tablet/:quoteId", async (c) => {
    const db = c.var.db;
    const kiosk = c.var.kiosk;
    // Handed to the client: saves go through the kiosk, staff return with a password.
    const kioskProps = kiosk ? { staff: kioskStaffProps(kiosk), completed: kiosk.completed } : null;
    if (c.req.query("shell") === "1") {
      // The offline shell, which the service worker (static/sw.js) keeps in
      // place of this page: the chrome, the island and the store's wording,
      // no quote and no client (it is never even read), so nothing of a
      // client is kept by the browser. Offline, the island shows what this
      // device kept of the quote while it was online (IndexedDB). The staff
      // preview may be kept too: this page has no staff bar. Nor a staff
      // member's name: a kiosk's shell leaves out who handed the tablet over.
      const branding = await findBranding(db, kiosk?.storeId ?? null);
      const props: TabletSelectProps = {
        quote: null,
        branding: { storeName: branding.storeName, logoUrl: branding.logoUrl },
        kiosk: kiosk ? { staff: null, completed: kiosk.completed } : null,
      };
      const page = await renderPage(
        c,
        manifest,
        <Island name="TabletSelect" component={TabletSelect} props={props} />,
        { ...TABLET_PAGE, title: "Select Your Options", storeId: kiosk?.storeId ?? null },
      );
      page.headers.set("X-Offline-Shell", "tablet");
      return page;
    }
    const bundle = await findQuoteBundle(db, c.req.param("quoteId"));
    const branding = await findBranding(db, bundle?.quote.storeId ?? kiosk?.storeId ?? null);
    if (!bundle) {
      return renderPage(
        c,
        manifest,
        <section className="card tablet-missing">
          <img src={branding.logoUrl} alt="" className="tablet-logo" width="56" height="56" />
          <h1>Quote Not Found</h1>
          <p className="lead">
            This quote does not exist or is no longer available. Please hand the tablet back to your
            optician.
          </p>
        </section>,
        { ...TABLET_PAGE, title: "Quote Not Found", status: 404, storeId: kiosk?.storeId ?? null },
      );
    }
    // Only the client-facing view goes into the page's JSON, never the bundle.
    const props: TabletSelectProps = {
      quote: tabletQuote(bundle),
      branding: { storeName: branding.storeName, logoUrl: branding.logoUrl },
      kiosk: kioskProps,
    };
    return renderPage(
      c,
      manifest,
      <Island name="TabletSelect" component={TabletSelect} props={props} />,
      { ...TABLET_PAGE, title: "Select Your Options", storeId: bundle.quote.storeId },
    );
  });

  return app;
}
