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

  // Two-factor sign-in (TOTP, RFC 6238) for admins and owners. The secret is
  // stored encrypted under SECRET_KEY (it must be read to check a code); the
  // last time step used is kept so no code works twice.
  await sql`ALTER TABLE users
    ADD COLUMN totp_secret_enc text,
    ADD COLUMN totp_pending_secret_enc text,
    ADD COLUMN totp_enabled_at timestamptz,
    ADD COLUMN totp_last_step bigint`.execute(db);
  // One-time recovery codes: only their SHA-256 (they are long random strings).
  await sql`
    CREATE TABLE totp_recovery_codes (
      id text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      used_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX totp_recovery_codes_user_id_idx ON totp_recovery_codes (user_id)`
    .execute(db);
  // The step between a right password and the second factor: the browser
  // holds a token (only its SHA-256 here), good for a few minutes and a few tries.
  await sql`
    CREATE TABLE two_factor_challenges (
      id text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      return_to text NOT NULL DEFAULT '/dashboard'
    )`.execute(db);
  await sql`CREATE INDEX two_factor_challenges_user_id_idx ON two_factor_challenges (user_id)`
    .execute(db);
  // The owner's store-wide rule: every admin and owner signs in with a second factor.
  await sql`ALTER TABLE settings ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false`
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE settings DROP COLUMN IF EXISTS require_two_factor`.execute(db);
  await sql`DROP TABLE IF EXISTS two_factor_challenges`.execute(db);
  await sql`DROP TABLE IF EXISTS totp_recovery_codes`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN IF EXISTS totp_secret_enc,
    DROP COLUMN IF EXISTS totp_pending_secret_enc, DROP COLUMN IF EXISTS totp_enabled_at,
    DROP COLUMN IF EXISTS totp_last_step`.execute(db);
  await sql`DELETE FROM email_outbox WHERE kind = 'PASSWORD_RESET'`.execute(db);
  await sql`ALTER TABLE email_outbox DROP CONSTRAINT IF EXISTS email_outbox_kind_check`
    .execute(db);
  await sql`ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
    CHECK (kind IN ('QUOTE', 'TEST'))`.execute(db);
  await sql`DROP TABLE IF EXISTS password_reset_requests`.execute(db);
  await sql`ALTER TABLE password_reset_tokens DROP COLUMN IF EXISTS replaced_at`.execute(db);
}
