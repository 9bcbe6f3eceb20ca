import { sql } from "kysely";
import type { DB } from "../db/database.ts";
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
  if (table === "lensPackages") {
    return await db.selectFrom("lensPackages").select([
      "id",
      "name",
      "description",
      sql<string>`price::text`.as("price"),
      "active",
      "sortOrder",
    ]).where("active", "=", true).orderBy("sortOrder").orderBy("name").execute();
  }
  return await db.selectFrom(table).select([
    "id",
    "name",
    sql<string>`price::text`.as("price"),
    "active",
    "sortOrder",
  ]).where("active", "=", true).orderBy("sortOrder").orderBy("name").execute();
}

export interface BuilderCatalog {
  packages: CatalogItem[];
  lensTypes: CatalogItem[];
  materials: CatalogItem[];
  arCoatings: CatalogItem[];
  addOns: CatalogItem[];
}

export async function loadBuilderCatalog(db: DB): Promise<BuilderCatalog> {
  const [packages, lensTypes, materials, arCoatings, addOns] = await Promise.all([
    listActiveCatalog(db, "lensPackages"),
    listActiveCatalog(db, "lensTypes"),
    listActiveCatalog(db, "materials"),
    listActiveCatalog(db, "arCoatings"),
    listActiveCatalog(db, "addOns"),
  ]);
  return { packages, lensTypes, materials, arCoatings, addOns };
}
