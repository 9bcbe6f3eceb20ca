// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Mail goes over TLS unless an admin says the store's relay has none; off
  // by default, so a password is never sent in clear without someone choosing it.
  await sql`ALTER TABLE settings ADD COLUMN smtp_allow_insecure boolean NOT NULL DEFAULT false`
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE settings DROP COLUMN IF EXISTS smtp_allow_insecure`.execute(db);
}
