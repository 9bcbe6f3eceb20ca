import { type Browser, chromium, type Locator, type Page } from "playwright-core";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Chromium's headless shell when it is installed (Debian's
 * chromium-headless-shell), else the full browser. The shell is the same
 * Blink without the browser around it, the build Playwright itself runs
 * headless: a browser test file takes about half the CPU (floor_layout_test:
 * 13 s against 24 s of CPU), on a 2-core CI that runs two files at a time.
 */
export function chromiumPath(): string {
  const chosen = Deno.env.get("CHROMIUM_PATH");
  if (chosen) return chosen;
  const shell = "/usr/bin/chromium-headless-shell";
  try {
    if (Deno.statSync(shell).isFile) return shell;
  } catch { /* not installed */ }
  return "/usr/bin/chromium";
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}

export const TABLET_PORTRAIT = { width: 768, height: 1024 };
export const TABLET_LANDSCAPE = { width: 1024, height: 768 };
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
/** The store's desk screen. */
export const WIDE = { width: 1440, height: 900 };
/** The four sizes the store floor is measured at: desk, tablet both ways, phone. */
export const FLOOR_SIZES = [WIDE, TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE];
/** "1440x900": a size as test names and screenshots say it. */
export const sizeName = (v: { width: number; height: number }) => `${v.width}x${v.height}`;

/** Where screenshots go when SCREENSHOT_DIR is set (for looking at pages by eye). */
export function screenshotPath(name: string): string | undefined {
  const dir = Deno.env.get("SCREENSHOT_DIR");
  return dir ? `${dir}/${name}.png` : undefined;
}

export interface PageOptions {
  /** A session's Cookie header (see sessionCookieFor); signed out without one. */
  cookie?: string;
  viewport?: { width: number; height: number };
  timezoneId?: string;
  hasTouch?: boolean;
  /** Console errors the test expects (refused calls the browser logs itself). */
  ignoreConsole?: (text: string) => boolean;
  /** Playwright's bound for one step, in ms (its default is 30 s). */
  timeout?: number;
}

/**
 * A page in a context of its own (signed in when given a cookie) that records
 * page errors and console errors in `problems` (but those `ignoreConsole`
 * accepts) and the API calls it makes, with their query strings, in `apiCalls`.
 */
export async function openPage(browser: Browser, baseUrl: string, options: PageOptions = {}) {
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    baseURL: baseUrl,
    acceptDownloads: true,
    timezoneId: options.timezoneId,
    hasTouch: options.hasTouch,
  });
  if (options.timeout) context.setDefaultTimeout(options.timeout);
  if (options.cookie) {
    await context.addCookies([{
      name: "lensdesk_session",
      value: options.cookie.split("=")[1],
      url: baseUrl,
    }]);
  }
  const page = await context.newPage();
  const problems: string[] = [];
  const apiCalls: string[] = [];
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error" && !options.ignoreConsole?.(msg.text())) {
      problems.push(`console: ${msg.text()}`);
    }
  });
  page.on("request", (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith("/api/")) {
      apiCalls.push(`${req.method()} ${url.pathname}${url.search}`);
    }
  });
  return { page, problems, apiCalls, close: () => context.close() };
}

/** openPage signed in with a session's Cookie header. */
export function openSignedIn(
  browser: Browser,
  baseUrl: string,
  cookie: string,
  viewport = DESKTOP,
  options: Omit<PageOptions, "cookie" | "viewport"> = {},
) {
  return openPage(browser, baseUrl, { ...options, cookie, viewport });
}

/** Goes to `path` and, when the page has an island, waits until it is hydrated. */
export async function visit(page: Page, path: string) {
  const response = await page.goto(path);
  if (await page.locator("[data-island]").count()) {
    await page.waitForSelector("html[data-hydrated=true]");
  }
  return response;
}

/** The smallest tap area the tablet pages allow, in CSS px (WCAG 2.5.5, Apple's 44 pt). */
export const MIN_TAP = 44;

/**
 * Every visible tap target on the page smaller than MIN_TAP in either
 * direction, as "what: width×height". The real tap area is measured: a
 * checkbox or radio by its label, the tablet's option toggle by its card
 * (its hit area is stretched over the card); text fields, selects, buttons
 * and links by their own box.
 */
export async function smallTapTargets(page: Page): Promise<string[]> {
  return await page.evaluate((min) => {
    const selector = [
      "a[href]",
      "button",
      "input:not([type=hidden])",
      "select",
      "textarea",
      "summary",
      "[role=button]",
      "[role=checkbox]",
      "[tabindex]:not([tabindex='-1'])",
    ].join(", ");
    const seen = new Set<Element>();
    const small: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      let target: HTMLElement = el;
      if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) {
        target = el.closest("label") ??
          (el.id
            ? document.querySelector<HTMLElement>(`label[for="${CSS.escape(el.id)}"]`)
            : null) ??
          el;
      }
      if (el.classList.contains("tablet-card-toggle")) target = el.closest(".tablet-card") ?? el;
      if (seen.has(target)) continue;
      seen.add(target);
      if (!target.checkVisibility({ visibilityProperty: true })) continue;
      const box = target.getBoundingClientRect();
      if (box.width < min || box.height < min) {
        const name = (el.getAttribute("aria-label") ?? el.getAttribute("name") ??
          el.textContent?.trim().slice(0, 30)) || el.tagName;
        small.push(`${target.tagName.toLowerCase()} ${name}: ${box.width}×${box.height}`);
      }
    }
    return small;
  }, MIN_TAP);
}

/**
 * Waits until `locator` matches exactly `n` elements. A bare `count()` reads
 * the page once, which fails whenever a render is still on its way; this
 * retries as Playwright's own waits do, up to the context's step bound.
 */
export async function expectCount(locator: Locator, n: number): Promise<void> {
  if (n > 0) await locator.nth(n - 1).waitFor({ state: "attached" });
  await locator.nth(n).waitFor({ state: "detached" });
}
