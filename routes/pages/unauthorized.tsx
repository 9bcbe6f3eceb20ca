import type { Context } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../../src/http/render.tsx";

/**
 * A signed-in user whose role may not open an admin screen: the spec's message,
 * then home after 0.5 s. A meta refresh does that without script, so the page
 * ships no JavaScript and the CSP has nothing to allow.
 */
export function renderUnauthorized(
  c: Context<AppEnv>,
  manifest: AssetManifest,
  text: string,
  title: string,
) {
  return renderPage(
    c,
    manifest,
    <div className="card center-card narrow" role="alert">
      <meta httpEquiv="refresh" content="0.5;url=/" />
      <p>{text}</p>
    </div>,
    { title, status: 403 },
  );
}
