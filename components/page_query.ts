// The browser's react-query for a page: the one QueryClient every island of the
// page shares, with the shared 401 rule. Loaded on demand (a dynamic import),
// only by a page with an island in components/query_islands.ts and by the
// staff bar's search once it is used, so the pages a client holds (intake,
// tablet, online quote) never load react-query.
import { QueryClientProvider } from "@tanstack/react-query";
import { makeQueryClient } from "./query_client.ts";
import { handleUnauthorized } from "./api_client.ts";

export { QueryClientProvider };

// A tablet handed to a client (kiosk) has no staff sign-in to go back to: its
// pages show the refusal themselves and offer the staff return form.
const kiosk = document.body.classList.contains("kiosk");

export const pageQueryClient = makeQueryClient((error) => {
  if (!kiosk) handleUnauthorized(error);
});
