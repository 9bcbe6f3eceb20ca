import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import type { CatalogTableName } from "./default_catalog.ts";

/** URL section names of the spec → tables. */
export const CATALOG_SECTIONS: Record<string, CatalogTableName> = {
  "packages": "lensPackages",
  "lens-types": "lensTypes",
  "materials": "materials",
  "ar-coatings": "arCoatings",
  "add-ons": "addOns",
};

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
