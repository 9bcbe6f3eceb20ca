// The staff bar search's query, loaded when the box is first focused or typed
// in (islands/SearchBox.tsx): react-query and the page's QueryClient stay off
// the pages that only show the bar, the signed-in intake among them.
import { useLayoutEffect } from "react";
import { useQuery } from "@tanstack/react-query";
import { apiRequest } from "../api_client.ts";
import { pageQueryClient, QueryClientProvider } from "../page_query.ts";
import { SEARCH_MIN_CHARS, type SearchResult } from "../../src/search/views.ts";

/** Where the search for `term` stands, as the box shows it. */
export interface SearchState {
  term: string;
  status: "pending" | "error" | "success";
  fetching: boolean;
  data: SearchResult[] | undefined;
}

export interface SearchQueryProps {
  term: string;
  /** Called with each new state, before the browser paints. */
  onState: (state: SearchState) => void;
}

/** Runs the search for `term` (from SEARCH_MIN_CHARS characters on) and renders nothing. */
export function SearchQuery(props: SearchQueryProps) {
  return (
    <QueryClientProvider client={pageQueryClient}>
      <RunSearch {...props} />
    </QueryClientProvider>
  );
}

function RunSearch({ term, onState }: SearchQueryProps) {
  const search = useQuery({
    queryKey: ["search", term],
    queryFn: () => apiRequest<SearchResult[]>("GET", `/api/search?q=${encodeURIComponent(term)}`),
    enabled: term.length >= SEARCH_MIN_CHARS,
  });
  const { status, isFetching: fetching, data } = search;
  useLayoutEffect(() => onState({ term, status, fetching, data }), [term, status, fetching, data]);
  return null;
}
