// The one browser entry: hydrates every island on the page and mounts the
// toaster. Each island's code is its own chunk, loaded only on pages that
// render it. react-query is not part of the entry: a page with an island that
// uses it (components/query_islands.ts) loads it with that island, and those
// islands share the page's one QueryClient (components/page_query.ts).
// First, before any island chunk can load zod: zod validates without `new Function`.
import "../components/zod_jitless.ts";
import type { ComponentType, ReactNode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { IslandRoot } from "../components/island_root.tsx";
import { Toaster } from "../components/toast.tsx";
import { QUERY_ISLANDS } from "../components/query_islands.ts";

// Props arrive as JSON written by the server for that same component.
// deno-lint-ignore no-explicit-any
type IslandModule = { default: ComponentType<any> };

export const islands: Record<string, () => Promise<IslandModule>> = {
  CatalogAdmin: () => import("./CatalogAdmin.tsx"),
  ChangePassword: () => import("./ChangePassword.tsx"),
  ClientManager: () => import("./ClientManager.tsx"),
  HandToClient: () => import("./HandToClient.tsx"),
  IntakeForm: () => import("./IntakeForm.tsx"),
  KioskReturn: () => import("./KioskReturn.tsx"),
  LabsAdmin: () => import("./LabsAdmin.tsx"),
  OnlineAccept: () => import("./OnlineAccept.tsx"),
  OrderPage: () => import("./OrderPage.tsx"),
  PrintControls: () => import("./PrintControls.tsx"),
  QuoteBuilder: () => import("./QuoteBuilder.tsx"),
  QuoteManager: () => import("./QuoteManager.tsx"),
  ResetPassword: () => import("./ResetPassword.tsx"),
  SearchBox: () => import("./SearchBox.tsx"),
  SettingsForm: () => import("./SettingsForm.tsx"),
  StoresAdmin: () => import("./StoresAdmin.tsx"),
  TabletSelect: () => import("./TabletSelect.tsx"),
  TwoFactorSettings: () => import("./TwoFactorSettings.tsx"),
  TwoFactorStep: () => import("./TwoFactorStep.tsx"),
  UserManagement: () => import("./UserManagement.tsx"),
};

function readProps(el: Element): Record<string, unknown> {
  const id = el.getAttribute("data-props");
  const json = id ? document.getElementById(id)?.textContent : null;
  return json ? JSON.parse(json) : {};
}

async function hydrateAll() {
  const toastRoot = document.getElementById("toast-root");
  if (toastRoot) createRoot(toastRoot).render(<Toaster />);
  const elements = Array.from(document.querySelectorAll("[data-island]"));
  const names = elements.map((el) => el.getAttribute("data-island")!);
  // Asked for at once, beside the islands' own chunks (which import react-query too).
  const query = names.some((name) => QUERY_ISLANDS.has(name))
    ? import("../components/page_query.ts")
    : null;
  await Promise.all(
    elements.map(async (el, i) => {
      const name = names[i];
      const load = islands[name];
      if (!load) throw new Error(`Unknown island "${name}"`);
      const [{ default: Component }, withQuery] = await Promise.all([
        load(),
        QUERY_ISLANDS.has(name) ? query : null,
      ]);
      // The same tree as the server's rendering (components/Island.tsx).
      let island: ReactNode = <Component {...readProps(el)} />;
      if (withQuery) {
        const { QueryClientProvider, pageQueryClient } = withQuery;
        island = <QueryClientProvider client={pageQueryClient}>{island}</QueryClientProvider>;
      }
      hydrateRoot(el, <IslandRoot>{island}</IslandRoot>, {
        identifierPrefix: el.getAttribute("data-id-prefix") ?? undefined,
      });
    }),
  );
  document.documentElement.dataset.hydrated = "true";
}

hydrateAll();
