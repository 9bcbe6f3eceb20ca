import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { findBranding } from "../../src/settings/settings.ts";
import { StaffLoginForm, type StaffLoginFormProps } from "../../components/StaffLoginForm.tsx";
import { safeReturnTo } from "../../src/http/return_to.ts";
import { staffLoginSchema } from "../../src/schemas/auth.ts";
import { summaryMessage } from "../../src/schemas/form_errors.ts";
import { HttpError } from "../../src/http/errors.ts";
import { signInWithPassword, TWO_FACTOR_PAGE } from "../../src/auth/staff_sign_in.ts";

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

const MISSING = {
  title: "Missing Information",
  description: "Please enter both username and password",
};

export function publicPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  /** The sign-in page, fresh or after a refused plain-form attempt. */
  async function signInPage(
    c: Context<AppEnv>,
    form: Omit<StaffLoginFormProps, "ownerSignInConfigured">,
    status: 200 | 400 | 403 | 500 = 200,
  ) {
    const ownerNotice = OWNER_NOTICES.get(c.req.query("owner") ?? "");
    const branding = await findBranding(c.var.db, null);
    return renderPage(
      c,
      manifest,
      <div className="auth-wrap">
        <section className="card auth-card" aria-labelledby="login-title">
          <div className="auth-brand">
            <img src={branding.logoUrl} alt="" className="auth-logo" />
            <span className="auth-store">{branding.storeName}</span>
          </div>
          <h1 id="login-title" className="card-title">Staff Portal</h1>
          <p className="muted">Intake and quotes management system</p>
          {ownerNotice && <p className="notice notice-info" role="status">{ownerNotice}</p>}
          <StaffLoginForm {...form} ownerSignInConfigured={!!c.var.config.oidc} />
          <p className="hint center">
            Need access? Contact your administrator for staff credentials.
          </p>
        </section>
      </div>,
      // No island: the form works as plain HTML; its one small script only enhances it.
      { title: "Staff Portal", chrome: false, status, scripts: ["signIn"] },
    );
  }

  app.get("/staff", (c) => {
    const appUrl = c.var.config.appUrl;
    // Signed in already: straight on to where the link meant to go (the dashboard by default).
    if (c.var.user) return c.redirect(safeReturnTo(c.req.query("returnTo"), appUrl), 302);
    const returnTo = safeReturnTo(c.req.query("returnTo"), appUrl, "") || undefined;
    return signInPage(c, { returnTo });
  });

  // The same form without JavaScript: the same sign-in as POST /api/staff/login
  // (throttle, audit, session), then a redirect, or the page again with the message.
  app.post("/staff", async (c) => {
    const appUrl = c.var.config.appUrl;
    const fields = await readSignInForm(c);
    // Kept only once it passes the same rule as every returnTo.
    const returnTo = safeReturnTo(fields.returnTo, appUrl, "") || undefined;
    const username = typeof fields.username === "string" ? fields.username : undefined;
    if (typeof fields.username !== "string" || typeof fields.password !== "string") {
      return signInPage(c, { returnTo, username, error: MISSING }, 400);
    }
    if (!fields.username.trim() || !fields.password.trim()) {
      return signInPage(c, { returnTo, username, error: MISSING }, 400);
    }
    const parsed = staffLoginSchema.safeParse({ ...fields, returnTo });
    if (!parsed.success) {
      const error = { title: "Login Failed", description: summaryMessage(parsed.error) };
      return signInPage(c, { returnTo, username: undefined, error }, 400);
    }
    try {
      const result = await signInWithPassword(c, parsed.data);
      // 303: the browser follows with a GET, and a reload cannot send the password again.
      return c.redirect("twoFactor" in result ? TWO_FACTOR_PAGE : result.returnTo, 303);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
      const page = await signInPage(c, {
        returnTo,
        username,
        error: { title: "Login Failed", description: err.message },
      });
      return new Response(page.body, { status: err.status, headers: page.headers });
    }
  });

  return app;
}

/**
 * The posted fields as text (a file or a repeated field counts as missing);
 * a body that is not a form is read as an empty one, so it gets the
 * Missing Information page rather than an error.
 */
async function readSignInForm(c: Context<AppEnv>): Promise<Record<string, string | undefined>> {
  const type = c.req.header("content-type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) return {};
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    return {};
  }
  const one = (name: string) => {
    const values = form.getAll(name);
    return values.length === 1 && typeof values[0] === "string" ? values[0] : undefined;
  };
  return { username: one("username"), password: one("password"), returnTo: one("returnTo") };
}

/** `/` for a signed-out visitor: who we are and the two ways in. No JavaScript. */
export async function renderLanding(c: Context<AppEnv>, manifest: AssetManifest) {
  const branding = await findBranding(c.var.db, null);
  return renderPage(
    c,
    manifest,
    <div className="landing">
      <img src={branding.logoUrl} alt="" className="landing-logo" />
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
