import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { renderUnauthorized } from "./unauthorized.tsx";
import { Island } from "../../components/Island.tsx";
import { isAdminRole } from "../../components/StaffNav.tsx";
import CatalogAdmin, { type CatalogAdminProps } from "../../islands/CatalogAdmin.tsx";
import { catalogTable } from "../../src/catalog/catalog.ts";
import { listCatalogForAdmin } from "../../src/catalog/catalog_admin.ts";
import {
  CATALOG_ADMIN_SECTIONS,
  type CatalogSectionInfo,
  findCatalogSection,
} from "../../components/catalog_admin/sections.ts";
import { UNAUTHORIZED_SETTINGS_TEXT } from "./admin_settings.tsx";

/** The same words as /admin/settings: catalog changes are for ADMIN and OWNER. */
export const UNAUTHORIZED_CATALOG_TEXT = UNAUTHORIZED_SETTINGS_TEXT;

function Sidebar({ active, isOwner }: { active: CatalogSectionInfo; isOwner: boolean }) {
  return (
    <aside className="catalog-admin-sidebar">
      <nav aria-label="Catalog sections" className="card catalog-admin-nav">
        <h2 className="catalog-admin-nav-title">Catalog</h2>
        <ul>
          {CATALOG_ADMIN_SECTIONS.map((s) => (
            <li key={s.key}>
              <a
                href={`/admin/${s.key}`}
                aria-current={s.key === active.key ? "page" : undefined}
              >
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <a className="card catalog-admin-link-card" href="/admin/labs">
        <span className="catalog-admin-link-title">Labs</span>
        <span className="muted">Where jobs are made, and their turnaround.</span>
      </a>
      <a className="card catalog-admin-link-card" href="/admin/users">
        <span className="catalog-admin-link-title">User Management</span>
        <span className="muted">Add staff, reset passwords and change roles.</span>
      </a>
      <a className="card catalog-admin-link-card" href="/admin/settings">
        <span className="catalog-admin-link-title">Settings</span>
        <span className="muted">Store details, quotes and e-mail.</span>
      </a>
      {isOwner && (
        <a className="card catalog-admin-link-card" href="/admin/audit">
          <span className="catalog-admin-link-title">Audit Log</span>
          <span className="muted">Who changed what and when.</span>
        </a>
      )}
    </aside>
  );
}

async function renderCatalogAdmin(
  c: Context<AppEnv>,
  manifest: AssetManifest,
  section: CatalogSectionInfo,
) {
  const user = c.var.user!;
  if (!isAdminRole(user.role)) {
    return renderUnauthorized(c, manifest, UNAUTHORIZED_CATALOG_TEXT, "Admin");
  }
  const items = await listCatalogForAdmin(c.var.db, catalogTable(section.key)!);
  const props: CatalogAdminProps = { section: section.key, initialItems: items };
  return renderPage(
    c,
    manifest,
    <div className="catalog-admin">
      <div className="page-head">
        <div>
          <h1>Admin</h1>
          <p className="muted">The catalog used in quotes, staff accounts and store settings.</p>
        </div>
      </div>
      <div className="catalog-admin-layout">
        <Sidebar active={section} isOwner={user.role === "OWNER"} />
        <div className="catalog-admin-main">
          <Island name="CatalogAdmin" component={CatalogAdmin} props={props} />
        </div>
      </div>
    </div>,
    { title: `${section.label} – Admin` },
  );
}

export function adminCatalogPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  app.get("/admin", (c) => renderCatalogAdmin(c, manifest, CATALOG_ADMIN_SECTIONS[0]));

  // Other /admin pages (users, settings) are mounted beside this one, so a path
  // that is not a catalog section is passed on; nothing else matching means the
  // app's 404 page (renderNotFound).
  app.get("/admin/:section", async (c, next) => {
    const section = findCatalogSection(c.req.param("section"));
    if (!section) return await next();
    return await renderCatalogAdmin(c, manifest, section);
  });

  return app;
}
