// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * The answers of the writes a tablet may send twice (the intake, its consents,
 * the tablet's selection): a browser that lost the answer to a request sends
 * it again with the same Idempotency-Key, and the server answers from here
 * instead of writing again. Kept in the database so every app process sees
 * it; the row is inserted in the same transaction as the write it answers for,
 * so its primary key is also the lock a concurrent replay waits on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE idempotency_keys (
      key uuid PRIMARY KEY,
      caller text NOT NULL,
      body_sha256 text NOT NULL,
      status smallint NOT NULL,
      answer text NOT NULL,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE idempotency_keys`.execute(db);
}
