// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * A kept Idempotency-Key answer is the write's whole answer (a quote save
 * answers the quote, up to 400 KB of JSON) for a day. Kept gzipped from now
 * on, in a column of its own: the largest quote's 400 KB answer is 33 KB.
 * `answer` stays for the rows written before (read while they live).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE idempotency_keys ADD COLUMN answer_gzip bytea`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE idempotency_keys DROP COLUMN answer_gzip`.execute(db);
}
