// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * A restore records the backup it loaded as the store's last good backup
 * (`deno task restore`, inside the transaction that loads the data), so a
 * restored store does not read "no backup" until its next one. restored_at
 * says when that was; it is NULL for the backups this store took itself.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE backup_runs ADD COLUMN restored_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE backup_runs DROP COLUMN IF EXISTS restored_at`.execute(db);
}
