// What openDatabase hands out, for either engine (a module of its own, so the
// engines' modules and the entry point do not import each other).
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import type { DB, PoolStats } from "./watched.ts";
import type { TableWrites } from "./table_writes.ts";

/** The engine's own client, for what Kysely cannot do: pg_dump, a backup's snapshot. */
export type RawClient =
  | { engine: "postgres"; pool: pg.Pool }
  | { engine: "pglite"; pglite: PGlite };

export interface DatabaseHandle {
  db: DB;
  /** "server" for a PostgreSQL server, "embedded" for PGlite on disk, "memory" for throwaway PGlite. */
  kind: "server" | "embedded" | "memory";
  pool: PoolStats;
  raw: RawClient;
  /** What this process and, on a server, every other process wrote (see table_writes.ts). */
  writes: TableWrites;
  close(): Promise<void>;
}
