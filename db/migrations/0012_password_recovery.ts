// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // A reset link replaced by a newer one is refused with its own message
  // ("a newer link was sent"), so it is marked rather than deleted.
  await sql`ALTER TABLE password_reset_tokens ADD COLUMN replaced_at timestamptz`.execute(db);

  // "Forgot password?" requests, counted per e-mail address typed, per client
  // address and per account, in the database so every app process shares the
  // limits. Rows older than the longest window are deleted as new ones come.
  await sql`
    CREATE TABLE password_reset_requests (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      key text NOT NULL,
      at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX password_reset_requests_key_at_idx ON password_reset_requests (key, at)`
    .execute(db);

  // Reset mails go through the outbox like quote mails; their link is removed
  // from the stored copy once sent (see src/auth/reset_mail.ts).
  await sql`ALTER TABLE email_outbox DROP CONSTRAINT IF EXISTS email_outbox_kind_check`
    .execute(db);
  await sql`ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
    CHECK (kind IN ('QUOTE', 'TEST', 'PASSWORD_RESET'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM email_outbox WHERE kind = 'PASSWORD_RESET'`.execute(db);
  await sql`ALTER TABLE email_outbox DROP CONSTRAINT IF EXISTS email_outbox_kind_check`
    .execute(db);
  await sql`ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
    CHECK (kind IN ('QUOTE', 'TEST'))`.execute(db);
  await sql`DROP TABLE IF EXISTS password_reset_requests`.execute(db);
  await sql`ALTER TABLE password_reset_tokens DROP COLUMN IF EXISTS replaced_at`.execute(db);
}
