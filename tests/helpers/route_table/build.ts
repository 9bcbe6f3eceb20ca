// The shorthands the route table's rows are written with.
import type { Access, Expectation, RouteEntry } from "./expectations.ts";
import type { Fixtures } from "./fixtures.ts";

export const html = { accept: "text/html" };
export const ok = (status: number, location?: RegExp): Expectation => ({ status, location });

/**
 * A GET of a fixed path (the pattern itself when not given) or of one made
 * from the fixtures: most rows of the table differ only in these values.
 */
export function get(
  pattern: string,
  access: Access,
  expected: Expectation,
  more: Pick<RouteEntry, "overrides" | "query" | "page"> & {
    path?: string | ((fx: Fixtures) => Promise<string>);
  } = {},
): RouteEntry {
  const { path = pattern, ...rest } = more;
  return {
    method: "GET",
    pattern,
    access,
    ok: expected,
    ...rest,
    request: async (fx) => ({
      path: typeof path === "string" ? path : await path(fx),
      ...(rest.page ? { headers: html } : {}),
    }),
  };
}

/** A call whose sample request is made from the fixtures (a POST, PUT or DELETE most often). */
export function send(
  method: string,
  pattern: string,
  access: Access,
  expected: Expectation,
  request: RouteEntry["request"],
): RouteEntry {
  return { method, pattern, access, ok: expected, request };
}

/** A page: a GET that asks for HTML, so a refusal is a page too. */
export const page = (...[pattern, access, expected, more]: Parameters<typeof get>) =>
  get(pattern, access, expected, { ...more, page: true });

export const SECTION = "packages|lens-types|materials|ar-coatings|add-ons";

/** YYYY-MM-DD `days` from today (UTC): the order routes' samples stay inside their windows. */
export function daysFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
