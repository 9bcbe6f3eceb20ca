// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * Days the store is shut on a day it usually opens (holidays, a stocktake):
 * promised dates skip them as they skip the weekdays it never opens, and the
 * ready-for-pickup e-mail waits for the next day it opens. Sorted ISO dates,
 * comma-separated, as opening_days keeps its weekdays; at most 100 of them
 * (the settings schema says so too, with a message).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE settings
    ADD COLUMN closed_dates text NOT NULL DEFAULT ''
      CHECK (closed_dates ~ '^([0-9]{4}-[0-9]{2}-[0-9]{2}(,[0-9]{4}-[0-9]{2}-[0-9]{2}){0,99})?$')`
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE settings DROP COLUMN IF EXISTS closed_dates`.execute(db);
}
