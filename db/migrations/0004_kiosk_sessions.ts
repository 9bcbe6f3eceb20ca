// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // A browser handed to a client ("Hand to client") runs on one of these
  // instead of a staff session: scoped to one quote's selection or to one
  // intake, with a short life of its own. Like sessions, only the SHA-256 of
  // the cookie's token is stored.
  await sql`
    CREATE TABLE kiosk_sessions (
      id text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('QUOTE', 'INTAKE')),
      quote_id uuid REFERENCES quotes (id) ON DELETE CASCADE,
      client_id uuid REFERENCES clients (id) ON DELETE CASCADE,
      handed_over_by uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      completed_at timestamptz,
      ip text,
      user_agent text,
      CHECK (kind = 'INTAKE' OR quote_id IS NOT NULL)
    )`.execute(db);
  await sql`CREATE INDEX kiosk_sessions_expires_at_idx ON kiosk_sessions (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS kiosk_sessions`.execute(db);
}
