// The Stores page (/admin/stores): the chain's stores for the owner and
// chain admins, a store admin's own stores for them (src/stores/scope.ts).
import { listLabs } from "../../src/orders/labs.ts";
import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { renderUnauthorized } from "./unauthorized.tsx";
import { Island } from "../../components/Island.tsx";
import { isAdminRole } from "../../components/StaffNav.tsx";
import StoresAdmin, { type StoresAdminProps } from "../../islands/StoresAdmin.tsx";
import { listStores } from "../../src/stores/admin_stores.ts";
import { isChainWide } from "../../src/stores/scope.ts";
import { findAdminSettings } from "../../src/settings/admin_settings.ts";
import { STORE_FALLBACKS } from "../../src/settings/settings.ts";
import { storeToday } from "../../src/orders/store_hours.ts";
import { UNAUTHORIZED_SETTINGS_TEXT } from "./admin_settings.tsx";

export function adminStoresPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  // Signed-out visitors never get here: /admin paths send them to sign in.
  app.get("/admin/stores", async (c) => {
    const user = c.var.user!;
    if (!isAdminRole(user.role)) {
      return renderUnauthorized(c, manifest, UNAUTHORIZED_SETTINGS_TEXT, "Stores");
    }
    const db = c.var.db;
    const [stores, s, labs] = await Promise.all([
      listStores(db, { id: user.id, role: user.role, chainAdmin: user.chainAdmin }),
      findAdminSettings(db),
      listLabs(db, true),
    ]);
    const props: StoresAdminProps = {
      initialStores: stores,
      // What a field falls back to, as the chain's pages show it.
      chain: {
        name: s.storeName || STORE_FALLBACKS.storeName,
        phone: s.storePhone || STORE_FALLBACKS.storePhone,
        email: s.storeEmail || STORE_FALLBACKS.storeEmail,
        address: s.storeAddress || STORE_FALLBACKS.storeAddress,
        website: s.storeWebsite,
        timeZone: s.timeZone,
        openingDays: s.openingDays,
        openingTime: s.openingTime,
        closingTime: s.closingTime,
        closedDates: s.closedDates,
        readyEmailSubject: s.readyEmailSubject,
        readyEmailBody: s.readyEmailBody,
        logoUrl: s.logoUrl || STORE_FALLBACKS.logoUrl,
      },
      labs: labs.map(({ id, name }) => ({ id, name })),
      canAdd: user.role === "OWNER",
      chainWide: isChainWide(user),
      today: storeToday(s, c.var.clock()),
    };
    return renderPage(
      c,
      manifest,
      <Island name="StoresAdmin" component={StoresAdmin} props={props} />,
      { title: "Stores" },
    );
  });

  return app;
}
