import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { auditActor } from "../../src/http/actor.ts";
import { HttpError, readQuery } from "../../src/http/errors.ts";
import { catalogImportQuerySchema } from "../../src/schemas/catalog.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { CATALOG_SECTIONS } from "../../src/catalog/catalog.ts";
import {
  CatalogCsvError,
  catalogTemplateCsv,
  exportCatalogCsv,
  importCatalogCsv,
  previewCatalogImport,
} from "../../src/catalog/catalog_csv.ts";
import { findCatalogSection } from "../../components/catalog_admin/sections.ts";
import { dayOf } from "../../src/schemas/date_range.ts";

/** Export, template, preview and import of one catalog section as CSV (ADMIN and OWNER). */
export const catalogCsvApi = new Hono<AppEnv>();

const SECTION = "/admin/:section{packages|lens-types|materials|ar-coatings|add-ons}";
/** The upload routes, which take a CSV body of up to 5 MB instead of 1 MiB of JSON. */
export const CATALOG_IMPORT_PATH =
  /^\/api\/admin\/(packages|lens-types|materials|ar-coatings|add-ons)\/import(\/preview)?$/;

const admin = requireUser("ADMIN", "OWNER");

function section(c: Context<AppEnv>) {
  const key = c.req.param("section")!;
  return { key, table: CATALOG_SECTIONS.get(key)!, info: findCatalogSection(key)! };
}

function csvAnswer(c: Context<AppEnv>, csv: string, filename: string) {
  c.header("Content-Type", "text/csv; charset=utf-8");
  c.header("Content-Disposition", `attachment; filename="${filename}"`);
  c.header("Cache-Control", "no-store");
  return c.body(csv);
}

catalogCsvApi.get(`${SECTION}/export.csv`, admin, async (c) => {
  const { key, table } = section(c);
  return csvAnswer(c, await exportCatalogCsv(c.var.db, table), `${key}-${dayOf(new Date())}.csv`);
});

catalogCsvApi.get(`${SECTION}/template.csv`, admin, (c) => {
  const { key, table } = section(c);
  return csvAnswer(c, catalogTemplateCsv(table), `${key}-template.csv`);
});

/** The raw file: sent as the body (text/csv), not as JSON, so 5 MB stays 5 MB. */
async function readUpload(c: Context<AppEnv>): Promise<Uint8Array> {
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (!/^(text\/(csv|plain)|application\/(vnd\.ms-excel|octet-stream))\b/.test(type)) {
    throw new HttpError(415, "Send the CSV file itself as the body (Content-Type: text/csv)");
  }
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.byteLength === 0) {
    throw new HttpError(400, "The file is empty. Start from the template.");
  }
  return bytes;
}

function fileError(err: unknown): never {
  if (err instanceof CatalogCsvError) throw new HttpError(400, err.message);
  throw err;
}

catalogCsvApi.post(`${SECTION}/import/preview`, admin, async (c) => {
  const { table, info } = section(c);
  const bytes = await readUpload(c);
  const preview = await previewCatalogImport(c.var.db, table, info.label, bytes).catch(fileError);
  return c.json(preview);
});

catalogCsvApi.post(`${SECTION}/import`, admin, async (c) => {
  const { table, info } = section(c);
  const bytes = await readUpload(c);
  const { fingerprint } = readQuery(c, catalogImportQuerySchema);
  const result = await importCatalogCsv(
    c.var.db,
    table,
    info.label,
    bytes,
    fingerprint,
    auditActor(c),
  ).catch(fileError);
  if (!result.ok) {
    if (result.status === 409) throw new HttpError(409, result.message);
    // Each invalid row's reasons under its line, the errors shape of every 400.
    const errors = Object.fromEntries(
      result.rows.map((r) => [`line ${r.line}`, r.errors.join("; ")]),
    );
    return c.json({ message: result.message, errors, rows: result.rows }, 400);
  }
  const { ok: _, ...counts } = result;
  return c.json(counts);
});
