// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * Online acceptance. Each quote e-mail carries a link
 * `/q/{token}`; only the token's SHA-256 is stored here, with the quote's
 * version when the link was made, so any later change of the quote (which
 * bumps the version) makes the link stale. A link is spent by the one
 * acceptance it allows and can be revoked by staff. The acceptance keeps the
 * signer's name, the signature image (a size-capped PNG), when, from where and
 * which options; a decline keeps its optional message.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE quote_links (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      quote_id uuid NOT NULL REFERENCES quotes (id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      quote_version integer NOT NULL,
      sent_to text NOT NULL,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      spent_at timestamptz,
      -- The server's local day (YYYY-MM-DD) of the last "Viewed by the client" entry.
      last_viewed_on text
    )`.execute(db);
  await sql`CREATE INDEX quote_links_quote_idx ON quote_links (quote_id)`.execute(db);
  await sql`
    CREATE TABLE quote_acceptances (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      quote_id uuid NOT NULL UNIQUE REFERENCES quotes (id) ON DELETE CASCADE,
      link_id uuid REFERENCES quote_links (id) ON DELETE SET NULL,
      signer_name text NOT NULL,
      -- A PNG drawn on the pad, or null when the client typed their name as the signature.
      signature_png bytea,
      typed_signature boolean NOT NULL,
      chosen_option_ids jsonb NOT NULL,
      accepted_at timestamptz NOT NULL DEFAULT now(),
      ip text,
      user_agent text,
      -- The signed copy (PDF) e-mailed to the client; made after the acceptance commits.
      signed_pdf bytea,
      CHECK (signature_png IS NOT NULL OR typed_signature)
    )`.execute(db);
  await sql`CREATE INDEX quote_acceptances_at_idx ON quote_acceptances (accepted_at DESC)`
    .execute(db);
  await sql`
    CREATE TABLE quote_declines (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      quote_id uuid NOT NULL REFERENCES quotes (id) ON DELETE CASCADE,
      link_id uuid REFERENCES quote_links (id) ON DELETE SET NULL,
      message text NOT NULL DEFAULT '',
      declined_at timestamptz NOT NULL DEFAULT now(),
      ip text,
      user_agent text
    )`.execute(db);
  await sql`CREATE INDEX quote_declines_quote_idx ON quote_declines (quote_id)`.execute(db);
  // The quotes list's "viewed" mark: when a client last opened one of its links.
  await sql`ALTER TABLE quotes ADD COLUMN client_viewed_at timestamptz`.execute(db);
  // The store's terms the client ticks before accepting (Settings).
  await sql`ALTER TABLE settings ADD COLUMN acceptance_terms_text text`.execute(db);
  // Notices to staff (accepted / declined online) go through the outbox too.
  await sql`ALTER TABLE email_outbox DROP CONSTRAINT IF EXISTS email_outbox_kind_check`
    .execute(db);
  await sql`ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
    CHECK (kind IN ('QUOTE', 'TEST', 'PASSWORD_RESET', 'SECURITY_NOTICE', 'READY_NOTICE',
      'WORK_ORDER', 'STAFF_NOTICE'))`
    .execute(db);
  // The dashboard keeps its read between requests; other processes hear of
  // new acceptances and declines like the other tables it reads (0017).
  for (const table of ["quote_acceptances", "quote_declines", "quote_links"]) {
    await sql`
      CREATE TRIGGER ${sql.id(`${table}_written`)}
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION lensdesk_table_written()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM email_outbox WHERE kind = 'STAFF_NOTICE'`.execute(db);
  await sql`ALTER TABLE email_outbox DROP CONSTRAINT IF EXISTS email_outbox_kind_check`
    .execute(db);
  await sql`ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
    CHECK (kind IN ('QUOTE', 'TEST', 'PASSWORD_RESET', 'SECURITY_NOTICE', 'READY_NOTICE',
      'WORK_ORDER'))`.execute(db);
  await sql`ALTER TABLE settings DROP COLUMN IF EXISTS acceptance_terms_text`.execute(db);
  await sql`ALTER TABLE quotes DROP COLUMN IF EXISTS client_viewed_at`.execute(db);
  await sql`DROP TABLE quote_declines`.execute(db);
  await sql`DROP TABLE quote_acceptances`.execute(db);
  await sql`DROP TABLE quote_links`.execute(db);
}
