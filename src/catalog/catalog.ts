import { sql } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import type { DB } from "../db/database.ts";
import { readThrough } from "../db/read_through.ts";
import type { CatalogTableName } from "./default_catalog.ts";

/**
 * URL section names of the spec → tables. A Map, not an object literal: the
 * name comes from the URL, and "constructor" or "__proto__" must find nothing.
 */
export const CATALOG_SECTIONS: ReadonlyMap<string, CatalogTableName> = new Map([
  ["packages", "lensPackages"],
  ["lens-types", "lensTypes"],
  ["materials", "materials"],
  ["ar-coatings", "arCoatings"],
  ["add-ons", "addOns"],
]);

/** The table of a section named in a URL, or undefined for any other name. */
export const catalogTable = (section: string | undefined): CatalogTableName | undefined =>
  section === undefined ? undefined : CATALOG_SECTIONS.get(section);

export interface CatalogItem {
  id: string;
  name: string;
  description?: string;
  price: string;
  active: boolean;
  sortOrder: number;
}

/** Active items of one section in the store's order; prices as decimal strings. */
export async function listActiveCatalog(db: DB, table: CatalogTableName): Promise<CatalogItem[]> {
  return await activeCatalogQuery(db, table).execute();
}

function activeCatalogQuery(db: DB, table: CatalogTableName) {
  if (table === "lensPackages") {
    return db.selectFrom("lensPackages").select([
      "id",
      "name",
      "description",
      sql<string>`price::text`.as("price"),
      "active",
      "sortOrder",
    ]).where("active", "=", true).orderBy("sortOrder").orderBy("name");
  }
  return db.selectFrom(table).select([
    "id",
    "name",
    sql<string>`price::text`.as("price"),
    "active",
    "sortOrder",
  ]).where("active", "=", true).orderBy("sortOrder").orderBy("name");
}

export interface BuilderCatalog {
  packages: CatalogItem[];
  lensTypes: CatalogItem[];
  materials: CatalogItem[];
  arCoatings: CatalogItem[];
  addOns: CatalogItem[];
}

/** The tables the builder's catalog is read from. */
const BUILDER_CATALOG_TABLES = [
  "lens_packages",
  "lens_types",
  "materials",
  "ar_coatings",
  "add_ons",
];

/**
 * The builder's catalog, kept while none of its tables is written
 * (src/db/read_through.ts): the quote page opens often and its catalog
 * changes when an admin edits it. The same object lets the page keep its
 * rendering (routes/pages/quote.tsx).
 */
export function readBuilderCatalog(db: DB): Promise<BuilderCatalog> {
  return readThrough(db, {
    key: "builder-catalog",
    tables: BUILDER_CATALOG_TABLES,
    maxAgeMs: 60_000,
    load: () => loadBuilderCatalog(db),
  });
}

/** The five sections for the quote builder, in one statement (the builder page opens often). */
export async function loadBuilderCatalog(db: DB): Promise<BuilderCatalog> {
  const row = await db.selectNoFrom([
    jsonArrayFrom(activeCatalogQuery(db, "lensPackages")).as("packages"),
    jsonArrayFrom(activeCatalogQuery(db, "lensTypes")).as("lensTypes"),
    jsonArrayFrom(activeCatalogQuery(db, "materials")).as("materials"),
    jsonArrayFrom(activeCatalogQuery(db, "arCoatings")).as("arCoatings"),
    jsonArrayFrom(activeCatalogQuery(db, "addOns")).as("addOns"),
  ]).executeTakeFirstOrThrow();
  return row as BuilderCatalog;
}
