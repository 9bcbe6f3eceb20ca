import type { DatabaseHandle, RawClient } from "../db/database.ts";
import { listMigrationNames } from "../db/migrate.ts";
import { type BackupHeader, checkSeal, parseHeader } from "./format.ts";
import { ident } from "./dump.ts";

/** A restore that would lose data or cannot work; the message says what to do. */
export class RestoreRefused extends Error {}

export interface RestoreResult {
  header: BackupHeader;
  /** Rows per table the backup held, read back from the database before the commit. */
  rows: Record<string, number>;
  /** Whether an existing schema was dropped first (--force). */
  replaced: boolean;
  /**
   * Whether the backup was recorded as the store's last good backup (backup_runs); not for a
   * backup made before that table existed (migration 0020).
   */
  recorded: boolean;
}

/** A backup file that passed every check that needs no database. */
export interface CheckedBackup {
  header: BackupHeader;
  /** The script to run: the file without its end marker. */
  script: string;
  /** The file's size in bytes. */
  bytes: number;
}

/**
 * Every check of a backup file that needs only the file and this release, so
 * a restore can refuse before it opens (and on first use creates) anything:
 * a Lensdesk backup, whole and matching its checksum (or `unsealed`, made
 * before there was one), and from no newer release than this one.
 */
export async function checkBackupFile(
  file: string,
  options: { unsealed?: boolean } = {},
): Promise<CheckedBackup> {
  const header = parseHeader(file);
  if (!header) {
    throw new RestoreRefused(
      "This file is not a Lensdesk backup (made by `deno task backup`); nothing was changed.",
    );
  }
  const script = sealedContent(file, header, options.unsealed ?? false);
  const known = await listMigrationNames();
  const newer = header.migrations.filter((m) => !known.includes(m));
  if (newer.length) {
    throw new RestoreRefused(
      `This backup comes from a newer Lensdesk release (migrations ${newer.join(", ")}). ` +
        "Update the app first, then restore; nothing was changed.",
    );
  }
  return { header, script, bytes: new TextEncoder().encode(file).length };
}

/**
 * Loads a backup made by dumpDatabase into this database, in one transaction:
 * it either all lands or nothing changes. Before anything runs, the file must
 * end with its end marker and match the checksum in it (a file cut short, or
 * changed after it was written, is refused); inside the transaction, before
 * the commit, every table must hold the rows the header counted. A database
 * that already holds any table is left alone unless `force`, which drops
 * everything in the schema first (inside the same transaction).
 * `unsealed` accepts a file made before backups carried a checksum (the row
 * counts are still checked).
 *
 * In the same transaction the backup is recorded as the store's last good
 * backup (backup_runs: finished when its header says it was taken, its size,
 * `from` the file it was read from, null for standard input), so a restored
 * store's backup status reads that backup, not "none".
 */
export async function restoreDatabase(
  handle: DatabaseHandle,
  file: string | CheckedBackup,
  options: { force?: boolean; unsealed?: boolean; from?: string | null } = {},
): Promise<RestoreResult> {
  if (handle.kind === "memory") {
    throw new RestoreRefused(
      "DATABASE_URL=memory:// is thrown away at exit: nothing to restore into.",
    );
  }
  const backup = typeof file === "string" ? await checkBackupFile(file, options) : file;
  const { header, script } = backup;

  const raw = handle.raw;
  const existing = await query<{ kind: string; name: string }>(raw, RELATIONS_SQL);
  if (existing.length && !options.force) {
    const tables = existing.filter((r) => r.kind === "r" || r.kind === "p").length;
    throw new RestoreRefused(
      `This database is not empty (${tables} tables). Restoring replaces everything in it: ` +
        "stop the app, then rerun with --force. Nothing was changed.",
    );
  }
  const drops = existing.length ? await dropEverything(raw, existing) : "";
  const body = await withoutUnknownSettings(raw, script);
  // pg_dump empties search_path for the session; put it back for whoever
  // uses this connection next.
  const all = `${drops}\n${body}\nRESET ALL;`;
  let rows: Record<string, number>;
  let recorded = false;
  const record = async (run: Run) => {
    recorded = await recordRestoredBackup(run, backup, options.from ?? null);
  };
  if (raw.engine === "pglite") {
    rows = await raw.pglite.transaction(async (tx) => {
      await tx.exec(all);
      const run: Run = async (text, params) => (await tx.query(text, params)).rows;
      const counted = await countedAsHeader(header, run);
      await record(run);
      return counted;
    });
  } else {
    const client = await raw.pool.connect();
    let broken = false;
    try {
      // A restore loads what it loads: no statement limit inside it.
      await client.query("BEGIN; SET LOCAL statement_timeout = 0");
      // One script of many statements: the simple protocol takes it whole.
      await client.query(all);
      const run: Run = async (text, params) => (await client.query(text, params)).rows;
      rows = await countedAsHeader(header, run);
      await record(run);
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK").catch(() => broken = true);
      throw err;
    } finally {
      client.release(broken);
    }
  }
  return { header, rows, replaced: existing.length > 0, recorded };
}

/** One statement inside the restore's transaction. */
type Run = (text: string, params?: unknown[]) => Promise<unknown[]>;

/**
 * Inside the restore's transaction, after the row counts: the loaded backup as
 * the last good one. The schema is the backup's own (the app migrates it at its
 * next start), so the row fits what its backup_runs has: none before migration
 * 0020, no restored_at before 0031.
 */
async function recordRestoredBackup(
  run: Run,
  backup: CheckedBackup,
  from: string | null,
): Promise<boolean> {
  // pg_dump emptied search_path: every name qualified.
  const columns = (await run(
    `SELECT attname::text AS name FROM pg_catalog.pg_attribute
     WHERE attrelid = pg_catalog.to_regclass('public.backup_runs')
       AND attnum > 0 AND NOT attisdropped`,
  ) as { name: string }[]).map((c) => c.name);
  if (!columns.length) return false;
  const restoredAt = columns.includes("restored_at");
  await run(
    `INSERT INTO public.backup_runs (started_at, finished_at, ok, nightly, bytes, file` +
      `${restoredAt ? ", restored_at" : ""}) VALUES ($1, $1, true, false, $2, $3` +
      `${restoredAt ? ", pg_catalog.now()" : ""})`,
    [backup.header.takenAt.toISOString(), backup.bytes, from],
  );
  return true;
}

/** The script without its end marker, once the file proved whole and unchanged. */
function sealedContent(file: string, header: BackupHeader, unsealed: boolean): string {
  if (header.format === undefined) {
    if (unsealed) return file;
    throw new RestoreRefused(
      "This backup was made before backups carried a checksum, so it cannot be checked for " +
        "damage; rerun with --unverified to restore it anyway (its row counts are still " +
        "checked). Nothing was changed.",
    );
  }
  const seal = checkSeal(file);
  if (seal.ok) return seal.content;
  throw new RestoreRefused(
    seal.problem === "no_end"
      ? "This backup is incomplete: its end marker is missing (the file was cut short while " +
        "being written or copied). Nothing was changed."
      : "This backup is damaged: its content does not match its checksum (it was changed or " +
        "corrupted after it was written). Nothing was changed.",
  );
}

/**
 * Inside the restore's transaction, before its commit: every table of the
 * schema and its rows, which must be exactly the header's. A mismatch throws,
 * and the transaction rolls back with everything it did.
 */
async function countedAsHeader(
  header: BackupHeader,
  run: Run,
): Promise<Record<string, number>> {
  const tables = await run(TABLES_SQL) as { name: string }[];
  const rows: Record<string, number> = {};
  for (const { name } of tables) {
    const [{ n }] = await run(`SELECT count(*)::int AS n FROM public.${ident(name)}`) as {
      n: number;
    }[];
    rows[name] = n;
  }
  for (const table of new Set([...Object.keys(rows), ...Object.keys(header.rows)])) {
    if (rows[table] !== header.rows[table]) {
      const found = rows[table] === undefined ? "is missing" : `has ${rows[table]} rows`;
      const said = header.rows[table] === undefined
        ? "the header does not list it"
        : `the header says ${header.rows[table]}`;
      throw new RestoreRefused(
        `This backup does not hold what its header says: table ${table} ${found}, ${said}. ` +
          "Nothing was changed.",
      );
    }
  }
  return rows;
}

const TABLES_SQL = `
  SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`;

const RELATIONS_SQL = `
  SELECT c.relkind::text AS kind, c.relname AS name
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
    -- An identity column's sequence belongs to its table (DROP SEQUENCE refuses it; the
    -- table's DROP takes it along).
    AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'i')
  ORDER BY 1, 2`;

/** DROP statements for every table, view, sequence, type and routine of the schema. */
async function dropEverything(
  raw: RawClient,
  relations: { kind: string; name: string }[],
): Promise<string> {
  const what: Record<string, string> = {
    r: "TABLE",
    p: "TABLE",
    f: "FOREIGN TABLE",
    v: "VIEW",
    m: "MATERIALIZED VIEW",
    S: "SEQUENCE",
  };
  const statements = relations.map((r) =>
    `DROP ${what[r.kind]} IF EXISTS public.${ident(r.name)} CASCADE;`
  );
  const types = await query<{ name: string }>(
    raw,
    `SELECT t.typname AS name FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE n.nspname = 'public' AND (t.typtype IN ('e', 'd', 'r', 'm')
       OR (t.typtype = 'c' AND (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c'))`,
  );
  statements.push(...types.map((t) => `DROP TYPE IF EXISTS public.${ident(t.name)} CASCADE;`));
  const routines = await query<{ signature: string }>(
    raw,
    `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
     JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = 'public'
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`,
  );
  statements.push(...routines.map((r) => `DROP ROUTINE IF EXISTS ${r.signature} CASCADE;`));
  return statements.join("\n");
}

/**
 * pg_dump writes `SET name = value;` for every setting its own release knows
 * (PGlite's pg_dump 18 writes `transaction_timeout`, which servers before 17
 * reject). Those it sets only to neutral defaults, so a setting this server
 * does not have is left out rather than failing the restore.
 */
async function withoutUnknownSettings(raw: RawClient, script: string): Promise<string> {
  const names = [...new Set([...script.matchAll(/^SET (\w+) = .*;$/gm)].map((m) => m[1]))];
  if (!names.length) return script;
  const known = new Set(
    (await query<{ name: string }>(
      raw,
      `SELECT name FROM pg_settings WHERE name IN (${
        names.map((n) => `'${n.replaceAll("'", "''")}'`).join(", ")
      })`,
    )).map((r) => r.name),
  );
  const unknown = names.filter((n) => !known.has(n));
  if (!unknown.length) return script;
  return script.replace(
    new RegExp(`^SET (${unknown.join("|")}) = .*;$`, "gm"),
    "-- (setting unknown to this server, left out) $&",
  );
}

async function query<T>(raw: RawClient, text: string): Promise<T[]> {
  if (raw.engine === "pglite") return (await raw.pglite.query<T>(text)).rows;
  return (await raw.pool.query(text)).rows as T[];
}
