/**
 * The one decision on where a `returnTo` may send the browser: the sign-in
 * answer, `/staff?returnTo=`, the owner sign-in round trip, the e-mail banner's
 * dismiss, and the sign-in island before it navigates. Pure, so the island
 * runs the same code as the server.
 *
 * Anything that could leave the site falls back: the value is resolved with
 * the WHATWG URL parser against APP_URL and only our origin is kept. Control
 * characters and backslashes are refused outright, in the raw text and in
 * every percent-decoded layer, because browsers strip tabs and newlines
 * (`/\t/evil.example` becomes `//evil.example`) and treat `\` as `/`.
 */

export const RETURN_TO_MAX_LENGTH = 2000;

// C0 controls, DEL, C1 controls, backslash.
// deno-lint-ignore no-control-regex
const FORBIDDEN_RAW = /[\u0000-\u001f\u007f-\u009f\\]/;
// In a byte-wise decoded layer only ASCII can be judged: bytes 0x80-0x9f there
// are UTF-8 continuation bytes of ordinary letters, not C1 controls.
// deno-lint-ignore no-control-regex
const FORBIDDEN_DECODED = /[\u0000-\u001f\u007f\\]/;
const MAX_DECODE_LAYERS = 4;

/** Percent-decodes byte by byte; unlike decodeURIComponent it never throws. */
const decodeOnce = (s: string) =>
  s.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

function hasHiddenTrick(value: string): boolean {
  if (FORBIDDEN_RAW.test(value)) return true;
  let layer = value;
  for (let i = 0; i <= MAX_DECODE_LAYERS; i++) {
    const next = decodeOnce(layer);
    if (next === layer) return false;
    layer = next;
    if (FORBIDDEN_DECODED.test(layer) || layer.startsWith("//")) return true;
  }
  return true; // encoded deeper than any real link would be
}

/**
 * A path (with query and fragment) on this site, or `fallback`. Paths under
 * /api are refused too: nothing there is a page to come back to, and
 * `returnTo=/api/logout` would only sign the user out again.
 */
export function safeReturnTo(value: unknown, appUrl: string, fallback = "/dashboard"): string {
  if (typeof value !== "string" || value.length > RETURN_TO_MAX_LENGTH) return fallback;
  if (!value.startsWith("/") || hasHiddenTrick(value)) return fallback;
  let base: URL;
  let url: URL;
  try {
    base = new URL(appUrl);
    url = new URL(value, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base.origin) return fallback;
  const path = url.pathname + url.search + url.hash;
  // Dot segments can normalise "/..//evil.example" into "//evil.example".
  if (!path.startsWith("/") || path.startsWith("//")) return fallback;
  if (url.pathname === "/api" || url.pathname.startsWith("/api/")) return fallback;
  return path;
}
