import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { Island } from "../../components/Island.tsx";
import ClientManager, { type ClientManagerProps } from "../../islands/ClientManager.tsx";
import { findClientDetail, listClients } from "../../src/clients/clients.ts";
import { CLIENT_PAGE_SIZE } from "../../src/clients/views.ts";
import { listHeardHowOptions } from "../../src/settings/heard_how.ts";
import { findConsentTexts } from "../../src/settings/consent_texts.ts";
import { readQuery } from "../../src/http/errors.ts";
import { clientsPageQuery } from "../../src/schemas/query.ts";
import type { DB } from "../../src/db/database.ts";
import { readThrough } from "../../src/db/read_through.ts";

/** Everything the page's props are read from. */
const CLIENTS_PAGE_TABLES = [
  "clients",
  "client_measurements",
  "quotes",
  "heard_how_options",
  "settings",
];

async function loadProps(
  db: DB,
  filter: "missing" | null,
  openClientId: string | null,
): Promise<ClientManagerProps> {
  const [initialClients, initialDetail, heardHowOptions, consentTexts] = await Promise.all([
    listClients(db, { filter: filter ?? undefined, limit: CLIENT_PAGE_SIZE, offset: 0 }),
    openClientId ? findClientDetail(db, openClientId) : undefined,
    listHeardHowOptions(db),
    findConsentTexts(db),
  ]);
  return {
    initialFilter: filter,
    initialClients,
    openClientId,
    initialDetail: initialDetail ?? null,
    heardHowOptions,
    consentTexts,
  };
}

export function clientsPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  // Everything the first paint shows is loaded here, so the island starts
  // with data instead of a round trip: the first page of the list for the
  // filter in the URL and, for `?id=`, that client's details.
  app.get("/clients", async (c) => {
    const db = c.var.db;
    const query = readQuery(c, clientsPageQuery);
    const filter = query.filter === "missing" ? "missing" : null;
    const openClientId = query.id?.trim() || null;
    // Without an open client the page is the same for everyone: its props are
    // kept while no table they come from is written, and the same props
    // object lets Island reuse its rendering (components/Island.tsx).
    const props = openClientId ? await loadProps(db, filter, openClientId) : await readThrough(db, {
      key: `clients-page:${filter ?? "all"}`,
      tables: CLIENTS_PAGE_TABLES,
      maxAgeMs: 60_000,
      load: () => loadProps(db, filter, null),
    });
    return renderPage(
      c,
      manifest,
      <Island name="ClientManager" component={ClientManager} props={props} />,
      { title: "Client Management" },
    );
  });

  return app;
}
