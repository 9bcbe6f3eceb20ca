// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * Indexes for the pages opened all day (tests/api/hot_plan_test.ts checks the
 * plans). At store scale (100,000 clients, 300,000 quotes) each of these was a
 * scan of the quotes table on every dashboard view.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The dashboard's recent quotes: newest change first, the page's tie-break
  // included, so the first five rows are read straight off the index.
  await sql`CREATE INDEX quotes_updated_at_idx ON quotes (updated_at DESC, id DESC)`.execute(db);
  // The dashboard's "Active Quotes" count: open work that has not expired.
  // The status list is the one the query repeats (ACTIVE_STATUSES), so the
  // planner proves the partial predicate; the count reads only those rows'
  // expiry, never the closed and finalized history.
  await sql`CREATE INDEX quotes_active_expires_at_idx ON quotes (expires_at)
    WHERE status IN ('ACTIVE', 'PENDING_MEASUREMENTS', 'EMAILED', 'ACCEPTED')`.execute(db);
  // Expired quotes to follow up, newest expiry first with the page's tie-break
  // (replaces the single-column one, which left a sort of every expired quote).
  await sql`CREATE INDEX quotes_open_expires_at_id_idx ON quotes (expires_at DESC, id DESC)
    WHERE status <> 'CLOSED'`.execute(db);
  await sql`DROP INDEX IF EXISTS quotes_expires_at_idx`.execute(db);
  // The clients list: newest first with its tie-break.
  await sql`CREATE INDEX clients_created_at_id_idx ON clients (created_at DESC, id DESC)`
    .execute(db);
  await sql`DROP INDEX IF EXISTS clients_created_at_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS clients_created_at_idx ON clients (created_at DESC)`
    .execute(db);
  await sql`DROP INDEX IF EXISTS clients_created_at_id_idx`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS quotes_expires_at_idx ON quotes (expires_at)
    WHERE status <> 'CLOSED'`.execute(db);
  await sql`DROP INDEX IF EXISTS quotes_open_expires_at_id_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS quotes_active_expires_at_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS quotes_updated_at_idx`.execute(db);
}
