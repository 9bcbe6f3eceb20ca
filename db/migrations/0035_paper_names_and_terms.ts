// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * What the paper a client holds names, kept when it happens:
 * - jobs.option_name: the option's name as the client chose it (its label,
 *   else "Option N"), for the receipt; option_label stays the staff's title
 *   (the frame SKU first). Jobs made before are left empty: the receipt then
 *   names the frame instead.
 * - quote_acceptances.terms_text: the store's acceptance terms as the client
 *   ticked them online, for the signed copy's signature page. Empty for
 *   acceptances made before: the copy then prints the terms of Settings.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN option_name text NOT NULL DEFAULT ''`.execute(db);
  await sql`ALTER TABLE quote_acceptances ADD COLUMN terms_text text NOT NULL DEFAULT ''`
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE jobs DROP COLUMN IF EXISTS option_name`.execute(db);
  await sql`ALTER TABLE quote_acceptances DROP COLUMN IF EXISTS terms_text`.execute(db);
}
