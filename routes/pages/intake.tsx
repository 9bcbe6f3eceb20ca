import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../../src/http/render.tsx";
import { findBranding } from "../../src/settings/settings.ts";
import { findConsentTexts } from "../../src/settings/consent_texts.ts";
import { listHeardHowOptions } from "../../src/settings/heard_how.ts";
import { Island } from "../../components/Island.tsx";
import IntakeForm from "../../islands/IntakeForm.tsx";

export function intakePages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  // Public: the optician hands a tablet to the client, who may never sign in.
  app.get("/intake", async (c) => {
    const db = c.var.db;
    const [branding, consentTexts, options] = await Promise.all([
      findBranding(db),
      findConsentTexts(db),
      listHeardHowOptions(db),
    ]);
    // Loaded here so the first paint already has the wording and the choices.
    const props = {
      consentTexts: {
        smsConsentText: consentTexts.smsConsentText,
        emailConsentText: consentTexts.emailConsentText,
      },
      heardHowOptions: options.map(({ id, label }) => ({ id, label })),
    };
    return renderPage(
      c,
      manifest,
      <div className="intake">
        <header className="intake-head">
          <h1>{`Welcome to ${branding.storeName}`}</h1>
          <p className="lead">
            Please tell us a little about yourself. Fields marked{" "}
            <span className="required">*</span> are required.
          </p>
        </header>
        <Island name="IntakeForm" component={IntakeForm} props={props} />
      </div>,
      { title: "Client Intake" },
    );
  });

  return app;
}
