import { type ReactNode, StrictMode } from "react";

/**
 * The one wrapper every island has, on the server and in the browser alike.
 * React's useId depends on the tree above a component, so both sides must
 * render the same root for ids (label targets, aria references) to match.
 * An island that uses react-query (components/query_islands.ts) has a
 * QueryClientProvider inside this root, on both sides too; the root itself
 * imports no react-query, so the browser entry carries none.
 */
export function IslandRoot({ children }: { children: ReactNode }) {
  return <StrictMode>{children}</StrictMode>;
}
