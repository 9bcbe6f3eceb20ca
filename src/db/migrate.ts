import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import { sql } from "kysely";
import type { DB } from "./database.ts";

const migrationsDir = new URL("../../db/migrations/", import.meta.url);

/** Loads db/migrations/NNNN_name.ts in name order. */
class DirectoryMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const names: string[] = [];
    for await (const entry of Deno.readDir(migrationsDir)) {
      if (entry.isFile && /^\d{4}_[a-z0-9_]+\.ts$/.test(entry.name)) names.push(entry.name);
    }
    names.sort();
    const migrations: Record<string, Migration> = {};
    for (const name of names) {
      migrations[name.replace(/\.ts$/, "")] = await import(new URL(name, migrationsDir).href);
    }
    return migrations;
  }
}

/** The names of the migrations, in the order they run. */
export async function listMigrationNames(): Promise<string[]> {
  return Object.keys(await new DirectoryMigrationProvider().getMigrations());
}

/**
 * Brings the schema up to date. Kysely's PostgreSQL adapter holds an advisory
 * lock for the whole run, so two app instances starting together do not race.
 */
export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new DirectoryMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error");
    throw new Error(`Migration ${failed?.migrationName ?? "(unknown)"} failed: ${error}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * Brings the schema to exactly `name`: a backup's in-memory copy of an older
 * schema, and tests that start from an older schema.
 */
export async function migrateTo(db: DB, name: string): Promise<void> {
  const migrator = new Migrator({ db, provider: new DirectoryMigrationProvider() });
  const { error, results } = await migrator.migrateTo(name);
  if (error) {
    const failed = results?.find((r) => r.status === "Error");
    throw new Error(`Migration ${failed?.migrationName ?? "(unknown)"} failed: ${error}`, {
      cause: error,
    });
  }
}

let knownNames: Promise<string[]> | undefined;

export interface MigrationStatus {
  /** Names this code has, in order. */
  known: string[];
  /** Names the database has run, in order. */
  applied: string[];
  /** Known but not run yet: the schema is behind this code. */
  pending: string[];
  /** Run but unknown to this code: the schema is ahead (a newer release migrated it). */
  unknown: string[];
}

/** Compares the code's migrations with the ones the database records. */
export async function findMigrationStatus(db: DB): Promise<MigrationStatus> {
  // The code's list never changes while the process runs; /readyz asks often.
  knownNames ??= listMigrationNames();
  const known = await knownNames;
  let applied: string[] = [];
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`
      .execute(db);
    applied = rows.map((r) => r.name);
  } catch (err) {
    // No migration table yet: nothing applied. Anything else is a real failure.
    if (!/kysely_migration/.test(String(err))) throw err;
  }
  const appliedSet = new Set(applied);
  const knownSet = new Set(known);
  return {
    known,
    applied,
    pending: known.filter((n) => !appliedSet.has(n)),
    unknown: applied.filter((n) => !knownSet.has(n)),
  };
}
