import type { Context } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../../src/http/render.tsx";

/**
 * The staff dashboard's frame: title and the two main actions. Its counts and
 * quote lists arrive with the quote domain.
 */
export function renderDashboard(c: Context<AppEnv>, manifest: AssetManifest) {
  return renderPage(
    c,
    manifest,
    <>
      <div className="page-head">
        <div>
          <h1>Staff Dashboard</h1>
          <p className="muted">Manage clients, quotes, and measurements.</p>
        </div>
        <div className="actions">
          <a className="btn btn-primary" href="/intake">New Client Intake</a>
          <a className="btn btn-outline" href="/clients">Create Quote</a>
        </div>
      </div>
    </>,
    { title: "Staff Dashboard" },
  );
}
