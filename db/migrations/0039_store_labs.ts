// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * The labs a store uses (issue 48: "a store has ... labs it uses"). The labs
 * list is the chain's; a store that names none uses every active lab, as
 * every store did before, so an install needs no rows. A store that names
 * some offers only those when an order of its is made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE store_labs (
      store_id uuid NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
      lab_id uuid NOT NULL REFERENCES labs (id) ON DELETE CASCADE,
      PRIMARY KEY (store_id, lab_id)
    )`.execute(db);
  await sql`CREATE INDEX store_labs_lab_idx ON store_labs (lab_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS store_labs`.execute(db);
}
