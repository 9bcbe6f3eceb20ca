// The app, a signed-in optician and the default catalog that the quote API tests share,
// and the quotes they build.
import type { TestApp } from "../helpers/test_app.ts";
import { call, signedInUser } from "../helpers/test_app.ts";
import { ensureDefaultCatalog } from "../../src/catalog/default_catalog.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";
import type { CatalogItem } from "../../src/catalog/catalog.ts";
import type { CreatedClient } from "../../src/clients/views.ts";
import { useTestApp } from "../helpers/suite.ts";

export let app: TestApp;
export let cookie: string;
export let packages: CatalogItem[];
export let lensTypes: CatalogItem[];
export let materials: CatalogItem[];

export async function newQuote(measured = false) {
  const res = await call<CreatedClient>(app, "POST", "/api/clients", {
    body: { firstName: "Quinn", lastName: `Test${Math.random()}` },
    cookie,
  });
  if (measured) {
    await call(app, "PUT", `/api/clients/${res.body.client.id}/measurements`, {
      body: { pdBinocular: "62", pdNear: "59", measurementsComplete: true },
      cookie,
    });
  }
  const bundle = await call<QuoteBundle>(app, "GET", `/api/quotes/${res.body.quote.id}`, {
    cookie,
  });
  return bundle.body;
}

export const frame = (sku: string, price = "150.00") => ({
  kind: "FRAME",
  name: "Ray-Ban",
  sku,
  unitPrice: price,
  qty: 1,
});

export type Item = Record<string, unknown>;

export interface SaveBody {
  version: number;
  opticianName: string;
  internalNotes: string;
  options: Array<{ id: string; items: Item[]; [field: string]: unknown }>;
}

export function twoOptions(bundle: QuoteBundle): SaveBody {
  const pkg = packages[0];
  return {
    version: bundle.quote.version,
    opticianName: "Maria",
    internalNotes: "Prefers matte frames",
    options: [
      {
        id: bundle.options[0].id,
        label: "Everyday",
        isChosen: true,
        shipping: "0",
        adjustmentAmount: "0",
        items: [frame("RB-1"), {
          kind: "PACKAGE",
          name: pkg.name,
          unitPrice: pkg.price,
          qty: 1,
          catalogId: pkg.id,
        }],
      },
      {
        id: "temp-abc",
        label: "",
        shipping: "15",
        adjustmentAmount: "25",
        adjustmentReason: "",
        segOc: "22/22",
        items: [
          frame("OK-2", "99.99"),
          { kind: "PACKAGE", name: "Custom Package", unitPrice: "0", qty: 1 },
          {
            kind: "LENS",
            name: lensTypes[0].name,
            unitPrice: lensTypes[0].price,
            catalogId: lensTypes[0].id,
          },
          {
            kind: "MATERIAL",
            name: materials[0].name,
            unitPrice: materials[0].price,
            catalogId: materials[0].id,
          },
          { kind: "OTHER", name: "Case", unitPrice: "12.50", qty: "abc" },
        ],
      },
    ],
  };
}

export const cents = (s: string) => Math.round(Number(s) * 100);

/** Starts the app for the calling test file (before its tests, closed after them). */
export function useQuotesApp(): void {
  useTestApp(async (started) => {
    ({ app } = started);
    await ensureDefaultCatalog(app.db);
    ({ cookie: cookie } = await signedInUser(app.db, { firstName: "Maria" }));
    packages = (await call<CatalogItem[]>(app, "GET", "/api/catalog/packages", { cookie })).body;
    lensTypes = (await call<CatalogItem[]>(app, "GET", "/api/catalog/lens-types", { cookie })).body;
    materials = (await call<CatalogItem[]>(app, "GET", "/api/catalog/materials", { cookie })).body;
  });
}
