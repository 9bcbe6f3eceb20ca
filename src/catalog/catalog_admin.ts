import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import type { CatalogTableName } from "./default_catalog.ts";
import type { CatalogItem } from "./catalog.ts";
import type { CatalogItemInput } from "../schemas/catalog.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import { isUuid } from "../db/ids.ts";
import { recordChanges } from "../audit/describe.ts";

/** The fields of a catalog item the history records, old → new. */
export const CATALOG_HISTORY_FIELDS = [
  "name",
  "description",
  "price",
  "active",
  "sortOrder",
] as const;

/** Each recorded field that differs; an item added compares with nothing, a deleted one with nothing after. */
export function catalogChanges(before: Partial<CatalogItem>, after: Partial<CatalogItem>) {
  return recordChanges(before, after, CATALOG_HISTORY_FIELDS);
}

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
  return await db.transaction().execute(async (trx) => {
    const row = await trx.insertInto(table).values(values(table, input)).returning("id")
      .executeTakeFirstOrThrow();
    const item = (await one(trx, table, row.id))!;
    await recordAudit(trx, actor, "catalog.create", table, row.id, {
      name: input.name,
      changes: catalogChanges({}, item),
    });
    return item;
  });
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
  return await db.transaction().execute(async (trx) => {
    await trx.selectFrom(table).select("id").where("id", "=", id).forUpdate().execute();
    const before = await one(trx, table, id);
    if (!before) return undefined;
    const set = "name" in input ? values(table, input) : { active: input.active };
    await trx.updateTable(table).set({ ...set, updatedAt: new Date() }).where("id", "=", id)
      .execute();
    const after = (await one(trx, table, id))!;
    await recordAudit(trx, actor, "catalog.update", table, id, {
      name: after.name,
      changes: catalogChanges(before, after),
    });
    return after;
  });
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
  return await db.transaction().execute(async (trx) => {
    const before = await one(trx, table, id);
    const row = await trx.deleteFrom(table).where("id", "=", id).returning("name")
      .executeTakeFirst();
    if (!row || !before) return false;
    await recordAudit(trx, actor, "catalog.delete", table, id, {
      name: row.name,
      changes: catalogChanges(before, {}),
    });
    return true;
  });
}
