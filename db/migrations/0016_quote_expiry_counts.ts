// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * The dashboard's two counts ("Active Quotes" and expired quotes to follow up)
 * were counts of every matching quote on every view: at store scale over
 * 100,000 index entries, about 32 ms of database time per dashboard. This
 * table keeps how many quotes have each status and expiry day (UTC; 'infinity'
 * for no expiry), kept exact by triggers in the same transaction as the quote
 * change. A count is then the sum of the days before today plus the quotes of
 * today alone, read off the expiry indexes (src/quotes/dashboard.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE quote_expiry_counts (
      status text NOT NULL,
      expires_on date NOT NULL,
      n integer NOT NULL,
      PRIMARY KEY (status, expires_on)
    )`.execute(db);
  await sql`
    CREATE FUNCTION quote_expiry_day(expires_at timestamptz) RETURNS date
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT coalesce((expires_at AT TIME ZONE 'UTC')::date, 'infinity'::date) $$`
    .execute(db);
  await sql`
    CREATE FUNCTION quote_expiry_counts_bump() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE quote_expiry_counts SET n = n - 1
        WHERE status = OLD.status AND expires_on = quote_expiry_day(OLD.expires_at);
      INSERT INTO quote_expiry_counts AS c (status, expires_on, n)
        VALUES (NEW.status, quote_expiry_day(NEW.expires_at), 1)
        ON CONFLICT (status, expires_on) DO UPDATE SET n = c.n + 1;
      RETURN NULL;
    END $$`.execute(db);
  // Inserts and deletes are counted per statement, one change per status and
  // day however many rows: a bulk load (or a client's deletion taking their
  // quotes along) writes a few counts, not one per quote.
  await sql`
    CREATE FUNCTION quote_expiry_counts_add() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO quote_expiry_counts AS c (status, expires_on, n)
        SELECT status, quote_expiry_day(expires_at), count(*) FROM new_rows GROUP BY 1, 2
        ON CONFLICT (status, expires_on) DO UPDATE SET n = c.n + excluded.n;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE FUNCTION quote_expiry_counts_remove() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE quote_expiry_counts c SET n = c.n - d.n
        FROM (SELECT status, quote_expiry_day(expires_at) AS expires_on, count(*) AS n
              FROM old_rows GROUP BY 1, 2) d
        WHERE c.status = d.status AND c.expires_on = d.expires_on;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE FUNCTION quote_expiry_counts_clear() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM quote_expiry_counts;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER quotes_expiry_counts_insert AFTER INSERT ON quotes
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION quote_expiry_counts_add()`.execute(db);
  await sql`
    CREATE TRIGGER quotes_expiry_counts_delete AFTER DELETE ON quotes
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION quote_expiry_counts_remove()`.execute(db);
  // Updates per row: PostgreSQL allows no transition tables on a trigger with
  // a column list, and this one's list and condition let most saves, which
  // change neither column, leave the counts (and their row locks) alone.
  await sql`
    CREATE TRIGGER quotes_expiry_counts_update AFTER UPDATE OF status, expires_at ON quotes
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status
      OR OLD.expires_at IS DISTINCT FROM NEW.expires_at)
    EXECUTE FUNCTION quote_expiry_counts_bump()`.execute(db);
  await sql`
    CREATE TRIGGER quotes_expiry_counts_truncate AFTER TRUNCATE ON quotes
    FOR EACH STATEMENT EXECUTE FUNCTION quote_expiry_counts_clear()`.execute(db);
  await sql`
    INSERT INTO quote_expiry_counts (status, expires_on, n)
    SELECT status, quote_expiry_day(expires_at), count(*) FROM quotes GROUP BY 1, 2`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS quotes_expiry_counts_truncate ON quotes`.execute(db);
  await sql`DROP TRIGGER IF EXISTS quotes_expiry_counts_update ON quotes`.execute(db);
  await sql`DROP TRIGGER IF EXISTS quotes_expiry_counts_delete ON quotes`.execute(db);
  await sql`DROP TRIGGER IF EXISTS quotes_expiry_counts_insert ON quotes`.execute(db);
  await sql`DROP FUNCTION IF EXISTS quote_expiry_counts_clear()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS quote_expiry_counts_bump()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS quote_expiry_counts_remove()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS quote_expiry_counts_add()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS quote_expiry_day(timestamptz)`.execute(db);
  await sql`DROP TABLE IF EXISTS quote_expiry_counts`.execute(db);
}
