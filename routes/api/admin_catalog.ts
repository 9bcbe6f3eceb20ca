import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { auditActor } from "../../src/http/actor.ts";
import { notFound, readJson } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { catalogTable } from "../../src/catalog/catalog.ts";
import { catalogItemSchema, catalogUpdateSchema } from "../../src/schemas/catalog.ts";
import {
  deleteCatalogItem,
  insertCatalogItem,
  listCatalogForAdmin,
  updateCatalogItem,
} from "../../src/catalog/catalog_admin.ts";

export const adminCatalogApi = new Hono<AppEnv>();

// Only the five section names: /api/admin/settings, /users etc. stay their own routes.
const SECTION = "/admin/:section{packages|lens-types|materials|ar-coatings|add-ons}";
const admin = requireUser("ADMIN", "OWNER");

function tableOf(c: Context<AppEnv>) {
  const table = catalogTable(c.req.param("section"));
  if (!table) throw notFound("No such catalog section");
  return table;
}

adminCatalogApi.get(
  SECTION,
  admin,
  async (c) => c.json(await listCatalogForAdmin(c.var.db, tableOf(c))),
);

adminCatalogApi.post(SECTION, admin, async (c) => {
  const input = await readJson(c, catalogItemSchema);
  return c.json(await insertCatalogItem(c.var.db, tableOf(c), input, auditActor(c)), 201);
});

adminCatalogApi.put(`${SECTION}/:id`, admin, async (c) => {
  const input = await readJson(c, catalogUpdateSchema);
  const item = await updateCatalogItem(
    c.var.db,
    tableOf(c),
    c.req.param("id")!,
    input,
    auditActor(c),
  );
  if (!item) throw notFound("Catalog item not found");
  return c.json(item);
});

adminCatalogApi.delete(`${SECTION}/:id`, admin, async (c) => {
  if (!await deleteCatalogItem(c.var.db, tableOf(c), c.req.param("id")!, auditActor(c))) {
    throw notFound("Catalog item not found");
  }
  return c.json({ message: "Deleted" });
});
