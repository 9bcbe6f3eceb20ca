import type { ReactNode } from "react";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import type { Context } from "hono";
import type { AppEnv } from "../src/http/app_env.ts";
import { IslandCollector } from "../components/island_context.ts";
import { isAdminRole, StaffNav, type StorePickerProps } from "../components/StaffNav.tsx";
import { storeChoiceOf } from "../src/stores/current_store.ts";
import type { StoreRef } from "../src/stores/stores.ts";
import { EMAIL_BANNER_COOKIE, EmailBanner } from "../components/EmailBanner.tsx";
import { Island } from "../components/Island.tsx";
import SearchBox from "../islands/SearchBox.tsx";
import { getCookie } from "hono/cookie";
import { displayName } from "../src/users/users.ts";
import { pageSettings } from "../src/http/page_settings.ts";
import { flatString } from "../src/http/flat_string.ts";
import type { AssetManifest } from "../src/assets/manifest.ts";
import { deviceMustForget } from "../src/http/device_forget.ts";

export interface PageOptions {
  title: string;
  status?: 200 | 400 | 403 | 404 | 410 | 429 | 500;
  /** Show the staff bar when someone is signed in (default true). */
  chrome?: boolean;
  /** Extra class on <body>, e.g. for full-bleed tablet pages (one of these: it is not escaped). */
  bodyClass?: "print-page" | "tablet-page" | "online-page";
  /** Page scripts that are not islands (manifest.scripts names), e.g. the sign-in's. */
  scripts?: string[];
  /**
   * The store the page is of (a quote's printout, its online page, a tablet's
   * pages): its title names that store. Else the chain's settings.
   */
  storeId?: string | null;
}

/** The picker's stores, each named as its own pages are (its name, else the chain's). */
async function storePickerOf(
  c: Context<AppEnv>,
  stores: StoreRef[],
  currentId: string,
): Promise<StorePickerProps> {
  const chainName = stores.some((s) => !s.name)
    ? (await pageSettings(c, null)).branding.storeName
    : "";
  const url = new URL(c.req.url);
  return {
    stores: stores.map((s) => ({ id: s.id, code: s.code, name: s.name ?? chainName })),
    currentId,
    returnTo: url.pathname + url.search,
  };
}

/** A page's content rendered once and kept with what it was rendered from (keptMarkup). */
export interface KeptMarkup {
  readonly keptHtml: string;
}

const keptMarkups = new WeakMap<object, KeptMarkup>();

/**
 * The markup of content made from `source` alone, rendered once per source
 * object. A value read through src/db/read_through.ts is the same object
 * until a table it comes from is written (or it ages out), so every request
 * in between is served the same markup without rendering it again, as
 * Island does for kept props. The content may hold no island: an island's
 * ids come from the whole page's rendering.
 */
export function keptMarkup(source: object, make: () => ReactNode): KeptMarkup {
  let kept = keptMarkups.get(source);
  if (!kept) {
    const islands = new Set<string>();
    // Flat once, so the answers that reuse it copy it instead of walking its pieces.
    const keptHtml = flatString(renderToString(
      <IslandCollector.Provider value={islands}>{make()}</IslandCollector.Provider>,
    ));
    if (islands.size) throw new Error("Kept markup cannot hold islands.");
    keptMarkups.set(source, kept = { keptHtml });
  }
  return kept;
}

const isKept = (content: ReactNode | KeptMarkup): content is KeptMarkup =>
  typeof content === "object" && content !== null && "keptHtml" in content;

/**
 * Renders a page: the staff bar (when signed in), the content, and only the
 * script tags the page's islands need. A page without islands ships no
 * JavaScript at all.
 */
export async function renderPage(
  c: Context<AppEnv>,
  manifest: AssetManifest,
  content: ReactNode | KeptMarkup,
  options: PageOptions,
): Promise<Response> {
  // A kiosk (a browser handed to a client) has no user, so no staff bar and no
  // banner; it also gets no skip link, there being no navigation to skip.
  const kiosk = c.var.kiosk;
  const user = c.var.user;
  const chrome = !!user && options.chrome !== false;
  // Staff pages wear the current store's name and logo; a page of a record
  // (a quote's printout) names its own store.
  const choice = chrome ? await storeChoiceOf(c, user) : undefined;
  const { branding, mailConfigured } = await pageSettings(
    c,
    options.storeId !== undefined ? options.storeId : choice?.current?.id ?? null,
  );
  const storePicker = choice && choice.current && choice.stores.length > 1
    ? await storePickerOf(c, choice.stores, choice.current.id)
    : undefined;
  const showEmailBanner = chrome && isAdminRole(user!.role) &&
    getCookie(c, EMAIL_BANNER_COOKIE) !== "dismissed" && !mailConfigured;
  const islands = new Set<string>();
  const body = renderToString(
    <IslandCollector.Provider value={islands}>
      {user && chrome && (
        <StaffNav
          storePicker={storePicker}
          user={{ displayName: displayName(user), role: user.role, isExternal: user.isExternal }}
          path={c.req.path}
          storeName={branding.storeName}
          logoUrl={branding.logoUrl}
          search={<Island name="SearchBox" component={SearchBox} props={{}} />}
        />
      )}
      {showEmailBanner && <EmailBanner returnTo={c.req.path} />}
      {isKept(content)
        ? <main id="main" className="page" dangerouslySetInnerHTML={{ __html: content.keptHtml }} />
        : <main id="main" className="page">{content}</main>}
    </IslandCollector.Provider>,
  );
  const nonce = c.var.secureHeadersNonce ?? "";
  const scripts = islands.size
    ? [
      `<script type="module" nonce="${nonce}" src="${manifest.entry}"></script>`,
      ...[...islands].map((name) => manifest.islands[name]).filter(Boolean).map((href) =>
        `<link rel="modulepreload" nonce="${nonce}" href="${href}">`
      ),
    ].join("\n")
    : "";
  // Just signed out: this page clears what the app kept on the device.
  const scriptNames = deviceMustForget(c)
    ? [...options.scripts ?? [], "forget"]
    : options.scripts ?? [];
  const pageScripts = scriptNames.map((name) => manifest.scripts[name])
    .filter(Boolean).map((src) => `<script type="module" nonce="${nonce}" src="${src}"></script>`);
  const bodyClass = [kiosk ? "kiosk" : "", options.bodyClass ?? ""].filter(Boolean).join(" ");
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${
    renderToStaticMarkup(
      <>
        <title>{`${options.title} · ${branding.storeName}`}</title>
        <link rel="icon" href={branding.faviconUrl} />
      </>,
    )
  }
<link rel="stylesheet" href="${manifest.css}">
${[scripts, ...pageScripts].filter(Boolean).join("\n")}
</head>
<body class="${bodyClass}">
${kiosk ? "" : '<a class="skip-link" href="#main">Skip to content</a>\n'}${body}
${islands.size ? '<div id="toast-root"></div>' : ""}
</body>
</html>`;
  return c.html(html, options.status ?? 200);
}
