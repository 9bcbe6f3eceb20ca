import { Buffer } from "node:buffer";
import type { PGlite } from "@electric-sql/pglite";
import { pgDump } from "@electric-sql/pglite-tools/pg_dump";
import { CamelCasePlugin, Kysely, PGliteDialect } from "kysely";
import type pg from "pg";
import type { Database } from "../../db/schema.ts";
import type { DatabaseHandle } from "../db/database.ts";
import { listMigrationNames, migrateTo } from "../db/migrate.ts";
import { dataDirOf, scratchPglite } from "../db/pglite_base.ts";
import { formatHeader, sealBackup } from "./format.ts";

export interface Backup {
  /** The whole file: our header, a plain pg_dump script, the end marker with the checksum. */
  script: string;
  /** Its size in bytes (UTF-8). */
  bytes: number;
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
 * to the same schema (after a process's first backup, starting from the
 * migrated base it kept: migratedCopy), and pg_dump dumps that. The rows are
 * read with a plain SELECT through a cursor (DECLARE … FETCH), every column as its
 * text form, which PGlite's COPY FROM takes as it is. The script is therefore the
 * same pg_dump output for both engines, and a backup of one restores on the
 * other. The copy refuses to run when a table's columns on the server differ
 * from what the migrations build (a hand-made change would be lost).
 */
export async function dumpDatabase(
  handle: DatabaseHandle,
  now = new Date(),
  signal?: AbortSignal,
): Promise<Backup> {
  if (handle.kind === "memory") {
    throw new Error("DATABASE_URL=memory:// keeps nothing to back up.");
  }
  if (handle.raw.engine === "pglite") return await dumpPglite(handle.raw.pglite, "embedded", now);
  const copy = await copyServerIntoPglite(handle.raw.pool, signal);
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
  const script = sealBackup(
    formatHeader({ engine, takenAt: now, migrations, rows }) + await file.text(),
  );
  return { script, bytes: Buffer.byteLength(script, "utf8"), migrations, rows };
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

/** Runs one statement on the snapshot's connection; its rows. */
type Run = <T>(text: string) => Promise<T[]>;

async function copyServerIntoPglite(pool: pg.Pool, signal?: AbortSignal): Promise<PGlite> {
  let copy: PGlite | undefined;
  const client = await pool.connect();
  let broken = false;
  const { rows: [{ pid }] } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")
    .catch((err) => {
      client.release(true);
      throw err;
    });
  // Given up on (BACKUP_TIMEOUT_MS): the server ends the snapshot's session,
  // whatever statement it is waiting in, from another connection.
  const cut = () => {
    pool.query("SELECT pg_terminate_backend($1)", [pid]).catch(() => {});
  };
  signal?.addEventListener("abort", cut, { once: true });
  const run: Run = async <T>(text: string) => {
    signal?.throwIfAborted();
    return (await client.query(text)).rows as T[];
  };
  try {
    await run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    // Text forms that read back identically in the copy; no statement limit:
    // a large table takes what it takes, and BACKUP_TIMEOUT_MS bounds the whole.
    await run(`SET LOCAL timezone = 'UTC'; SET LOCAL datestyle = 'ISO, YMD';
      SET LOCAL intervalstyle = 'postgres'; SET LOCAL extra_float_digits = 3;
      SET LOCAL bytea_output = 'hex'; SET LOCAL statement_timeout = 0`);
    const hasSchema = await run<{ ok: boolean }>(
      `SELECT to_regclass('public.kysely_migration') IS NOT NULL AS ok`,
    );
    if (!hasSchema[0].ok) {
      throw new Error("This database has no Lensdesk schema yet: nothing to back up.");
    }
    const applied = (await run<{ name: string }>(
      `SELECT name FROM public.kysely_migration ORDER BY name`,
    )).map((r) => r.name);
    if (applied.length === 0) throw new Error("No migration has run on this database yet.");

    // The same schema in the copy, built by the same migrations.
    copy = await migratedCopy(applied);

    const serverColumns = columnsByTable(await run<ColumnRow>(COLUMNS_SQL));
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
      await copyTable(run, copy, table, serverColumns.get(table)!.map((c) => c.column));
    }
    await copy.exec(`SET session_replication_role = DEFAULT`);

    for (const { name } of await run<{ name: string }>(SEQUENCES_SQL)) {
      const [seq] = await run<{ last_value: string; is_called: boolean }>(
        `SELECT last_value, is_called FROM public.${ident(name)}`,
      );
      await copy.query(`SELECT setval($1, $2, $3)`, [
        `public.${ident(name)}`,
        seq.last_value,
        seq.is_called,
      ]);
    }
    await run("COMMIT");
    return copy!;
  } catch (err) {
    broken = true;
    await copy?.close();
    throw err;
  } finally {
    signal?.removeEventListener("abort", cut);
    // A connection that failed mid-snapshot is not handed to anyone else.
    client.release(broken);
  }
}

/**
 * A migrated empty copy kept for the process: the data directory of the last
 * copy right after its migrations, before any row went in, and what it was
 * made for (this code's migrations and the server's applied list). A later
 * backup in the process (the nightly job's retries, back-to-back backups, the
 * tests' twenty in a row) loads it instead of running initdb and every
 * migration again: 0.4 s instead of 1.4-4 s (initdb is most of it).
 *
 * It is exactly as safe as migrating afresh: the base is used only when it
 * was made by this same code's migration list for the same applied list
 * (anything else makes a new one), and the same migrator still runs on the
 * loaded copy and must find nothing left to do (a base that does not match
 * what the migrations would build fails there, as a fresh copy would); the
 * columns are then compared with the server's as before.
 *
 * The base is a gzipped tarball of a migrated empty database, 5 MB, and
 * there is one at a time. A process taking one backup a night has no use
 * for it the next night, so it is dropped after KEEP_MS without a backup (a
 * timer that does not keep the process alive): the nightly service holds
 * nothing between nights, and a CLI backup pays only the 0.3 s of keeping it.
 */
let kept: { key: string; dataDir: Blob; timer: ReturnType<typeof setTimeout> } | undefined;
const KEEP_MS = 60_000;

function keep(key: string, dataDir: Blob) {
  if (kept) clearTimeout(kept.timer);
  const timer = setTimeout(() => kept = undefined, KEEP_MS);
  Deno.unrefTimer(timer);
  kept = { key, dataDir, timer };
}

/** An in-memory PGlite holding the schema `applied` ends with, built by this release's migrations. */
async function migratedCopy(applied: string[]): Promise<PGlite> {
  const key = JSON.stringify({ code: await listMigrationNames(), applied });
  const base = kept?.key === key ? kept.dataDir : undefined;
  const copy = await scratchPglite(base);
  try {
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
    // Kept (again) only now, migrated and still empty; a reuse restarts its time.
    keep(key, base ?? await dataDirOf(copy, "gzip"));
    return copy;
  } catch (err) {
    await copy.close();
    throw err;
  }
}

/** Rows read per cursor round trip, and loaded into the copy per COPY. */
const BATCH_ROWS = 1000;

/**
 * One table's rows from the server into the copy. Each column is read as its
 * text form (`::text`, the same output function COPY uses, under the settings
 * the transaction set) and written as COPY's text format, which PGlite reads
 * back through each type's input function: the same values as a COPY would
 * carry, bytea (hex), numerics, times and jsonb included. A cursor of the
 * snapshot's transaction hands them over BATCH_ROWS at a time.
 */
async function copyTable(run: Run, copy: PGlite, table: string, columns: string[]): Promise<void> {
  const list = columns.map(ident).join(", ");
  const select = columns.map((c, i) => `${ident(c)}::text AS c${i}`).join(", ");
  await run(
    `DECLARE lensdesk_rows NO SCROLL CURSOR FOR SELECT ${select} FROM public.${ident(table)}`,
  );
  while (true) {
    const rows = await run<Record<string, string | null>>(
      `FETCH FORWARD ${BATCH_ROWS} FROM lensdesk_rows`,
    );
    if (rows.length === 0) break;
    let text = "";
    for (const row of rows) {
      for (let i = 0; i < columns.length; i++) {
        if (i > 0) text += "\t";
        text += copyField(row[`c${i}`]);
      }
      text += "\n";
    }
    await copy.query(`COPY public.${ident(table)} (${list}) FROM '/dev/blob'`, [], {
      blob: new Blob([text]),
    });
  }
  await run("CLOSE lensdesk_rows");
}

const COPY_ESCAPES: Record<string, string> = {
  "\\": "\\\\",
  "\t": "\\t",
  "\n": "\\n",
  "\r": "\\r",
};

/** A value in COPY's text format: `\N` for NULL, and backslash escapes for the delimiters. */
export function copyField(value: string | null | undefined): string {
  if (value === null || value === undefined) return "\\N";
  return value.replace(/[\\\t\n\r]/g, (ch) => COPY_ESCAPES[ch]);
}

/** A quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
