import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
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
