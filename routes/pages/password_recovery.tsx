import { type Context, Hono } from "hono";
import type { ReactNode } from "react";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { findBranding } from "../../src/settings/settings.ts";
import { Island } from "../../components/Island.tsx";
import { ForgotPasswordForm, ForgotPasswordSent } from "../../components/ForgotPasswordForm.tsx";
import { requestPasswordReset } from "../../src/auth/forgot_password.ts";
import { HttpError } from "../../src/http/errors.ts";
import { EMAIL_REQUIRED, forgotPasswordSchema } from "../../src/schemas/password_recovery.ts";
import ResetPassword from "../../islands/ResetPassword.tsx";
import ChangePassword from "../../islands/ChangePassword.tsx";
import { hasForbiddenChars } from "../../src/schemas/text.ts";
import TwoFactorSettings from "../../islands/TwoFactorSettings.tsx";
import TwoFactorStep from "../../islands/TwoFactorStep.tsx";
import { renderUnauthorized } from "./unauthorized.tsx";
import { findUserById } from "../../src/users/users.ts";
import {
  canUseTwoFactor,
  isTwoFactorRequired,
  readChallenge,
  remainingRecoveryCodes,
} from "../../src/auth/two_factor.ts";

/** The sign-in card's frame (logo, store name, title) around a recovery form. */
async function authCard(c: Context<AppEnv>, title: string, lead: string, body: ReactNode) {
  const branding = await findBranding(c.var.db, null);
  return (
    <div className="auth-wrap">
      <section className="card auth-card" aria-labelledby="auth-title">
        <div className="auth-brand">
          <img src={branding.logoUrl} alt="" className="auth-logo" />
          <span className="auth-store">{branding.storeName}</span>
        </div>
        <h1 id="auth-title" className="card-title">{title}</h1>
        <p className="muted">{lead}</p>
        {body}
      </section>
    </div>
  );
}

/** Where an OIDC owner's password lives: the provider's address, for the notice. */
function providerName(issuer: string | undefined): string {
  if (!issuer) return "the owner sign-in provider";
  try {
    return new URL(issuer).host;
  } catch {
    return "the owner sign-in provider";
  }
}

export function passwordRecoveryPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  /** The forgotten-password card: the form (fresh or refused) or, once accepted, the answer. */
  async function forgotPasswordPage(
    c: Context<AppEnv>,
    body: ReactNode,
    status: 200 | 400 | 429 = 200,
  ) {
    return renderPage(
      c,
      manifest,
      await authCard(
        c,
        "Forgot Password",
        "Enter the e-mail address of your staff account and we will send you a link to choose a new password.",
        body,
      ),
      // No island: the form works as plain HTML; its one small script only enhances it.
      { title: "Forgot Password", chrome: false, status, scripts: ["forgotPassword"] },
    );
  }

  app.get("/forgot-password", (c) => forgotPasswordPage(c, <ForgotPasswordForm />));

  // The same request without JavaScript (POST /api/auth/forgot-password's rules and answer).
  app.post("/forgot-password", async (c) => {
    const email = await readFormField(c, "email");
    const parsed = forgotPasswordSchema.safeParse({ email: email ?? "" });
    if (!parsed.success) {
      const fieldError = parsed.error.issues[0]?.message ?? EMAIL_REQUIRED;
      return forgotPasswordPage(
        c,
        <ForgotPasswordForm email={email} fieldError={fieldError} />,
        400,
      );
    }
    try {
      await requestPasswordReset(c, parsed.data.email);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 429) throw err;
      for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
      return forgotPasswordPage(c, <ForgotPasswordForm email={email} error={err.message} />, 429);
    }
    return forgotPasswordPage(c, <ForgotPasswordSent />);
  });

  app.get("/reset-password", async (c) => {
    // The query guard has already refused control characters; the API checks the rest.
    const raw = c.req.query("token")?.trim() ?? "";
    const token = raw && raw.length <= 200 && !hasForbiddenChars(raw) ? raw : null;
    return renderPage(
      c,
      manifest,
      await authCard(
        c,
        "Reset Password",
        "Choose a new password of at least 6 characters.",
        <Island name="ResetPassword" component={ResetPassword} props={{ token }} />,
      ),
      { title: "Reset Password", chrome: false },
    );
  });

  app.get("/account/password", (c) => {
    const user = c.var.user;
    if (!user) return c.redirect(`/staff?returnTo=${encodeURIComponent(c.req.path)}`, 302);
    const body = user.isExternal
      ? (
        <p className="notice notice-info" role="status">
          You sign in with Owner Login, so your password is kept by{" "}
          <strong>{providerName(c.var.config.oidc?.issuer)}</strong>, not here. Change it there;
          your next Owner Login uses the new one.
        </p>
      )
      : <Island name="ChangePassword" component={ChangePassword} props={{}} />;
    return renderPage(
      c,
      manifest,
      <div className="account-page">
        <h1>Change My Password</h1>
        <p className="muted">
          Changing it signs you out on every other computer and tablet; you stay signed in here.
        </p>
        <section className="card account-card">{body}</section>
      </div>,
      { title: "Change My Password" },
    );
  });

  // After a right password, before any session: the code (or enrolment) step.
  // Without a live challenge (none, expired, out of tries) it is back to the sign-in.
  app.get("/staff/two-factor", async (c) => {
    const db = c.var.db;
    const challenge = await readChallenge(c, db, c.var.config.secureCookies);
    const user = challenge && await findUserById(db, challenge.userId);
    if (!user) return c.redirect("/staff", 302);
    const step = user.totpEnabledAt ? "verify" : "enrol";
    return renderPage(
      c,
      manifest,
      await authCard(
        c,
        "Two-Factor Sign-In",
        step === "verify"
          ? "Enter the 6-digit code from your authenticator app, or one of your recovery codes."
          : "This store requires two-factor sign-in for admins and owners. Set it up now to continue.",
        <Island name="TwoFactorStep" component={TwoFactorStep} props={{ step }} />,
      ),
      { title: "Two-Factor Sign-In", chrome: false },
    );
  });

  app.get("/account/two-factor", async (c) => {
    const user = c.var.user;
    if (!user) return c.redirect(`/staff?returnTo=${encodeURIComponent(c.req.path)}`, 302);
    if (!canUseTwoFactor(user.role)) {
      return renderUnauthorized(
        c,
        manifest,
        "Unauthorized – two-factor sign-in is for admin and owner accounts. Redirecting...",
        "Two-Factor Sign-In",
      );
    }
    const db = c.var.db;
    const me = await findUserById(db, user.id);
    const body = user.isExternal
      ? (
        <p className="notice notice-info" role="status">
          You sign in with Owner Login; a second factor is set up at{" "}
          <strong>{providerName(c.var.config.oidc?.issuer)}</strong>, not here.
        </p>
      )
      : (
        <Island
          name="TwoFactorSettings"
          component={TwoFactorSettings}
          props={{
            enabled: !!me?.totpEnabledAt,
            required: await isTwoFactorRequired(db),
            recoveryCodesLeft: await remainingRecoveryCodes(db, user.id),
            isOwner: user.role === "OWNER",
          }}
        />
      );
    return renderPage(
      c,
      manifest,
      <div className="account-page">
        <h1>Two-Factor Sign-In</h1>
        <p className="muted">A code from your phone after your password.</p>
        {body}
      </div>,
      { title: "Two-Factor Sign-In" },
    );
  });

  return app;
}

/** One posted text field (a file, a repeat or a body that is not a form counts as missing). */
async function readFormField(c: Context<AppEnv>, name: string): Promise<string | undefined> {
  const type = c.req.header("content-type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) return undefined;
  try {
    const values = (await c.req.formData()).getAll(name);
    return values.length === 1 && typeof values[0] === "string" ? values[0] : undefined;
  } catch {
    return undefined;
  }
}
