// The catalog a new store starts with, so it can quote on day one; admins
// change it under /admin. Also used by the demo seed.
import type { DB } from "../db/database.ts";

export interface CatalogSeedItem {
  name: string;
  /** Decimal string with two places, e.g. "129.00". */
  price: string;
  sortOrder: number;
}

export interface PackageSeedItem extends CatalogSeedItem {
  description: string;
}

export interface DefaultCatalog {
  lensPackages: readonly PackageSeedItem[];
  lensTypes: readonly CatalogSeedItem[];
  materials: readonly CatalogSeedItem[];
  arCoatings: readonly CatalogSeedItem[];
  addOns: readonly CatalogSeedItem[];
}

/** The five catalog tables, keyed by their Kysely table names, with US retail prices. */
export const DEFAULT_CATALOG: DefaultCatalog = {
  lensPackages: [
    {
      name: "Essential Single Vision",
      description:
        "Single vision CR-39 plastic lenses with scratch-resistant coating and UV protection.",
      price: "129.00",
      sortOrder: 1,
    },
    {
      name: "Premium Single Vision",
      description:
        "Digital single vision polycarbonate lenses with premium anti-reflective coating and UV protection.",
      price: "229.00",
      sortOrder: 2,
    },
    {
      name: "Essential Progressive",
      description:
        "Standard progressive lenses in polycarbonate with standard anti-reflective coating.",
      price: "259.00",
      sortOrder: 3,
    },
    {
      name: "Premium Progressive",
      description:
        "Digital free-form progressive lenses in Trivex with premium anti-reflective coating, wide reading zone.",
      price: "389.00",
      sortOrder: 4,
    },
    {
      name: "Computer & Office",
      description:
        "Intermediate-distance office lenses with blue-light anti-reflective coating for screen work.",
      price: "219.00",
      sortOrder: 5,
    },
    {
      name: "Kids Durable",
      description:
        "Impact-resistant polycarbonate single vision lenses with scratch coat, for ages 12 and under.",
      price: "99.00",
      sortOrder: 6,
    },
  ],
  lensTypes: [
    { name: "Single Vision", price: "79.00", sortOrder: 1 },
    { name: "Bifocal (Flat-Top 28)", price: "129.00", sortOrder: 2 },
    { name: "Progressive", price: "199.00", sortOrder: 3 },
    { name: "Premium Digital Progressive", price: "299.00", sortOrder: 4 },
    { name: "Computer/Office", price: "149.00", sortOrder: 5 },
  ],
  materials: [
    { name: "CR-39 Plastic", price: "0.00", sortOrder: 1 },
    { name: "Polycarbonate", price: "45.00", sortOrder: 2 },
    { name: "Trivex", price: "65.00", sortOrder: 3 },
    { name: "High-Index 1.67", price: "119.00", sortOrder: 4 },
    { name: "High-Index 1.74", price: "179.00", sortOrder: 5 },
  ],
  arCoatings: [
    { name: "Standard AR", price: "59.00", sortOrder: 1 },
    { name: "Premium AR", price: "99.00", sortOrder: 2 },
    { name: "Blue-light AR", price: "119.00", sortOrder: 3 },
  ],
  addOns: [
    { name: "Transitions (photochromic)", price: "129.00", sortOrder: 1 },
    { name: "Polarized", price: "95.00", sortOrder: 2 },
    { name: "Scratch coat", price: "25.00", sortOrder: 3 },
    { name: "Tint (solid or gradient)", price: "35.00", sortOrder: 4 },
    { name: "UV protection", price: "20.00", sortOrder: 5 },
    { name: "Mirror coating", price: "65.00", sortOrder: 6 },
  ],
};

export type CatalogTableName = keyof DefaultCatalog;
export const CATALOG_TABLES: readonly CatalogTableName[] = [
  "lensPackages",
  "lensTypes",
  "materials",
  "arCoatings",
  "addOns",
];

/**
 * Fills each catalog section that is still empty with the defaults. A section
 * the store has emptied on purpose stays empty only if it has inactive items;
 * a brand-new install gets the whole default catalog.
 */
export async function ensureDefaultCatalog(db: DB): Promise<string[]> {
  const filled: string[] = [];
  for (const table of CATALOG_TABLES) {
    const any = await db.selectFrom(table).select("id").limit(1).executeTakeFirst();
    if (any) continue;
    if (table === "lensPackages") {
      await db.insertInto("lensPackages").values(
        DEFAULT_CATALOG.lensPackages.map((i) => ({ ...i })),
      )
        .execute();
    } else {
      await db.insertInto(table).values(DEFAULT_CATALOG[table].map((i) => ({ ...i }))).execute();
    }
    filled.push(table);
  }
  return filled;
}
