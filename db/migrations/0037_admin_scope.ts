// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * Chain admins and store admins (issue 48): an ADMIN administers either the
 * whole chain or only the stores they work in (their users, their stores'
 * own settings, their reports). chain_admin says which; it means something
 * only for an ADMIN (an OWNER is chain-wide anyway, an AUTHORIZED_USER
 * administers nothing).
 *
 * Every admin of an install made before was an admin of everything, so the
 * column defaults to true and each existing admin stays a chain admin. The
 * server says it on every write that makes an admin (a store admin's new
 * admin is a store admin), so the default decides nothing for new accounts.
 * A constant default: PostgreSQL adds it without rewriting the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN chain_admin boolean NOT NULL DEFAULT true`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users DROP COLUMN IF EXISTS chain_admin`.execute(db);
}
