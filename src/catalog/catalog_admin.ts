import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import type { CatalogTableName } from "./default_catalog.ts";
import type { CatalogItem } from "./catalog.ts";
import type { CatalogItemInput } from "../schemas/catalog.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import { isUuid } from "../db/ids.ts";

/** Every item of a section, inactive ones too, in the store's order. */
export async function listCatalogForAdmin(db: DB, table: CatalogTableName): Promise<CatalogItem[]> {
  if (table === "lensPackages") {
    return await db.selectFrom("lensPackages").select([
      "id",
      "name",
      "description",
      sql<string>`price::text`.as("price"),
      "active",
      "sortOrder",
    ]).orderBy("sortOrder").orderBy("name").orderBy("id").execute();
  }
  return await db.selectFrom(table).select([
    "id",
    "name",
    sql<string>`price::text`.as("price"),
    "active",
    "sortOrder",
  ]).orderBy("sortOrder").orderBy("name").orderBy("id").execute();
}

async function one(db: DB, table: CatalogTableName, id: string) {
  return (await listCatalogForAdmin(db, table)).find((i) => i.id === id);
}

function values(table: CatalogTableName, input: CatalogItemInput) {
  const base = {
    name: input.name,
    price: input.price,
    active: input.active,
    sortOrder: input.sortOrder,
  };
  return table === "lensPackages" ? { ...base, description: input.description } : base;
}

export async function insertCatalogItem(
  db: DB,
  table: CatalogTableName,
  input: CatalogItemInput,
  actor: AuditActor,
) {
  const row = await db.insertInto(table).values(values(table, input)).returning("id")
    .executeTakeFirstOrThrow();
  await recordAudit(db, actor, "catalog.create", table, row.id, { name: input.name });
  return (await one(db, table, row.id))!;
}

/** Whole item, or {active} alone; undefined when there is no such item. */
export async function updateCatalogItem(
  db: DB,
  table: CatalogTableName,
  id: string,
  input: CatalogItemInput | { active: boolean },
  actor: AuditActor,
) {
  if (!isUuid(id)) return undefined;
  const set = "name" in input ? values(table, input) : { active: input.active };
  const result = await db.updateTable(table).set({ ...set, updatedAt: new Date() })
    .where("id", "=", id).executeTakeFirst();
  if (result.numUpdatedRows === 0n) return undefined;
  await recordAudit(db, actor, "catalog.update", table, id, set);
  return await one(db, table, id);
}

/**
 * Quotes keep their own copies of names and prices, so deleting an item
 * leaves every saved quote exactly as it was.
 */
export async function deleteCatalogItem(
  db: DB,
  table: CatalogTableName,
  id: string,
  actor: AuditActor,
): Promise<boolean> {
  if (!isUuid(id)) return false;
  const row = await db.deleteFrom(table).where("id", "=", id).returning("name")
    .executeTakeFirst();
  if (!row) return false;
  await recordAudit(db, actor, "catalog.delete", table, id, { name: row.name });
  return true;
}
