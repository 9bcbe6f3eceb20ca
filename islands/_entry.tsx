// The one browser entry: hydrates every island on the page with a shared
// QueryClient and mounts the toaster. Each island's code is its own chunk,
// loaded only on pages that render it.
// First, before any island chunk can load zod: zod validates without `new Function`.
import "../components/zod_jitless.ts";
import type { ComponentType } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { makeQueryClient } from "../components/query_client.ts";
import { IslandRoot } from "../components/island_root.tsx";
import { Toaster } from "../components/toast.tsx";
import { handleUnauthorized } from "../components/api_client.ts";

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
  TabletSelect: () => import("./TabletSelect.tsx"),
  TwoFactorSettings: () => import("./TwoFactorSettings.tsx"),
  TwoFactorStep: () => import("./TwoFactorStep.tsx"),
  UserManagement: () => import("./UserManagement.tsx"),
};

// A tablet handed to a client (kiosk) has no staff sign-in to go back to: its
// pages show the refusal themselves and offer the staff return form.
const kiosk = document.body.classList.contains("kiosk");
const queryClient = makeQueryClient((error) => {
  if (!kiosk) handleUnauthorized(error);
});

function readProps(el: Element): Record<string, unknown> {
  const id = el.getAttribute("data-props");
  const json = id ? document.getElementById(id)?.textContent : null;
  return json ? JSON.parse(json) : {};
}

async function hydrateAll() {
  const toastRoot = document.getElementById("toast-root");
  if (toastRoot) createRoot(toastRoot).render(<Toaster />);
  await Promise.all(
    Array.from(document.querySelectorAll("[data-island]"), async (el) => {
      const name = el.getAttribute("data-island")!;
      const load = islands[name];
      if (!load) throw new Error(`Unknown island "${name}"`);
      const { default: Component } = await load();
      hydrateRoot(
        el,
        <IslandRoot client={queryClient}>
          <Component {...readProps(el)} />
        </IslandRoot>,
        { identifierPrefix: el.getAttribute("data-id-prefix") ?? undefined },
      );
    }),
  );
  document.documentElement.dataset.hydrated = "true";
}

hydrateAll();
