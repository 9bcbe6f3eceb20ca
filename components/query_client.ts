import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";

/**
 * The data-layer rules of the spec: no retries, no refetch on focus or on an
 * interval, cached data never stale. `onError` is where the browser applies
 * the shared 401 rule; the server passes nothing.
 */
export function makeQueryClient(onError?: (error: unknown) => void): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        refetchInterval: false,
        staleTime: Infinity,
      },
      mutations: { retry: false },
    },
  });
}
