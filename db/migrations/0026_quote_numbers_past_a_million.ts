// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * The millionth quote. Migration 0001's default, 'Q-' || lpad(n, 6, '0'),
 * also cuts a longer number to six characters: quote 1,000,000 was made
 * "Q-100000", a number quote 100,000 already holds, and the insert failed on
 * the unique key (every later one too, until 1,099,999). Numbers keep six
 * digits at least, and all of them past that.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE FUNCTION lensdesk_next_quote_number() RETURNS text
    LANGUAGE sql VOLATILE AS $$
      SELECT 'Q-' || CASE WHEN n < 1000000 THEN lpad(n::text, 6, '0') ELSE n::text END
      FROM nextval('quote_number_seq') AS n
    $$`.execute(db);
  await sql`ALTER TABLE quotes ALTER COLUMN quote_number SET DEFAULT lensdesk_next_quote_number()`
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE quotes ALTER COLUMN quote_number
    SET DEFAULT ('Q-' || lpad(nextval('quote_number_seq')::text, 6, '0'))`.execute(db);
  await sql`DROP FUNCTION lensdesk_next_quote_number()`.execute(db);
}
