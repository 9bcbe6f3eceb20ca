import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../../src/http/render.tsx";
import { Island } from "../../components/Island.tsx";
import ClientManager, { type ClientManagerProps } from "../../islands/ClientManager.tsx";
import { findClientDetail, listClients } from "../../src/clients/clients.ts";
import { CLIENT_PAGE_SIZE } from "../../src/clients/views.ts";
import { listHeardHowOptions } from "../../src/settings/heard_how.ts";
import { findConsentTexts } from "../../src/settings/consent_texts.ts";
import { readQuery } from "../../src/http/errors.ts";
import { clientsPageQuery } from "../../src/schemas/query.ts";

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
    const [initialClients, initialDetail, heardHowOptions, consentTexts] = await Promise.all([
      listClients(db, { filter: filter ?? undefined, limit: CLIENT_PAGE_SIZE, offset: 0 }),
      openClientId ? findClientDetail(db, openClientId) : undefined,
      listHeardHowOptions(db),
      findConsentTexts(db),
    ]);
    const props: ClientManagerProps = {
      initialFilter: filter,
      initialClients,
      openClientId,
      initialDetail: initialDetail ?? null,
      heardHowOptions,
      consentTexts,
    };
    return renderPage(
      c,
      manifest,
      <Island name="ClientManager" component={ClientManager} props={props} />,
      { title: "Client Management" },
    );
  });

  return app;
}
