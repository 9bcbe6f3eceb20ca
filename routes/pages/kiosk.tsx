import type { Context } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import type { KioskSession } from "../../src/kiosk/kiosk_session.ts";
import { renderPage } from "../render_page.tsx";
import { findBranding } from "../../src/settings/settings.ts";
import { Island } from "../../components/Island.tsx";
import KioskReturn from "../../islands/KioskReturn.tsx";

/** The one page a kiosk belongs on: its quote's options, or the intake form. */
export function kioskHome(kiosk: KioskSession): { href: string; label: string } {
  return kiosk.kind === "QUOTE" && kiosk.quoteId
    ? { href: `/tablet/${kiosk.quoteId}`, label: "Back to your options" }
    : { href: "/intake", label: "Back to the intake form" };
}

/** The staff return form's props for this kiosk. */
export function kioskStaffProps(kiosk: KioskSession) {
  return {
    username: kiosk.handedOverBy.username,
    displayName: kiosk.handedOverBy.displayName,
  };
}

/**
 * What a kiosk sees on any page outside its scope: a client-facing notice,
 * a way back to its own page, and the staff return form. Never the staff
 * sign-in, which would lead into staff screens.
 */
export async function renderKioskNotice(c: Context<AppEnv>, manifest: AssetManifest) {
  const kiosk = c.var.kiosk!;
  const branding = await findBranding(c.var.db, kiosk.storeId);
  const home = kioskHome(kiosk);
  return renderPage(
    c,
    manifest,
    <section className="kiosk-notice" aria-labelledby="kiosk-notice-title">
      <img src={branding.logoUrl} alt="" className="kiosk-logo" />
      <h1 id="kiosk-notice-title">This page is not available on this tablet</h1>
      <p className="lead">
        {kiosk.kind === "QUOTE"
          ? "This tablet is set up for choosing the options of your quote only."
          : "This tablet is set up for the intake form only."}{" "}
        Please hand the tablet back to your optician if you need anything else.
      </p>
      <a className="btn btn-primary btn-lg kiosk-home" href={home.href}>{home.label}</a>
      <Island
        name="KioskReturn"
        component={KioskReturn}
        props={{ staff: kioskStaffProps(kiosk), open: false, quoteId: kiosk.quoteId }}
      />
    </section>,
    { title: "Not available on this tablet", status: 403, storeId: kiosk.storeId },
  );
}
