/**
 * The islands whose code uses @tanstack/react-query, statically
 * (tests/unit/islands_registry_test.ts holds this list to their module
 * graphs). Only these get a QueryClientProvider, on the server and in the
 * browser alike, and only a page with one of them loads react-query
 * (components/page_query.ts): the pages a client holds ship without it.
 */
export const QUERY_ISLANDS: ReadonlySet<string> = new Set([
  "CatalogAdmin",
  "ClientManager",
  "LabsAdmin",
  "OrderPage",
  "QuoteBuilder",
  "QuoteManager",
  "SettingsForm",
  "StoresAdmin",
  "UserManagement",
]);
