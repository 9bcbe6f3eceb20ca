/**
 * returnTo values that must never take the browser off the site, for the HTTP
 * tests of every entry point (the full table is in src/http/return_to_test.ts).
 * The first one is the hole that was open: browsers drop the tab and go to
 * //evil.example.
 */
export const HOSTILE_RETURN_TO = [
  "/\t/evil.example",
  "/\n/evil.example",
  "/%09/evil.example",
  "/%2509/evil.example",
  "/\\evil.example",
  "/%5Cevil.example",
  "//evil.example",
  "/..//evil.example",
  "https://evil.example",
  "javascript:alert(1)",
  "/api/logout",
];

/**
 * The query guard of every route answers 400 to a control character (a tab, a
 * newline) in any query value before a handler runs: those never reach a redirect.
 */
export function hasControlChar(value: string): boolean {
  // deno-lint-ignore no-control-regex
  return /[\u0000-\u001f\u007f]/.test(value);
}
