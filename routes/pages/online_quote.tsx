// The client's public quote page, reached from the quote e-mail's link:
// GET /q/{token} shows the client copy and the accept form; POST
// /q/{token}/accept and /decline take the answer. No session: the token is
// the client's whole credential, so it is hashed before any lookup, kept out
// of the log (loggedPath), and a bad one gets one answer whatever the reason
// it is unknown. The cross-site guard of every unsafe request (app.ts) stands
// in front of the POSTs, as for the app's other public writes.
import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { addressKey } from "../../src/http/client_address.ts";
import { inTransaction } from "../../src/db/transaction.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { findBranding, findSettings } from "../../src/settings/settings.ts";
import { findQuoteBundle } from "../../src/quotes/quote_bundle.ts";
import { findQuoteStoreId } from "../../src/quotes/quotes.ts";
import { HttpError, readJson } from "../../src/http/errors.ts";
import {
  findLinkByToken,
  linkQuoteOf,
  type LinkRefusal,
  linkRefusal,
  linkRowOf,
  linkTokenHash,
  REFUSAL_TEXT,
} from "../../src/quotes/online_links.ts";
import { acceptOnline, declineOnline, recordLinkView } from "../../src/quotes/online_acceptance.ts";
import { onlineAcceptSchema, onlineDeclineSchema } from "../../src/schemas/online_acceptance.ts";
import { acceptanceTerms } from "../../src/settings/acceptance_terms.ts";
import { Island } from "../../components/Island.tsx";
import { longDate, onlineQuote, onlineStore } from "../../components/online/online_view.ts";
import OnlineAccept, { type OnlineAcceptProps } from "../../islands/OnlineAccept.tsx";
import { notifyStaffOfAnswer } from "../../src/quotes/online_notice.ts";
import { sendSignedCopy } from "../../src/quotes/online_signed_copy.ts";

const ONLINE_PAGE = { chrome: false, bodyClass: "online-page" } as const;

export function onlineQuotePages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  /** The 410 page: what happened, and how to reach the store; never a quote. */
  async function refusedPage(c: Context<AppEnv>, refusal: LinkRefusal, quoteId?: string) {
    // A link that was the quote's names the quote's store; an unknown one, the chain.
    const storeId = quoteId ? await findQuoteStoreId(c.var.db, quoteId) : null;
    const store = onlineStore(await findBranding(c.var.db, storeId));
    const text = REFUSAL_TEXT[refusal];
    return renderPage(
      c,
      manifest,
      <section className="card online-refused" aria-labelledby="online-refused-title">
        <div className="online-brand">
          <img src={store.logoUrl} alt="" className="online-logo" />
          <span className="online-store">{store.storeName}</span>
        </div>
        <h1 id="online-refused-title">{text.title}</h1>
        <p className="lead">{text.lead}</p>
        <p>Please contact the store and we will help you:</p>
        <ul className="online-contact">
          <li>
            Phone: <a href={`tel:${store.storePhone.replace(/[^\d+]/g, "")}`}>{store.storePhone}</a>
          </li>
          <li>
            E-mail: <a href={`mailto:${store.storeEmail}`}>{store.storeEmail}</a>
          </li>
        </ul>
      </section>,
      { ...ONLINE_PAGE, title: text.title, status: 410, storeId },
    );
  }

  app.get("/q/:token", async (c) => {
    const db = c.var.db;
    const found = await findLinkByToken(db, c.req.param("token"));
    if (!found) return refusedPage(c, "unknown");
    const refusal = linkRefusal(linkRowOf(found), linkQuoteOf(found), new Date());
    if (refusal) return refusedPage(c, refusal, found.quoteId);
    const [bundle, settings] = await Promise.all([
      findQuoteBundle(db, found.quoteId),
      findSettings(db),
    ]);
    if (!bundle) return refusedPage(c, "unknown");
    const branding = await findBranding(db, bundle.quote.storeId);
    await recordLinkView(db, found);
    const props: OnlineAcceptProps = {
      quote: onlineQuote(bundle),
      store: onlineStore(branding),
      terms: acceptanceTerms(settings.acceptanceTermsText),
    };
    return renderPage(
      c,
      manifest,
      <Island name="OnlineAccept" component={OnlineAccept} props={props} />,
      { ...ONLINE_PAGE, title: `Quote ${bundle.quote.quoteNumber}`, storeId: bundle.quote.storeId },
    );
  });

  /**
   * Per link and per address, before the body is read; a try refused for its
   * body still counts. A link that does not exist counts against its own
   * bucket per address, never against a real link's or its address's.
   */
  async function throttle(c: Context<AppEnv>) {
    const limits = c.var.publicLimits;
    const token = c.req.param("token") ?? "";
    const address = addressKey(c.var.clientIp);
    const known = await findLinkByToken(c.var.db, token);
    const counts = known
      ? [[limits.onlineLink, linkTokenHash(token)], [limits.onlineAddress, address]] as const
      : [[limits.onlineGuess, address]] as const;
    // Both counts in one transaction: a try refused by either counts in neither.
    await inTransaction(c.var.db, async (trx) => {
      for (const [counter, key] of counts) {
        const wait = await counter.take(trx, key);
        if (wait > 0) {
          throw new HttpError(
            429,
            `Too many tries. Please wait ${Math.ceil(wait / 60_000)} minutes and try again, ` +
              "or contact the store.",
            undefined,
            { "Retry-After": String(Math.ceil(wait / 1000)) },
          );
        }
      }
    });
  }

  const metaOf = (c: Context<AppEnv>) => ({
    ip: c.var.clientIp,
    userAgent: c.req.header("user-agent") ?? null,
  });

  app.post("/q/:token/accept", async (c) => {
    await throttle(c);
    const input = await readJson(c, onlineAcceptSchema);
    const result = await acceptOnline(c.var.db, c.req.param("token"), input, metaOf(c));
    if (!result.ok) {
      throw new HttpError(
        result.status,
        result.message,
        result.field ? { [result.field]: result.message } : undefined,
      );
    }
    if (!result.already) {
      await sendSignedCopy(
        c.var.db,
        c.var.pdf,
        c.var.config,
        result.quoteId,
        c.var.logger,
        c.var.clock(),
      );
      await notifyStaffOfAnswer(c.var.db, c.var.config, result.quoteId, {
        kind: "accepted",
        signerName: result.signerName,
      }, c.var.logger);
    }
    return c.json({
      status: "accepted",
      already: result.already,
      signerName: result.signerName,
      acceptedOn: longDate(result.acceptedAt),
    });
  });

  app.post("/q/:token/decline", async (c) => {
    await throttle(c);
    const { message } = await readJson(c, onlineDeclineSchema);
    const result = await declineOnline(c.var.db, c.req.param("token"), message, metaOf(c));
    if (!result.ok) throw new HttpError(result.status, result.message);
    await notifyStaffOfAnswer(c.var.db, c.var.config, result.quoteId, {
      kind: "declined",
      message,
    }, c.var.logger);
    return c.json({ status: "declined" });
  });

  return app;
}
