import type { Context } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";

/** Seconds a browser or a tablet is told to wait before trying again. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * A page address asked for while the database cannot answer (a restart, a
 * failover): a page of its own that needs nothing from the database (the
 * usual layout reads the store's branding from it) and reloads itself.
 */
export function renderUnavailablePage(c: Context<AppEnv>, message: string) {
  const text = message.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}">` +
      `<title>Back in a moment</title></head><body>` +
      `<main><h1>Back in a moment</h1><p>${text}</p>` +
      `<p>This page tries again by itself every ${RETRY_AFTER_SECONDS} seconds.</p></main>` +
      `</body></html>`,
    503,
    { "Retry-After": String(RETRY_AFTER_SECONDS) },
  );
}
