import type { Context } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";

/** A page address whose query the app refuses (say a NUL in `?q=`): say so instead of failing. */
export function renderBadRequest(c: Context<AppEnv>, manifest: AssetManifest, message: string) {
  return renderPage(
    c,
    manifest,
    <section className="card narrow center-card">
      <h1 className="card-title">400 Bad Request</h1>
      <p className="muted">This address cannot be opened: {message}</p>
      <a className="btn btn-primary" href="/">Go to the home page</a>
    </section>,
    { title: "400 Bad Request", status: 400 },
  );
}
