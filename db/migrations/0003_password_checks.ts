// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Failed password checks (sign-in, change-password, and any later check),
  // kept in the database so every app process throttles from the same counts.
  // account: "user:{id}" for a known user, "name:{lower-cased name}" otherwise;
  // source: "device:{id}" from a known device of that account, else "ip:{address}".
  await sql`
    CREATE TABLE password_check_failures (
      id bigserial PRIMARY KEY,
      at timestamptz NOT NULL,
      account text NOT NULL,
      source text NOT NULL,
      address text NOT NULL,
      known_device boolean NOT NULL,
      purpose text NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX password_check_failures_account_idx
    ON password_check_failures (account, at)`.execute(db);
  await sql`CREATE INDEX password_check_failures_address_idx
    ON password_check_failures (address, at)`.execute(db);
  await sql`CREATE INDEX password_check_failures_at_idx ON password_check_failures (at)`
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS password_check_failures`.execute(db);
}
