// Catalog CSV: export, template, preview and import of one section. The
// import is planned in full first (new, changed, unchanged, invalid rows with
// reasons) and applied only when no row is invalid, in one transaction.
import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import type { CatalogTableName } from "./default_catalog.ts";
import type { CatalogItem } from "./catalog.ts";
import { catalogChanges, listCatalogForAdmin } from "./catalog_admin.ts";
import { CATALOG_CSV_MAX_BYTES, catalogItemSchema } from "../schemas/catalog.ts";
import { CsvFileError, type CsvRecord, parseCsv, toCsv, unguardCell } from "../csv/csv.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import { isUuid } from "../db/ids.ts";

/** Files up to 5 MiB; the app's JSON limit (1 MiB) does not apply to this upload. */
export const CSV_MAX_BYTES = CATALOG_CSV_MAX_BYTES;
/** More rows than any store's section holds; keeps one preview answer reasonable. */
export const CSV_MAX_ROWS = 10_000;

type Column = "id" | "name" | "description" | "price" | "active" | "sort_order";

export function csvColumns(table: CatalogTableName): Column[] {
  return table === "lensPackages"
    ? ["id", "name", "description", "price", "active", "sort_order"]
    : ["id", "name", "price", "active", "sort_order"];
}

const TEXT_COLUMNS = ["name", "description"];

function itemCells(item: CatalogItem, columns: Column[]) {
  return columns.map((c) =>
    c === "id"
      ? item.id
      : c === "name"
      ? item.name
      : c === "description"
      ? item.description ?? ""
      : c === "price"
      ? item.price
      : c === "active"
      ? (item.active ? "true" : "false")
      : item.sortOrder
  );
}

/** Every item of the section, inactive ones too, in the screen's order. */
export async function exportCatalogCsv(db: DB, table: CatalogTableName): Promise<string> {
  const columns = csvColumns(table);
  const items = await listCatalogForAdmin(db, table);
  return toCsv(columns, items.map((i) => itemCells(i, columns)), TEXT_COLUMNS);
}

/** The header row alone: what a file to import must start with. */
export function catalogTemplateCsv(table: CatalogTableName): string {
  return toCsv(csvColumns(table), [], TEXT_COLUMNS);
}

// ---- Reading a file ----

export class CatalogCsvError extends Error {}

/** "Sort Order", "sortOrder", "sort_order" all name the same column. */
const normalizeHeader = (h: string) => h.trim().toLowerCase().replace(/[\s_-]+/g, "");
const HEADER_NAMES: Record<string, Column> = {
  id: "id",
  name: "name",
  description: "description",
  price: "price",
  active: "active",
  sortorder: "sort_order",
};

const TRUE_WORDS = new Set(["true", "yes", "y", "1", "active"]);
const FALSE_WORDS = new Set(["false", "no", "n", "0", "inactive"]);

interface FileRow {
  line: number;
  cells: Partial<Record<Column, string>>;
  /** Cell count differs from the header's. */
  shapeError?: string;
}

function readRows(table: CatalogTableName, records: CsvRecord[]): FileRow[] {
  const [header, ...rows] = records;
  if (!header) throw new CatalogCsvError("The file is empty. Start from the template.");
  const allowed = csvColumns(table);
  const columns: Column[] = [];
  for (const raw of header.cells) {
    const column = HEADER_NAMES[normalizeHeader(unguardCell(raw))];
    if (!column || !allowed.includes(column)) {
      throw new CatalogCsvError(
        `Unknown column "${raw.trim()}" in the header row. The columns are: ${allowed.join(", ")}.`,
      );
    }
    if (columns.includes(column)) {
      throw new CatalogCsvError(`The column "${column}" appears twice in the header row.`);
    }
    columns.push(column);
  }
  const missing = (["name", "price"] as const).filter((c) => !columns.includes(c));
  if (missing.length) {
    throw new CatalogCsvError(
      `The header row must name the columns ${missing.join(" and ")}. ` +
        `The columns are: ${allowed.join(", ")}.`,
    );
  }
  if (rows.length === 0) throw new CatalogCsvError("The file has a header row but no items.");
  if (rows.length > CSV_MAX_ROWS) {
    throw new CatalogCsvError(
      `The file has ${rows.length.toLocaleString("en-US")} rows; the limit is ${
        CSV_MAX_ROWS.toLocaleString("en-US")
      }.`,
    );
  }
  return rows.map((r) => {
    const cells: Partial<Record<Column, string>> = {};
    columns.forEach((c, i) => {
      if (i < r.cells.length) cells[c] = unguardCell(r.cells[i]);
    });
    const shapeError = r.cells.length === columns.length
      ? undefined
      : `Has ${r.cells.length} ${
        r.cells.length === 1 ? "cell" : "cells"
      }; the header row has ${columns.length}`;
    return { line: r.line, cells, shapeError };
  });
}

// ---- Planning the import ----

export type PreviewStatus = "new" | "changed" | "unchanged" | "invalid";

export interface PreviewChange {
  field: "name" | "description" | "price" | "active" | "sortOrder";
  from: string;
  to: string;
}

export interface PreviewRow {
  line: number;
  status: PreviewStatus;
  /** The existing item this row updates, if any. */
  id: string | null;
  name: string;
  price: string;
  active: boolean | null;
  sortOrder: number | null;
  changes: PreviewChange[];
  errors: string[];
}

interface PlannedItem {
  row: PreviewRow;
  values?: { name: string; description: string; price: string; active: boolean; sortOrder: number };
}

/**
 * Pure: what importing `rows` would do to `existing`. A row with an id
 * updates that item; a row without one updates the one item of that name, or
 * adds a new item. A blank or missing active or sort_order keeps the item's
 * value (new items: active, sort order 0). Items not in the file stay as they are.
 */
export function planImport(
  existing: CatalogItem[],
  rows: FileRow[],
  sectionLabel: string,
): PlannedItem[] {
  const byId = new Map(existing.map((i) => [i.id.toLowerCase(), i]));
  const byName = new Map<string, CatalogItem[]>();
  for (const item of existing) {
    const key = item.name.trim().toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), item]);
  }
  const claimed = new Map<string, number>(); // item id or new name → first line using it
  return rows.map((fileRow) => {
    const c = fileRow.cells;
    const errors: string[] = [];
    if (fileRow.shapeError) errors.push(fileRow.shapeError);
    const idText = (c.id ?? "").trim();
    let target: CatalogItem | undefined;
    if (idText) {
      target = isUuid(idText) ? byId.get(idText.toLowerCase()) : undefined;
      if (!target) {
        errors.push(
          `No item in ${sectionLabel} has the id "${idText}"; leave id empty to add a new item`,
        );
      }
    } else {
      const same = byName.get((c.name ?? "").trim().toLowerCase()) ?? [];
      if (same.length > 1) {
        errors.push(`${same.length} items are named "${c.name?.trim()}"; give this row's id`);
      }
      if (same.length === 1) target = same[0];
    }

    const activeText = (c.active ?? "").trim().toLowerCase();
    let active: boolean | undefined = target?.active ?? true;
    if (activeText) {
      active = TRUE_WORDS.has(activeText) ? true : FALSE_WORDS.has(activeText) ? false : undefined;
      if (active === undefined) errors.push("Active must be true or false");
    }
    const sortText = (c.sort_order ?? "").trim();
    const parsed = catalogItemSchema.safeParse({
      name: c.name ?? "",
      description: c.description ?? target?.description ?? "",
      price: c.price ?? "",
      active: active ?? true,
      sortOrder: sortText === "" ? (target?.sortOrder ?? 0) : sortText,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? "");
        const message = field === "description" && issue.code === "too_big"
          ? "Description must be at most 1000 characters"
          : field === "name" && issue.code === "too_big"
          ? "Name must be at most 120 characters"
          : issue.message;
        if (!errors.includes(message)) errors.push(message);
      }
    }

    const key = target ? `id:${target.id}` : `new:${(c.name ?? "").trim().toLowerCase()}`;
    const firstLine = claimed.get(key);
    if (firstLine !== undefined && (target || (c.name ?? "").trim())) {
      errors.push(`Line ${firstLine} already ${target ? "updates" : "adds"} this item`);
    } else {
      claimed.set(key, fileRow.line);
    }

    const values = parsed.success ? parsed.data : undefined;
    const row: PreviewRow = {
      line: fileRow.line,
      status: "invalid",
      id: target?.id ?? null,
      name: values?.name ?? (c.name ?? "").trim(),
      price: values?.price ?? (c.price ?? "").trim(),
      active: values?.active ?? null,
      sortOrder: values?.sortOrder ?? null,
      changes: [],
      errors,
    };
    if (errors.length || !values) return { row };
    if (!target) return { row: { ...row, status: "new" }, values };
    const changes: PreviewChange[] = [];
    const note = (field: PreviewChange["field"], from: unknown, to: unknown) => {
      if (String(from) !== String(to)) changes.push({ field, from: String(from), to: String(to) });
    };
    note("name", target.name, values.name);
    if (target.description !== undefined) {
      note("description", target.description, values.description);
    }
    note("price", target.price, values.price);
    note("active", target.active, values.active);
    note("sortOrder", target.sortOrder, values.sortOrder);
    return {
      row: { ...row, status: changes.length ? "changed" : "unchanged", changes },
      values,
    };
  });
}

export interface ImportPreview {
  rows: PreviewRow[];
  counts: Record<PreviewStatus, number>;
  /** Identifies the section as it was previewed; the import refuses if it changed since. */
  fingerprint: string;
}

function countRows(rows: PreviewRow[]): Record<PreviewStatus, number> {
  const counts = { new: 0, changed: 0, unchanged: 0, invalid: 0 };
  for (const r of rows) counts[r.status]++;
  return counts;
}

function fingerprintOf(items: CatalogItem[]): string {
  return createHash("sha256").update(JSON.stringify(items)).digest("hex").slice(0, 32);
}

function readFile(table: CatalogTableName, bytes: Uint8Array): FileRow[] {
  try {
    return readRows(table, parseCsv(bytes));
  } catch (err) {
    if (err instanceof CsvFileError) throw new CatalogCsvError(err.message);
    throw err;
  }
}

/** What the file would do, without changing anything. */
export async function previewCatalogImport(
  db: DB,
  table: CatalogTableName,
  sectionLabel: string,
  bytes: Uint8Array,
): Promise<ImportPreview> {
  const rows = readFile(table, bytes);
  const existing = await listCatalogForAdmin(db, table);
  const planned = planImport(existing, rows, sectionLabel).map((p) => p.row);
  return { rows: planned, counts: countRows(planned), fingerprint: fingerprintOf(existing) };
}

export type ImportResult =
  | { ok: true; created: number; updated: number; unchanged: number }
  | { ok: false; status: 400; message: string; rows: PreviewRow[] }
  | { ok: false; status: 409; message: string };

/**
 * Applies the file in one transaction, or nothing: any invalid row refuses
 * the whole file. With `expectedFingerprint` (from the preview), a section
 * changed since the preview is refused too, so what was shown is what happens.
 */
export async function importCatalogCsv(
  db: DB,
  table: CatalogTableName,
  sectionLabel: string,
  bytes: Uint8Array,
  expectedFingerprint: string | undefined,
  actor: AuditActor,
): Promise<ImportResult> {
  const rows = readFile(table, bytes);
  return await db.transaction().execute(async (trx) => {
    // Other writers of this section wait until the import is in or refused.
    await sql`LOCK TABLE ${sql.table(tableSqlName(table))} IN SHARE ROW EXCLUSIVE MODE`
      .execute(trx);
    const existing = await listCatalogForAdmin(trx, table);
    if (expectedFingerprint && expectedFingerprint !== fingerprintOf(existing)) {
      return {
        ok: false,
        status: 409,
        message:
          `${sectionLabel} changed since the preview (someone edited it). Preview the file again.`,
      };
    }
    const planned = planImport(existing, rows, sectionLabel);
    const invalid = planned.filter((p) => p.row.status === "invalid");
    if (invalid.length) {
      return {
        ok: false,
        status: 400,
        message: `${invalid.length} ${
          invalid.length === 1 ? "row is" : "rows are"
        } invalid, so nothing was imported. Fix ${
          invalid.length === 1 ? "it" : "them"
        } and try again.`,
        rows: invalid.map((p) => p.row),
      };
    }
    const now = new Date();
    const withDescription = table === "lensPackages";
    const fresh = planned.filter((p) => p.row.status === "new");
    const changed = planned.filter((p) => p.row.status === "changed");
    const record = (v: NonNullable<PlannedItem["values"]>) => ({
      name: v.name,
      price: v.price,
      active: v.active,
      sortOrder: v.sortOrder,
      ...(withDescription ? { description: v.description } : {}),
    });
    // Set-based: one INSERT for the new items however many there are.
    for (let i = 0; i < fresh.length; i += 1000) {
      await trx.insertInto(table).values(
        fresh.slice(i, i + 1000).map((p) => ({
          ...record(p.values!),
          createdAt: now,
          updatedAt: now,
        })),
      ).execute();
    }
    for (const p of changed) {
      await trx.updateTable(table).set({ ...record(p.values!), updatedAt: now })
        .where("id", "=", p.row.id!).execute();
    }
    const result = {
      created: fresh.length,
      updated: changed.length,
      unchanged: planned.length - fresh.length - changed.length,
    };
    // Every item the file added or changed, each field old → new, as one entry.
    const byId = new Map(existing.map((i) => [i.id, i]));
    await recordAudit(trx, actor, "catalog.import", table, null, {
      ...result,
      items: [
        ...fresh.map((p) => ({
          name: p.values!.name,
          event: "added",
          changes: catalogChanges({}, record(p.values!)),
        })),
        ...changed.map((p) => ({
          id: p.row.id,
          name: p.values!.name,
          event: "changed",
          changes: catalogChanges(byId.get(p.row.id!)!, record(p.values!)),
        })),
      ],
    });
    return { ok: true, ...result };
  });
}

const tableSqlName = (table: CatalogTableName) =>
  table.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);
