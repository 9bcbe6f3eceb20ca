// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Every quote e-mail goes through here first, so a mail server that is down
  // loses nothing: the message waits and is retried with backoff.
  await sql`
    CREATE TABLE email_outbox (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      quote_id uuid REFERENCES quotes (id) ON DELETE SET NULL,
      kind text NOT NULL DEFAULT 'QUOTE' CHECK (kind IN ('QUOTE', 'TEST')),
      to_address text NOT NULL,
      subject text NOT NULL,
      html text NOT NULL,
      text_body text NOT NULL,
      attachment_name text,
      attachment bytea,
      status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SENT', 'FAILED')),
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      last_error text,
      message_id text,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX email_outbox_due_idx ON email_outbox (next_attempt_at)
    WHERE status = 'PENDING'`.execute(db);
  await sql`CREATE INDEX email_outbox_quote_idx ON email_outbox (quote_id)`.execute(db);
  await sql`ALTER TABLE quotes ADD COLUMN emailed_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE quotes DROP COLUMN IF EXISTS emailed_at`.execute(db);
  await sql`DROP TABLE IF EXISTS email_outbox`.execute(db);
}
