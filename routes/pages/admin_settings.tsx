import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { renderUnauthorized } from "./unauthorized.tsx";
import { Island } from "../../components/Island.tsx";
import { isAdminRole } from "../../components/StaffNav.tsx";
import SettingsForm, { type SettingsFormProps } from "../../islands/SettingsForm.tsx";
import { findAdminSettings } from "../../src/settings/admin_settings.ts";
import { findEmailStatus } from "../../src/mail/mail_settings.ts";
import { findBranding } from "../../src/settings/settings.ts";
import { storeToday } from "../../src/orders/store_hours.ts";
import { isChainWide } from "../../src/stores/scope.ts";

export const UNAUTHORIZED_SETTINGS_TEXT =
  "Unauthorized – Admin or Owner access required. Redirecting...";

export function adminSettingsPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  // Signed-out visitors never get here: /admin paths send them to sign in.
  app.get("/admin/settings", async (c) => {
    const user = c.var.user!;
    if (!isAdminRole(user.role)) {
      return renderUnauthorized(c, manifest, UNAUTHORIZED_SETTINGS_TEXT, "Settings");
    }
    const db = c.var.db;
    // Everything the form shows is loaded here so the first paint is complete.
    const [settings, emailStatus, branding] = await Promise.all([
      findAdminSettings(db),
      findEmailStatus(db, c.var.config.secretKey),
      findBranding(db, null),
    ]);
    const props: SettingsFormProps = {
      initialSettings: settings,
      initialEmailStatus: emailStatus,
      // The images in use now, built-in fallbacks included.
      currentLogoUrl: branding.logoUrl,
      currentFaviconUrl: branding.faviconUrl,
      // Closed dates before it are marked past (the store's day, not the browser's).
      today: storeToday(settings, c.var.clock()),
    };
    return renderPage(
      c,
      manifest,
      <>
        {/* Each store's own settings are on the Stores page; a store admin keeps only those. */}
        <nav className="admin-links" aria-label="Administration">
          <a className="btn btn-outline btn-sm" href="/admin/stores">Stores</a>
          <a className="btn btn-outline btn-sm" href="/admin/users">User Management</a>
        </nav>
        {!isChainWide(user) && (
          <p className="notice notice-info" role="note">
            These are the chain's settings: only the owner or a chain admin changes them. Your
            stores' own settings are on the <a href="/admin/stores">Stores</a> page.
          </p>
        )}
        <Island name="SettingsForm" component={SettingsForm} props={props} />
      </>,
      { title: "Settings" },
    );
  });

  return app;
}
