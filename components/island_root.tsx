import { type ReactNode, StrictMode } from "react";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";

/**
 * The one wrapper every island has, on the server and in the browser alike.
 * React's useId depends on the tree above a component, so both sides must
 * render the same root for ids (label targets, aria references) to match.
 */
export function IslandRoot({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <StrictMode>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </StrictMode>
  );
}
