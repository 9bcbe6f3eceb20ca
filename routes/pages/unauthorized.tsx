import type { Context } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";

/** The spec's delay before a refused admin screen goes home. */
export const UNAUTHORIZED_REDIRECT_MS = 500;

/**
 * A signed-in user whose role may not open an admin screen: the spec's message,
 * then home after 0.5 s. A meta refresh cannot wait half a second (browsers
 * read "0.5" as 0 and leave at once), so a few lines of script carrying the
 * CSP nonce do it; without script the meta refresh inside <noscript> goes
 * home after a whole second. replace() keeps the refused page out of history,
 * so Back does not bounce through it again.
 */
export function renderUnauthorized(
  c: Context<AppEnv>,
  manifest: AssetManifest,
  text: string,
  title: string,
) {
  const nonce = c.var.secureHeadersNonce ?? "";
  return renderPage(
    c,
    manifest,
    <>
      <div className="card center-card narrow" role="alert">
        <p>{text}</p>
      </div>
      <script
        nonce={nonce}
        dangerouslySetInnerHTML={{
          __html: `setTimeout(function(){location.replace("/")},${UNAUTHORIZED_REDIRECT_MS});`,
        }}
      />
      <noscript>
        <meta httpEquiv="refresh" content="1;url=/" />
      </noscript>
    </>,
    { title, status: 403 },
  );
}
