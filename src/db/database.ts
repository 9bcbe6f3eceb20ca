import { CamelCasePlugin, Kysely, PGliteDialect } from "kysely";
import { PGlite } from "@electric-sql/pglite";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres from "postgres";
import { join } from "node:path";
import type { Database } from "../../db/schema.ts";

export type DB = Kysely<Database>;

export interface DatabaseHandle {
  db: DB;
  /** "server" for a PostgreSQL server, "embedded" for PGlite on disk, "memory" for throwaway PGlite. */
  kind: "server" | "embedded" | "memory";
  close(): Promise<void>;
}

/**
 * One entry point for both engines: the same Kysely instance type, the same
 * migrations and the same queries run on a PostgreSQL server and on PGlite.
 */
export async function openDatabase(
  databaseUrl: string | undefined,
  dataDir: string,
): Promise<DatabaseHandle> {
  const plugins = [new CamelCasePlugin()];
  if (databaseUrl && databaseUrl !== "memory://") {
    const client = postgres(databaseUrl, {
      max: 10,
      onnotice: () => {},
      // Dates stay Date objects; NUMERIC stays a string (postgres.js default).
      connection: { application_name: "lensdesk" },
    });
    const db = new Kysely<Database>({
      dialect: new PostgresJSDialect({ postgres: client }),
      plugins,
    });
    return { db, kind: "server", close: () => db.destroy() };
  }
  let pg: PGlite;
  let kind: DatabaseHandle["kind"];
  if (databaseUrl === "memory://") {
    pg = new PGlite();
    kind = "memory";
  } else {
    const dir = join(dataDir, "pgdata");
    await Deno.mkdir(dir, { recursive: true });
    pg = new PGlite(dir);
    kind = "embedded";
  }
  await pg.waitReady;
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite: pg }), plugins });
  return {
    db,
    kind,
    async close() {
      await db.destroy();
      if (!pg.closed) await pg.close();
    },
  };
}
