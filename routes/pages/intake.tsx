import { type Context, Hono } from "hono";
import { findActiveStoreByCode, type StoreRef } from "../../src/stores/stores.ts";
import { renderNotFound } from "./not_found.tsx";
import type { AppEnv } from "../../src/http/app_env.ts";
import { shownStoreId } from "../../src/stores/current_store.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { findBranding } from "../../src/settings/settings.ts";
import { findConsentTexts } from "../../src/settings/consent_texts.ts";
import { listHeardHowOptions } from "../../src/settings/heard_how.ts";
import { Island } from "../../components/Island.tsx";
import IntakeForm, { type IntakeFormProps } from "../../islands/IntakeForm.tsx";
import HandToClient from "../../islands/HandToClient.tsx";
import { kioskStaffProps } from "./kiosk.tsx";

const HANDOVER = { kind: "INTAKE" } as const;

export function intakePages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  // Public: the optician hands a tablet to the client, who may never sign in.
  // Signed-in staff also get "Hand to client", which locks this browser to
  // the form (a kiosk session) until a staff password is typed.
  app.get("/intake", (c) => intakePage(c));

  // A store's own intake address (a chain of stores): signed out, the client
  // registers in that store and the page wears its name. A kiosk and signed-in
  // staff stay in their own store whatever the address says.
  app.get("/intake/:code", async (c) => {
    const store = await findActiveStoreByCode(c.var.db, c.req.param("code"));
    if (!store) return renderNotFound(c, manifest);
    return intakePage(c, store);
  });

  async function intakePage(c: Context<AppEnv>, store?: StoreRef) {
    const db = c.var.db;
    const signedOut = !c.var.kiosk && !c.var.user;
    const storeId = signedOut && store ? store.id : await shownStoreId(c);
    const [branding, consentTexts, options] = await Promise.all([
      findBranding(db, storeId),
      findConsentTexts(db),
      listHeardHowOptions(db),
    ]);
    // Loaded here so the first paint already has the wording and the choices.
    const kiosk = c.var.kiosk;
    // The offline shell the service worker keeps in place of a kiosk's page
    // (static/sw.js): the same form without the name of the staff member who
    // handed the tablet over, which is not kept on the device.
    const shell = c.req.query("shell") === "1";
    const props: IntakeFormProps = {
      kiosk: kiosk
        ? { staff: shell ? null : kioskStaffProps(kiosk), completed: kiosk.completed }
        : null,
      consentTexts: {
        smsConsentText: consentTexts.smsConsentText,
        emailConsentText: consentTexts.emailConsentText,
      },
      heardHowOptions: options.map(({ id, label }) => ({ id, label })),
      ...(signedOut && store ? { storeCode: store.code } : {}),
    };
    const page = await renderPage(
      c,
      manifest,
      <div className="intake">
        {c.var.user && (
          <aside className="intake-handover" aria-label="Hand to client">
            <p>
              <strong>Handing this tablet to a client?</strong>{" "}
              It will show only this form until a staff password is entered.
            </p>
            <Island name="HandToClient" component={HandToClient} props={{ target: HANDOVER }} />
          </aside>
        )}
        <header className="intake-head">
          {
            // The form a client holds (a kiosk, or signed out) has no staff bar
            // to carry the store's logo. Plain HTML: this page's script budget is spent.
            !c.var.user && <img src={branding.logoUrl} alt="" className="kiosk-logo intake-logo" />
          }
          <h1>{`Welcome to ${branding.storeName}`}</h1>
          <p className="lead">
            Please tell us a little about yourself. Fields marked{" "}
            <span className="required">*</span> are required.
          </p>
        </header>
        <Island name="IntakeForm" component={IntakeForm} props={props} />
      </div>,
      { title: "Client Intake", storeId },
    );
    // The service worker (static/sw.js) keeps only a page marked so: the
    // signed-out form and the kiosk's shell carry the store's wording and no
    // client's data or staff member's name; the kiosk's page names who handed
    // the tablet over, and a staff member's has their name in the staff bar.
    if (!c.var.user && (!kiosk || shell)) page.headers.set("X-Offline-Shell", "intake");
    return page;
  }

  return app;
}
