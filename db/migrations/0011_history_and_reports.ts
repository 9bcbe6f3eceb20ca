// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The audit page filters by kind (the part of the action before the dot:
  // client, quote, catalog, user, auth, settings). A stored column lets an
  // index lead with it, so a filtered page is an index range scan too.
  await sql`ALTER TABLE audit_log
    ADD COLUMN kind text GENERATED ALWAYS AS (split_part(action, '.', 1)) STORED`.execute(db);

  // Keyset paging walks (at, id) newest first; each filter has an index that
  // ends with the same two columns, so no page ever needs OFFSET or a sort.
  await sql`DROP INDEX IF EXISTS audit_log_at_idx`.execute(db);
  await sql`CREATE INDEX audit_log_at_id_idx ON audit_log (at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX audit_log_kind_at_idx ON audit_log (kind, at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX audit_log_user_at_idx ON audit_log (user_id, at DESC, id DESC)`
    .execute(db);
  // One entity's history (the client and quote History tabs), already in order.
  await sql`DROP INDEX IF EXISTS audit_log_entity_idx`.execute(db);
  await sql`CREATE INDEX audit_log_entity_at_idx
    ON audit_log (entity_type, entity_id, at DESC, id DESC)`.execute(db);

  // The conversion report counts quotes that were ever accepted or finalized,
  // even when they later moved on (finalized after acceptance, reopened, closed).
  await sql`ALTER TABLE quotes ADD COLUMN accepted_at timestamptz,
    ADD COLUMN finalized_at timestamptz`.execute(db);
  // Existing quotes: the first such event in the audit log, else (for rows
  // written without one) the last update of a quote that has that status now.
  await sql`
    UPDATE quotes q SET
      accepted_at = coalesce(
        (SELECT min(a.at) FROM audit_log a
          WHERE a.entity_type = 'quote' AND a.entity_id = q.id::text
            AND a.action = 'quote.accept'),
        CASE WHEN q.status = 'ACCEPTED' THEN q.updated_at END),
      finalized_at = coalesce(
        (SELECT min(a.at) FROM audit_log a
          WHERE a.entity_type = 'quote' AND a.entity_id = q.id::text
            AND a.action = 'quote.finalize'),
        CASE WHEN q.status = 'FINALIZED' THEN q.updated_at END)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE quotes DROP COLUMN IF EXISTS accepted_at,
    DROP COLUMN IF EXISTS finalized_at`.execute(db);
  await sql`DROP INDEX IF EXISTS audit_log_entity_at_idx`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS audit_log_entity_idx ON audit_log (entity_type, entity_id)`
    .execute(db);
  await sql`DROP INDEX IF EXISTS audit_log_user_at_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS audit_log_kind_at_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS audit_log_at_id_idx`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS audit_log_at_idx ON audit_log (at DESC)`.execute(db);
  await sql`ALTER TABLE audit_log DROP COLUMN IF EXISTS kind`.execute(db);
}
