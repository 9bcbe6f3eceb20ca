import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../../src/http/render.tsx";
import { findBranding } from "../../src/settings/settings.ts";
import { Island } from "../../components/Island.tsx";
import StaffLogin from "../../islands/StaffLogin.tsx";
import { safeReturnTo } from "../../src/http/return_to.ts";

/** What /staff says after a trip through owner sign-in (?owner=…); a Map, as the key is the URL's. */
const OWNER_NOTICES = new Map([
  [
    "unavailable",
    "Owner sign-in is not configured on this store. Sign in with your staff username and password.",
  ],
  ["failed", "Owner sign-in did not complete. Please try again."],
  ["denied", "This account is not allowed to sign in as an owner."],
  [
    "stale",
    "Owner sign-in needs a fresh sign-in at the provider. Please try again and enter your password there.",
  ],
]);

export function publicPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  app.get("/staff", async (c) => {
    const appUrl = c.var.config.appUrl;
    // Signed in already: straight on to where the link meant to go (the dashboard by default).
    if (c.var.user) return c.redirect(safeReturnTo(c.req.query("returnTo"), appUrl), 302);
    const returnTo = safeReturnTo(c.req.query("returnTo"), appUrl, "") || undefined;
    const ownerNotice = OWNER_NOTICES.get(c.req.query("owner") ?? "");
    const branding = await findBranding(c.var.db);
    return renderPage(
      c,
      manifest,
      <div className="auth-wrap">
        <section className="card auth-card" aria-labelledby="login-title">
          <div className="auth-brand">
            <img src={branding.logoUrl} alt="" className="auth-logo" width="56" height="56" />
            <span className="auth-store">{branding.storeName}</span>
          </div>
          <h1 id="login-title" className="card-title">Staff Portal</h1>
          <p className="muted">Intake and quotes management system</p>
          {ownerNotice && <p className="notice notice-info" role="status">{ownerNotice}</p>}
          <Island
            name="StaffLogin"
            component={StaffLogin}
            props={{ returnTo, ownerSignInConfigured: !!c.var.config.oidc }}
          />
          <p className="hint center">
            Need access? Contact your administrator for staff credentials.
          </p>
        </section>
      </div>,
      { title: "Staff Portal", chrome: false },
    );
  });

  return app;
}

/** `/` for a signed-out visitor: who we are and the two ways in. No JavaScript. */
export async function renderLanding(c: Context<AppEnv>, manifest: AssetManifest) {
  const branding = await findBranding(c.var.db);
  return renderPage(
    c,
    manifest,
    <div className="landing">
      <img src={branding.logoUrl} alt="" className="landing-logo" width="72" height="72" />
      <h1>{branding.storeName}</h1>
      <p className="lead">Client intake and quotes for our opticians.</p>
      <div className="landing-actions">
        <a className="btn btn-primary btn-lg" href="/staff">Staff Sign In</a>
        <a className="btn btn-outline btn-lg" href="/intake">New Client Intake</a>
      </div>
    </div>,
    { title: "Welcome", chrome: false },
  );
}
