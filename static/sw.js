// The store tablets' service worker, served from /static/sw.js
// with Service-Worker-Allowed: / so that it covers every page.
//
// It keeps only answers the server marked with X-Offline-Shell: the chrome,
// an island's code and the store's wording, never a client's data and never a
// staff member's name (docs/security.md, "What the device keeps, and when it
// forgets"). Sign-out, the hand-over and the end of a kiosk session delete
// every cache (components/offline/forget_device.ts); the shells are kept again
// at the next visit online.
//
// - The intake page (/intake) is kept with the JS, CSS and images it loads,
//   so opening or reloading it offline still shows the form; what was typed
//   comes back from IndexedDB (components/offline/device_store.ts). The
//   signed-out form is kept as the network gave it; a kiosk's page names the
//   staff member who handed the tablet over, so its shell (/intake?shell=1,
//   the same form without that name) is kept in its place.
// - The tablet's option selection (/tablet/{id}) has the client's name and
//   prices on it, so it is never kept; in its place the worker keeps the
//   page's offline shell (/tablet/{id}?shell=1: no quote, no staff name),
//   one shared by every quote, fetched again after each tablet page the
//   network answers. Opened offline, any /tablet/{id} gets that shell, and
//   the island shows what this device kept of that quote while it was online
//   (IndexedDB), or says that the page needs the connection.
// - Any other page asked for offline gets a plain offline page.
// - Nothing else is touched: API calls, and API addresses opened as pages (a
//   sign-out, whose Clear-Site-Data the browser must see as sent), go to the
//   network as before and are never kept.

// v2: the v1 shells of kiosk pages had the name of the staff member who
// handed the tablet over; activating this worker deletes them.
const SHELL_CACHE = "lensdesk-shell-v2";
const SHELL_PAGES = ["/intake"];
// A store's own intake address (/intake/{code}) is kept as /intake is.
const STORE_INTAKE_PAGE = /^\/intake\/[A-Za-z0-9]{1,8}$/;
const isShellPage = (path) => SHELL_PAGES.includes(path) || STORE_INTAKE_PAGE.test(path);
const TABLET_PAGE = /^\/tablet\/[^/]+$/;
// Where the one tablet shell is kept: not a page's address, so the shell can
// never be taken for a quote's page.
const TABLET_SHELL = "/tablet/offline-shell";
const STATIC_IMPORT = /(?:\bfrom\s*|\bimport\s*)["']\.\/([\w.-]+\.js)["']/g;

self.addEventListener("install", (event) => {
  event.waitUntil(precache().catch(() => {}).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== SHELL_CACHE) await caches.delete(name);
    }
    await self.clients.claim();
    // The tablet page that registered this worker was answered before it ran:
    // its shell is fetched now, so a reload offline already finds it.
    for (const client of await self.clients.matchAll({ type: "window" })) {
      const path = new URL(client.url).pathname;
      if (TABLET_PAGE.test(path)) await keepShellOf(path, TABLET_SHELL).catch(() => {});
    }
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // The API's addresses opened as pages (sign-out, the sign-in's callback,
    // a PDF) are the browser's own business: their answers reach it as they
    // are, Clear-Site-Data included.
    if (url.pathname.startsWith("/api/")) return;
    event.respondWith(page(event, request, url));
  } else if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/uploads/")) {
    event.respondWith(asset(request, url));
  }
});

async function precache() {
  for (const path of SHELL_PAGES) await keepShellOf(path, path);
}

/**
 * Keeps the offline shell of the page at `path` under `key`: the page's own
 * answer `res` when the server marked it, else the page's `?shell=1` version,
 * asked for with the page's cookies (unmarked too for signed-in staff, whose
 * pages are never kept: a kept one is then dropped).
 */
async function keepShellOf(path, key, res) {
  const cache = await caches.open(SHELL_CACHE);
  if (res && !res.ok) return;
  if (res?.headers.has("X-Offline-Shell")) return await keepIfShell(cache, key, res);
  const shell = await fetch(`${path}?shell=1`, { credentials: "same-origin", cache: "no-store" });
  await keepIfShell(cache, key, shell);
}

/** Keeps a page the server marked as a shell, and what it loads; drops a kept one it no longer is. */
async function keepIfShell(cache, path, res) {
  if (!res.ok || !res.headers.has("X-Offline-Shell")) {
    // Signed in now (staff): the page has a person's name on it, so nothing is kept.
    if (res.ok) await cache.delete(path);
    return;
  }
  const html = await res.clone().text();
  const found = new Set();
  for (const m of html.matchAll(/(?:src|href)="(\/(?:static|uploads)\/[^"?#]+)"/g)) {
    found.add(m[1]);
  }
  const islands = [...html.matchAll(/data-island="([A-Za-z0-9]+)"/g)].map((m) => m[1]);
  if (islands.length) {
    const manifest = await (await fetch("/static/build/manifest.json")).json();
    for (const name of islands) if (manifest.islands[name]) found.add(manifest.islands[name]);
  }
  const queue = [...found];
  while (queue.length) {
    const path = queue.pop();
    // Built files carry a content hash: one kept is never stale.
    if (path.startsWith("/static/build/") && await cache.match(path)) continue;
    const asset = await fetch(path);
    if (!asset.ok) continue;
    if (path.endsWith(".js")) {
      const text = await asset.clone().text();
      for (const m of text.matchAll(STATIC_IMPORT)) {
        const dep = new URL(m[1], self.location.origin + path).pathname;
        if (!found.has(dep)) {
          found.add(dep);
          queue.push(dep);
        }
      }
    }
    await cache.put(path, asset);
  }
  // Last, so a kept page always finds what it loads.
  await cache.put(path, res);
}

async function page(event, request, url) {
  const shell = isShellPage(url.pathname);
  const tablet = TABLET_PAGE.test(url.pathname);
  try {
    const res = await fetch(request);
    if ((shell || tablet) && res.ok && !url.searchParams.has("shell")) {
      const key = shell ? url.pathname : TABLET_SHELL;
      // A tablet page is never kept itself: only its shell is asked for.
      const kept = shell ? res.clone() : undefined;
      event.waitUntil(keepShellOf(url.pathname, key, kept).catch(() => {}));
    }
    return res;
  } catch {
    const key = shell ? url.pathname : tablet ? TABLET_SHELL : null;
    const kept = key && await (await caches.open(SHELL_CACHE)).match(key);
    if (!kept) return offlinePage();
    const headers = new Headers(kept.headers);
    headers.set("X-Served-Offline", "1");
    return new Response(kept.body, { status: kept.status, headers });
  }
}

async function asset(request, url) {
  const cache = await caches.open(SHELL_CACHE);
  if (url.pathname.startsWith("/static/build/")) {
    return (await cache.match(url.pathname)) ?? fetch(request);
  }
  try {
    return await fetch(request);
  } catch (err) {
    const kept = await cache.match(url.pathname);
    if (kept) return kept;
    throw err;
  }
}

// The offline page's one style: readable type and a finger-sized Try again
// (44×44 CSS px at least). The page allows this style alone, by its hash.
const OFFLINE_STYLE = "body{margin:0;padding:32px 24px;font:18px/1.5 system-ui,sans-serif;" +
  "color:#1d2428;background:#f6f4ef}" +
  "a{display:inline-flex;align-items:center;justify-content:center;min-width:44px;" +
  "min-height:44px;padding:0 20px;border-radius:6px;background:#1f4e5f;color:#fff;" +
  "font-weight:600;text-decoration:none}" +
  "a:focus-visible{outline:3px solid #1d5fa0;outline-offset:2px}";

async function offlinePage() {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(OFFLINE_STYLE));
  const styleHash = btoa(String.fromCharCode(...new Uint8Array(digest)));
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Offline</title>
<style>${OFFLINE_STYLE}</style>
</head>
<body>
<main>
<h1>You are offline</h1>
<p>This page needs the store's connection. Please try again once the tablet is back on the Wi-Fi.</p>
<p><a href="">Try again</a></p>
</main>
</body>
</html>`;
  return new Response(html, {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": `default-src 'none'; style-src 'sha256-${styleHash}'`,
      "X-Served-Offline": "1",
    },
  });
}
