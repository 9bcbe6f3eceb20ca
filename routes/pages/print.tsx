import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { findBranding } from "../../src/settings/settings.ts";
import { clientHasChosen, findQuoteBundle } from "../../src/quotes/quote_bundle.ts";
import { findLatestPrescription } from "../../src/prescriptions/prescriptions.ts";
import { chosenOnly, clientCopy, internalCopy } from "../../src/print/print_model.ts";
import { Island } from "../../components/Island.tsx";
import { ClientCopySheets } from "../../components/print/ClientCopySheets.tsx";
import { InternalCopySheets } from "../../components/print/InternalCopySheets.tsx";
import PrintControls, { type PrintCopy } from "../../islands/PrintControls.tsx";

const COPY_IDS: Record<PrintCopy, string> = {
  client: "print-copy-client",
  internal: "print-copy-internal",
};

const isTrue = (value: string | undefined) => value === "true" || value === "1";

function renderNoData(c: Context<AppEnv>, manifest: AssetManifest) {
  return renderPage(
    c,
    manifest,
    <section className="card narrow center-card">
      <h1 className="card-title">No quote data to print</h1>
      <p className="muted">
        This quote does not exist or is no longer available. Open the quote from the dashboard to
        print it.
      </p>
      <a className="btn btn-primary" href="/dashboard">Back to Dashboard</a>
    </section>,
    { title: "Print Quote", status: 404 },
  );
}

/**
 * The print screen. `clientOnly` is the copy handed to the client (from the
 * tablet or with ?external=true): the internal copy is then left out of the
 * HTML altogether, so no staff-only data can reach the client's device.
 */
async function renderPrint(
  c: Context<AppEnv>,
  manifest: AssetManifest,
  id: string,
  clientOnly: boolean,
) {
  const db = c.var.db;
  const [bundle, clientChose] = await Promise.all([
    findQuoteBundle(db, id),
    clientHasChosen(db, id),
  ]);
  if (!bundle) return renderNoData(c, manifest);
  const branding = await findBranding(db, bundle.quote.storeId);

  const everyOption = clientCopy(bundle, branding, { clientChose });
  const choices = everyOption.pages.filter((page) => page.isChoice).length;
  // "Print chosen only": the client copy of the client's choices, numbered anew, printed at once.
  const onlyChosen = c.req.query("chosen") === "only" && choices > 0;
  if (onlyChosen) clientOnly = true;
  const client = onlyChosen ? chosenOnly(everyOption) : everyOption;
  const shown: PrintCopy = !clientOnly && c.req.query("copy") === "internal"
    ? "internal"
    : "client";
  const { quoteNumber, clientName } = client.header;
  const chosenParams = new URLSearchParams({ chosen: "only" });
  if (isTrue(c.req.query("external"))) chosenParams.set("external", "true");
  const printChosenHref = !onlyChosen && choices > 0 && choices < everyOption.pages.length
    ? `${c.req.path}?${chosenParams}`
    : undefined;
  const controls = clientOnly
    ? { initialCopy: shown, autoPrint: !isTrue(c.req.query("noprint")), printChosenHref }
    : { initialCopy: shown, copies: COPY_IDS, printChosenHref };

  return renderPage(
    c,
    manifest,
    <div className="print-view">
      <div className="print-controls">
        <div className="print-controls-text">
          <h1 className="print-controls-title">{clientOnly ? "Your Quote" : "Print Quote"}</h1>
          <p className="muted">
            Quote # {quoteNumber} · {clientName}
          </p>
        </div>
        <Island name="PrintControls" component={PrintControls} props={controls} />
        {c.var.user && !c.var.kiosk && (
          // Staff came from the builder: one step back to it, without the browser's Back.
          <a className="btn btn-outline print-back" href={`/quote/${id}`}>Back to Quote</a>
        )}
        {c.var.kiosk && (
          // A tablet in client mode has no other way back to its page.
          <a className="btn btn-outline print-kiosk-back" href={`/tablet/${id}`}>
            Back to your options
          </a>
        )}
      </div>
      <div className="print-stage">
        <section
          id={COPY_IDS.client}
          className="print-copy print-copy-client"
          aria-label="Client Copy"
          hidden={shown !== "client"}
        >
          <ClientCopySheets copy={client} />
        </section>
        {!clientOnly && (
          <section
            id={COPY_IDS.internal}
            className="print-copy print-copy-internal"
            aria-label="Internal Copy"
            hidden={shown !== "internal"}
          >
            <InternalCopySheets
              copy={internalCopy(
                bundle,
                branding,
                await findLatestPrescription(db, bundle.client.id) ?? null,
              )}
            />
          </section>
        )}
      </div>
    </div>,
    {
      title: `Quote ${quoteNumber}`,
      // The client copy is what the client holds: no staff bar leading into staff screens.
      chrome: !clientOnly,
      bodyClass: "print-page",
      storeId: bundle.quote.storeId,
    },
  );
}

export function printPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  app.get("/print", (c) => renderNoData(c, manifest));
  app.get("/print/", (c) => renderNoData(c, manifest));
  app.get(
    "/print/:id",
    (c) => renderPrint(c, manifest, c.req.param("id"), isTrue(c.req.query("external"))),
  );
  app.get("/quote/:id/client-print", (c) => renderPrint(c, manifest, c.req.param("id"), true));

  return app;
}
