// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * The client's e-mail of the signed copy was tried once, right
 * after the acceptance: a render that failed then (the PDF pool full, out of
 * time, the server stopping) left the client without it. Now each acceptance
 * says whether its e-mail went into the outbox (or none was owed), and a
 * background pass tries again on a backoff until it does or gives up.
 * Acceptances made before this release were tried the old way: settled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE quote_acceptances
    ADD COLUMN signed_copy_settled_at timestamptz,
    ADD COLUMN signed_copy_attempts integer NOT NULL DEFAULT 0
      CHECK (signed_copy_attempts >= 0),
    ADD COLUMN signed_copy_next_at timestamptz`.execute(db);
  await sql`UPDATE quote_acceptances SET signed_copy_settled_at = accepted_at`.execute(db);
  // The background pass reads the unsettled few only.
  await sql`CREATE INDEX quote_acceptances_signed_copy_owed_idx
    ON quote_acceptances (signed_copy_next_at) WHERE signed_copy_settled_at IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS quote_acceptances_signed_copy_owed_idx`.execute(db);
  await sql`ALTER TABLE quote_acceptances
    DROP COLUMN IF EXISTS signed_copy_settled_at,
    DROP COLUMN IF EXISTS signed_copy_attempts,
    DROP COLUMN IF EXISTS signed_copy_next_at`.execute(db);
}
