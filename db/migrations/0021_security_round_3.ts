// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Security notices to a staff member (an owner reset their second factor)
  // go through the outbox like the other mails.
  await sql`ALTER TABLE email_outbox DROP CONSTRAINT IF EXISTS email_outbox_kind_check`
    .execute(db);
  await sql`ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
    CHECK (kind IN ('QUOTE', 'TEST', 'PASSWORD_RESET', 'SECURITY_NOTICE'))`.execute(db);
  // Replacing a second factor that is on now needs the password and a current
  // code before a new secret is kept pending. A pending secret left from
  // before (asked for with a session alone) must not be confirmable.
  await sql`UPDATE users SET totp_pending_secret_enc = NULL WHERE totp_enabled_at IS NOT NULL`
    .execute(db);
  // The uploaded logo's print copy (a PNG of print size made when the logo is
  // set), which print pages and the PDF show instead of the upload itself.
  await sql`ALTER TABLE settings ADD COLUMN logo_print_url text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE settings DROP COLUMN IF EXISTS logo_print_url`.execute(db);
  await sql`DELETE FROM email_outbox WHERE kind = 'SECURITY_NOTICE'`.execute(db);
  await sql`ALTER TABLE email_outbox DROP CONSTRAINT IF EXISTS email_outbox_kind_check`
    .execute(db);
  await sql`ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
    CHECK (kind IN ('QUOTE', 'TEST', 'PASSWORD_RESET'))`.execute(db);
}
