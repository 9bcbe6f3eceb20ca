// Every route of the app with who may call it (the spec's role table, with
// the decisions of DESIGN.md) and a request that succeeds for an allowed
// caller. The route-table test calls each route as each caller and compares;
// the fuzz test mutates the same requests. A route added to the app without an
// entry here fails the route-table test.
//
// Callers are columns: to add one, add it to CALLERS, say in `expectedFor`
// what each access level means for it, and give the few routes it may use an
// `overrides` entry. The two kiosk columns are a tablet handed to a client for
// an intake and for one quote's options: outside their allow-list
// every route must refuse them, whatever its access.
import type { TestApp } from "./test_app.ts";
import type { RouteEntry } from "./route_table/expectations.ts";
import { SIGN_IN_ROUTES } from "./route_table/sign_in.ts";
import { ONLINE_AND_INTAKE_ROUTES } from "./route_table/online_and_intake.ts";
import { CLIENT_ROUTES } from "./route_table/clients.ts";
import { QUOTE_AND_ORDER_ROUTES } from "./route_table/quotes_and_orders.ts";
import { ADMIN_ROUTES } from "./route_table/admin.ts";
import { KIOSK_AND_REPORT_ROUTES } from "./route_table/kiosk_and_reports.ts";
import { PAGE_ROUTES } from "./route_table/pages.ts";

export {
  type Access,
  type Caller,
  CALLERS,
  type Expectation,
  expectedFor,
  type RouteEntry,
  type SampleRequest,
} from "./route_table/expectations.ts";
export {
  cookieFor,
  Fixtures,
  freshUser,
  PRESCRIPTION_BODY,
  saveBody,
  TEST_PASSWORD,
} from "./route_table/fixtures.ts";

export const ROUTES: RouteEntry[] = [
  ...SIGN_IN_ROUTES,
  ...ONLINE_AND_INTAKE_ROUTES,
  ...CLIENT_ROUTES,
  ...QUOTE_AND_ORDER_ROUTES,
  ...ADMIN_ROUTES,
  ...KIOSK_AND_REPORT_ROUTES,
  ...PAGE_ROUTES,
];

/**
 * Patterns the app registers for every method that are middleware, not
 * routes (guards, static files). A new one must be added here on purpose.
 */
export const MIDDLEWARE_PATTERNS = new Set([
  "/*",
  "/static/*",
  "/static/build/*",
  "/uploads/*",
  "/api/clients/*",
  "/api/quotes/:id/pdf",
  "/api/quotes/:id/online",
  "/api/quotes/:id/online-links/*",
  "/api/quotes/:id/signed-pdf",
  "/api/quotes",
  "/api/quotes/*",
  "/api/quote-options/*",
  "/api/stats",
  "/api/catalog/*",
]);

/** The app's routes as `METHOD pattern`, middleware left out. */
export function appRoutes(app: TestApp["app"]): Set<string> {
  const out = new Set<string>();
  for (const r of app.routes) {
    if (r.method === "ALL" && MIDDLEWARE_PATTERNS.has(r.path)) continue;
    out.add(`${r.method} ${r.path}`);
  }
  return out;
}
