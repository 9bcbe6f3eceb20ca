import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../../src/http/render.tsx";
import { findBranding } from "../../src/settings/settings.ts";
import { Island } from "../../components/Island.tsx";
import StaffLogin from "../../islands/StaffLogin.tsx";
import { safeReturnTo } from "../../src/schemas/auth.ts";

/** What /staff says after a trip through owner sign-in (?owner=…). */
const OWNER_NOTICES: Record<string, string> = {
  unavailable:
    "Owner sign-in is not configured on this store. Sign in with your staff username and password.",
  failed: "Owner sign-in did not complete. Please try again.",
  denied: "This account is not allowed to sign in as an owner.",
};

export function publicPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  app.get("/staff", (c) => {
    if (c.var.user) return c.redirect("/dashboard", 302);
    const returnTo = safeReturnTo(c.req.query("returnTo"), "") || undefined;
    const ownerNotice = OWNER_NOTICES[c.req.query("owner") ?? ""];
    return renderPage(
      c,
      manifest,
      <div className="auth-wrap">
        <section className="card auth-card" aria-labelledby="login-title">
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
