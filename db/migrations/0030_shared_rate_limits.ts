// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * The signed-out intake's and the online acceptance's limits were counted in
 * each process's memory: two replicas let twice as many through. Counted
 * here instead, every process shares them: one row per event let through,
 * by rule and key (an address, a link's hash), so a window slides exactly as
 * it did in memory (src/auth/throttle.ts). A key has at most its rule's
 * events a window; old rows are swept hourly.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rate_limit_events (
      rule text NOT NULL,
      key text NOT NULL CHECK (length(key) <= 200),
      at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX rate_limit_events_key_idx ON rate_limit_events (rule, key, at DESC)`
    .execute(db);
  await sql`CREATE INDEX rate_limit_events_at_idx ON rate_limit_events (at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS rate_limit_events`.execute(db);
}
