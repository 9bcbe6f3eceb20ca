import { PGlite } from "@electric-sql/pglite";
import { pgDump } from "@electric-sql/pglite-tools/pg_dump";
import { CamelCasePlugin, Kysely, PGliteDialect } from "kysely";
import type postgres from "postgres";
import type { Database } from "../../db/schema.ts";
import { type DatabaseHandle, pgliteExtensions } from "../db/database.ts";
import { migrateTo } from "../db/migrate.ts";
import { formatHeader } from "./format.ts";

export interface Backup {
  /** The whole file: our header, then a plain pg_dump script. */
  script: string;
  migrations: string[];
  /** Rows per table at the moment of the snapshot. */
  rows: Record<string, number>;
}

/**
 * A consistent snapshot of every table of the schema as one SQL script that
 * restores on either engine.
 *
 * PGlite: pg_dump (`@electric-sql/pglite-tools`, pg_dump compiled to WASM)
 * talks to the embedded database directly, inside one repeatable-read
 * transaction as pg_dump always does.
 *
 * Server: the container has no PostgreSQL client tools, and the WASM pg_dump
 * can only talk to a PGlite in this process. So the server's rows are copied,
 * inside one REPEATABLE READ READ ONLY transaction (one snapshot for every
 * table), into a throwaway in-memory PGlite that the same migrations brought
 * to the same schema, and pg_dump dumps that. The script is therefore the
 * same pg_dump output for both engines, and a backup of one restores on the
 * other. The copy refuses to run when a table's columns on the server differ
 * from what the migrations build (a hand-made change would be lost).
 */
export async function dumpDatabase(handle: DatabaseHandle, now = new Date()): Promise<Backup> {
  if (handle.kind === "memory") {
    throw new Error("DATABASE_URL=memory:// keeps nothing to back up.");
  }
  if (handle.raw.engine === "pglite") return await dumpPglite(handle.raw.pglite, "embedded", now);
  const copy = await copyServerIntoPglite(handle.raw.sql);
  try {
    return await dumpPglite(copy, "server", now);
  } finally {
    await copy.close();
  }
}

async function dumpPglite(
  pg: PGlite,
  engine: "embedded" | "server",
  now: Date,
): Promise<Backup> {
  const migrations = await listMigrations(pg);
  const rows = await countRows(pg);
  // No owners or grants: the restoring role (PGlite's postgres, or the store's
  // own database user) owns what it creates.
  const file = await pgDump({
    pg,
    args: ["--no-owner", "--no-privileges"],
  });
  const script = formatHeader({ engine, takenAt: now, migrations, rows }) + await file.text();
  return { script, migrations, rows };
}

async function listMigrations(pg: PGlite): Promise<string[]> {
  const exists = await pg.query<{ ok: boolean }>(
    `SELECT to_regclass('public.kysely_migration') IS NOT NULL AS ok`,
  );
  if (!exists.rows[0].ok) {
    throw new Error("This database has no Lensdesk schema yet: nothing to back up.");
  }
  const { rows } = await pg.query<{ name: string }>(
    `SELECT name FROM public.kysely_migration ORDER BY name`,
  );
  return rows.map((r) => r.name);
}

const TABLES_SQL = `
  SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`;

/** Every table of the schema, found in the catalog: a table added later is covered too. */
async function countRows(pg: PGlite): Promise<Record<string, number>> {
  const tables = (await pg.query<{ name: string }>(TABLES_SQL)).rows.map((r) => r.name);
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const { rows } = await pg.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM public.${ident(table)}`,
    );
    counts[table] = rows[0].n;
  }
  return counts;
}

interface ColumnRow {
  table: string;
  column: string;
  type: string;
}

/** Writable columns per table, in order (generated columns are rebuilt, never copied). */
const COLUMNS_SQL = `
  SELECT c.table_name AS "table", c.column_name AS "column",
         c.data_type || coalesce('(' || c.character_maximum_length || ')', '')
           || coalesce('(' || c.numeric_precision || ',' || c.numeric_scale || ')', '') AS "type"
  FROM information_schema.columns c
  JOIN information_schema.tables t
    ON t.table_schema = c.table_schema AND t.table_name = c.table_name
  WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.is_generated = 'NEVER'
  ORDER BY c.table_name, c.ordinal_position`;

const SEQUENCES_SQL = `
  SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind = 'S' ORDER BY 1`;

function columnsByTable(rows: ColumnRow[]): Map<string, ColumnRow[]> {
  const map = new Map<string, ColumnRow[]>();
  for (const row of rows) {
    if (!map.has(row.table)) map.set(row.table, []);
    map.get(row.table)!.push(row);
  }
  return map;
}

async function copyServerIntoPglite(sql: postgres.Sql): Promise<PGlite> {
  const copy = new PGlite({ extensions: pgliteExtensions });
  await copy.waitReady;
  try {
    await sql.begin("isolation level repeatable read read only", async (tx) => {
      // Text forms that read back identically in the copy.
      await tx.unsafe(`SET LOCAL timezone = 'UTC'; SET LOCAL datestyle = 'ISO, YMD';
        SET LOCAL intervalstyle = 'postgres'; SET LOCAL extra_float_digits = 3`);
      const hasSchema = await tx.unsafe<{ ok: boolean }[]>(
        `SELECT to_regclass('public.kysely_migration') IS NOT NULL AS ok`,
      );
      if (!hasSchema[0].ok) {
        throw new Error("This database has no Lensdesk schema yet: nothing to back up.");
      }
      const applied = (await tx.unsafe<{ name: string }[]>(
        `SELECT name FROM public.kysely_migration ORDER BY name`,
      )).map((r) => r.name);
      if (applied.length === 0) throw new Error("No migration has run on this database yet.");

      // The same schema in the copy, built by the same migrations.
      const db = new Kysely<Database>({
        dialect: new PGliteDialect({ pglite: copy }),
        plugins: [new CamelCasePlugin()],
      });
      try {
        await migrateTo(db, applied[applied.length - 1]);
      } catch (err) {
        throw new Error(
          `Cannot rebuild this database's schema (${
            applied.at(-1)
          }) from this release's migrations: ${err instanceof Error ? err.message : err}`,
        );
      }

      const serverColumns = columnsByTable([...await tx.unsafe<ColumnRow[]>(COLUMNS_SQL)]);
      const copyColumns = columnsByTable((await copy.query<ColumnRow>(COLUMNS_SQL)).rows);
      const describe = (cols: ColumnRow[] | undefined) =>
        (cols ?? []).map((c) => `${c.column} ${c.type}`).join(", ");
      for (const table of new Set([...serverColumns.keys(), ...copyColumns.keys()])) {
        const server = describe(serverColumns.get(table));
        const rebuilt = describe(copyColumns.get(table));
        if (server !== rebuilt) {
          throw new Error(
            `Table ${table} on the server differs from what the migrations create ` +
              `(server: [${server}]; migrations: [${rebuilt}]). Back this database up with ` +
              "pg_dump instead.",
          );
        }
      }

      const tables = [...serverColumns.keys()];
      // Rows written by the migrations themselves (e.g. the settings row) are
      // replaced by the server's; foreign keys are checked on the server already.
      await copy.exec(`
        TRUNCATE ${tables.map((t) => `public.${ident(t)}`).join(", ")};
        SET session_replication_role = replica;`);
      for (const table of tables) {
        const cols = serverColumns.get(table)!.map((c) => ident(c.column)).join(", ");
        const stream = await tx.unsafe(`COPY public.${ident(table)} (${cols}) TO STDOUT`)
          .readable();
        const chunks: Uint8Array[] = [];
        for await (const chunk of stream) chunks.push(chunk as Uint8Array);
        await copy.query(`COPY public.${ident(table)} (${cols}) FROM '/dev/blob'`, [], {
          blob: new Blob(chunks as BlobPart[]),
        });
      }
      await copy.exec(`SET session_replication_role = DEFAULT`);

      for (const { name } of await tx.unsafe<{ name: string }[]>(SEQUENCES_SQL)) {
        const [seq] = await tx.unsafe<{ last_value: string; is_called: boolean }[]>(
          `SELECT last_value, is_called FROM public.${ident(name)}`,
        );
        await copy.query(`SELECT setval($1, $2, $3)`, [
          `public.${ident(name)}`,
          seq.last_value,
          seq.is_called,
        ]);
      }
    });
    return copy;
  } catch (err) {
    await copy.close();
    throw err;
  }
}

/** A quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
