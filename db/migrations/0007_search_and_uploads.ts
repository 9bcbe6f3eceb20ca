// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * Search: every "contains" match (the staff bar's global search, the client
 * list search and the quote list search) is served by a trigram GIN index
 * instead of a scan. Each index is on one expression that the queries repeat
 * verbatim (src/search/match.ts); the planner only uses an expression index
 * for the very same expression.
 *
 * The expressions join the searched fields with a space. A search word never
 * holds whitespace, so a word found in the joined text lies inside one field:
 * matching the joined text is the same as matching any of the fields.
 *
 * fastupdate is off: with it on, new rows wait in a pending list that every
 * search reads through until a vacuum merges it, and PGlite runs no
 * autovacuum. A store adds rows one at a time, so the direct update is cheap.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Trusted since PostgreSQL 13: a database owner may create it. PGlite loads
  // it from the bundle passed when it is opened.
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);

  await sql`CREATE INDEX clients_search_text_trgm_idx ON clients USING gin
    ((lower(first_name || ' ' || coalesce(middle_name, '') || ' ' || last_name || ' ' ||
      coalesce(email, ''))) gin_trgm_ops)
    WITH (fastupdate = off)`.execute(db);
  // Phones compare digits only, so "(555) 010-2030" and "555.010.2030" match "5550102030".
  await sql`CREATE INDEX clients_phone_digits_trgm_idx ON clients USING gin
    ((regexp_replace(coalesce(mobile_phone, ''), '[^0-9]', '', 'g') || ' ' ||
      regexp_replace(coalesce(home_phone, ''), '[^0-9]', '', 'g')) gin_trgm_ops)
    WITH (fastupdate = off)`.execute(db);
  // The prefix-only (text_pattern_ops) indexes served no query: searches match anywhere.
  for (
    const name of [
      "clients_last_name_idx",
      "clients_first_name_idx",
      "clients_email_idx",
      "clients_mobile_digits_idx",
      "clients_home_digits_idx",
    ]
  ) {
    await sql`DROP INDEX IF EXISTS ${sql.id(name)}`.execute(db);
  }

  // A quote is found by its number, its optician or its client's name. The
  // client's name is copied onto the quote (kept in step by triggers) so one
  // index on one table answers; a join cannot be searched through one index.
  await sql`ALTER TABLE quotes ADD COLUMN client_name text NOT NULL DEFAULT ''`.execute(db);
  await sql`
    CREATE FUNCTION quotes_copy_client_name() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      SELECT c.first_name || ' ' || c.last_name INTO NEW.client_name
        FROM clients c WHERE c.id = NEW.client_id;
      NEW.client_name := coalesce(NEW.client_name, '');
      RETURN NEW;
    END
    $$`.execute(db);
  await sql`CREATE TRIGGER quotes_copy_client_name
    BEFORE INSERT OR UPDATE OF client_id ON quotes
    FOR EACH ROW EXECUTE FUNCTION quotes_copy_client_name()`.execute(db);
  await sql`
    CREATE FUNCTION clients_share_name_with_quotes() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE quotes SET client_name = NEW.first_name || ' ' || NEW.last_name
        WHERE client_id = NEW.id;
      RETURN NULL;
    END
    $$`.execute(db);
  await sql`CREATE TRIGGER clients_share_name_with_quotes
    AFTER UPDATE OF first_name, last_name ON clients
    FOR EACH ROW
    WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name
      OR OLD.last_name IS DISTINCT FROM NEW.last_name)
    EXECUTE FUNCTION clients_share_name_with_quotes()`.execute(db);
  await sql`UPDATE quotes q SET client_name = c.first_name || ' ' || c.last_name
    FROM clients c WHERE c.id = q.client_id`.execute(db);
  await sql`CREATE INDEX quotes_search_text_trgm_idx ON quotes USING gin
    ((lower(quote_number || ' ' || optician_name || ' ' || client_name)) gin_trgm_ops)
    WITH (fastupdate = off)`.execute(db);

  // Uploads are served under a name made of their content hash.
  await sql`ALTER TABLE uploaded_files ADD COLUMN content_hash text`.execute(db);
  await sql`CREATE INDEX uploaded_files_content_hash_idx ON uploaded_files (content_hash)
    WHERE completed_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX uploaded_files_expires_at_idx ON uploaded_files (expires_at)
    WHERE completed_at IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS uploaded_files_expires_at_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS uploaded_files_content_hash_idx`.execute(db);
  await sql`ALTER TABLE uploaded_files DROP COLUMN IF EXISTS content_hash`.execute(db);
  await sql`DROP INDEX IF EXISTS quotes_search_text_trgm_idx`.execute(db);
  await sql`DROP TRIGGER IF EXISTS clients_share_name_with_quotes ON clients`.execute(db);
  await sql`DROP FUNCTION IF EXISTS clients_share_name_with_quotes()`.execute(db);
  await sql`DROP TRIGGER IF EXISTS quotes_copy_client_name ON quotes`.execute(db);
  await sql`DROP FUNCTION IF EXISTS quotes_copy_client_name()`.execute(db);
  await sql`ALTER TABLE quotes DROP COLUMN IF EXISTS client_name`.execute(db);
  await sql`DROP INDEX IF EXISTS clients_phone_digits_trgm_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS clients_search_text_trgm_idx`.execute(db);
  await sql`CREATE INDEX clients_last_name_idx ON clients (lower(last_name) text_pattern_ops)`
    .execute(db);
  await sql`CREATE INDEX clients_first_name_idx ON clients (lower(first_name) text_pattern_ops)`
    .execute(db);
  await sql`CREATE INDEX clients_email_idx ON clients (lower(email) text_pattern_ops)`.execute(db);
  await sql`CREATE INDEX clients_mobile_digits_idx
    ON clients ((regexp_replace(coalesce(mobile_phone, ''), '[^0-9]', '', 'g')) text_pattern_ops)`
    .execute(db);
  await sql`CREATE INDEX clients_home_digits_idx
    ON clients ((regexp_replace(coalesce(home_phone, ''), '[^0-9]', '', 'g')) text_pattern_ops)`
    .execute(db);
  // The extension may serve other objects; it is left in place.
}
