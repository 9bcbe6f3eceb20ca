import type { Context } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";

export function renderNotFound(c: Context<AppEnv>, manifest: AssetManifest) {
  return renderPage(
    c,
    manifest,
    <section className="card narrow center-card">
      <h1 className="card-title">404 Page Not Found</h1>
      <p className="muted">The page you asked for does not exist or has moved.</p>
      <a className="btn btn-primary" href="/">Go to the home page</a>
    </section>,
    { title: "404 Page Not Found", status: 404 },
  );
}
