// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * Why the signed copy of an online acceptance cannot be made or was not
 * e-mailed (a signature image that cannot be drawn, kept before acceptances
 * checked it; or every try failed), in words for staff. A copy with a
 * problem is not tried again in the background.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE quote_acceptances ADD COLUMN signed_copy_problem text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE quote_acceptances DROP COLUMN IF EXISTS signed_copy_problem`.execute(db);
}
