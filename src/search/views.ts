// Shared by the search API and the staff bar's search island: plain types and
// numbers only, so the island pulls in nothing else.

/** One answer of GET /api/search (the spec's search result). */
export interface SearchResult {
  id: string;
  type: "client" | "quote" | "job";
  title: string;
  subtitle: string;
  href: string;
}

/** The spec: global search runs only for more than 2 characters. */
export const SEARCH_MIN_CHARS = 3;

/** At most this many results of each type. */
export const SEARCH_RESULTS_PER_TYPE = 5;

/** Longest query the API accepts. */
export const SEARCH_MAX_CHARS = 200;
