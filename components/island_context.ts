import { createContext } from "react";

/** Server-side: the names of the islands a page rendered, so it loads their code. */
export const IslandCollector = createContext<Set<string> | null>(null);
