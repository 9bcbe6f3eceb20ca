import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { auditActor } from "../../src/http/actor.ts";
import { HttpError, readJson } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { settingsSchema, testEmailSchema } from "../../src/schemas/settings.ts";
import { findAdminSettings, updateAdminSettings } from "../../src/settings/admin_settings.ts";
import {
  findEmailStatus,
  findMailSettings,
  MAIL_FAILURE,
  recordMailOutcome,
} from "../../src/mail/mail_settings.ts";
import { succeedOrWaitOut } from "../../src/mail/even_answer.ts";
import { sendViaSmtp } from "../../src/mail/transport.ts";
import { composeTestEmail } from "../../src/mail/messages/test_email.tsx";
import { findBranding } from "../../src/settings/settings.ts";
import { setCookie } from "hono/cookie";
import { EMAIL_BANNER_COOKIE } from "../../components/EmailBanner.tsx";
import { safeReturnTo } from "../../src/http/return_to.ts";
import { assertChainWide } from "../../src/stores/scope.ts";

export const adminSettingsApi = new Hono<AppEnv>();
const admin = requireUser("ADMIN", "OWNER");

adminSettingsApi.get(
  "/admin/settings",
  admin,
  async (c) => c.json(await findAdminSettings(c.var.db)),
);

adminSettingsApi.put("/admin/settings", admin, async (c) => {
  // The chain's settings: a store admin changes their store's own on the Stores page.
  assertChainWide(c);
  const input = await readJson(c, settingsSchema);
  const { settings } = await updateAdminSettings(
    c.var.db,
    c.var.config.secretKey,
    input,
    auditActor(c),
  );
  return c.json(settings);
});

// Any signed-in user: the builder's e-mail button needs to know too.
adminSettingsApi.get(
  "/admin/oauth2-status",
  requireUser(),
  async (c) => c.json(await findEmailStatus(c.var.db, c.var.config.secretKey)),
);

/** Sends a test message straight away (not through the outbox) and says how it went. */
/**
 * When a failed test e-mail is answered: past the connection and greeting
 * limits (a silent server fails by them), with a margin.
 */
export const testEmailFailureMs = (smtpTimeoutMs: number) => smtpTimeoutMs + 2_000;

adminSettingsApi.post("/admin/test-email", admin, async (c) => {
  const { email } = await readJson(c, testEmailSchema);
  const settings = await findMailSettings(c.var.db, c.var.config.secretKey);
  if (!settings.configured) {
    throw new HttpError(409, "Email is not configured: set the SMTP server and sender first.");
  }
  const branding = await findBranding(c.var.db, null);
  const { smtpTimeoutMs } = c.var.config;
  // Generic to the caller and always answered at the same moment (no port
  // probing through this button, by message or by time); the detail is logged.
  const sent = await succeedOrWaitOut(
    sendViaSmtp(settings, { to: email, ...composeTestEmail(branding) }, smtpTimeoutMs),
    testEmailFailureMs(smtpTimeoutMs),
  );
  if (!sent.ok) {
    const err = sent.error;
    c.var.logger.log("warn", "test email failed", {
      reqId: c.var.requestId,
      error: err instanceof Error ? err.message : String(err),
    });
    await recordMailOutcome(c.var.db, "failed");
    throw new HttpError(503, `Failed to send test email. ${MAIL_FAILURE}`);
  }
  await recordMailOutcome(c.var.db, "sent");
  return c.json({ message: "Test email sent" });
});

adminSettingsApi.post("/email-banner/dismiss", requireUser(), async (c) => {
  const form = await c.req.parseBody().catch(() => ({} as Record<string, unknown>));
  setCookie(c, EMAIL_BANNER_COOKIE, "dismissed", {
    httpOnly: true,
    sameSite: "Lax",
    secure: c.var.config.secureCookies,
    path: "/",
  });
  return c.redirect(safeReturnTo(form.returnTo, c.var.config.appUrl), 303);
});
