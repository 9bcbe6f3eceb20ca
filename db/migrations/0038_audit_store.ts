// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * The audit log names the store an entry concerns (issue 48): a quote's,
 * an order's, the store that took a payment, the store a job's glasses go
 * to, a store's own settings. Null is the chain's: clients, the catalog,
 * users, sign-ins and the chain's settings belong to no one store.
 *
 * The column is added without a default (PostgreSQL records it without
 * rewriting the table). The entries written before it, of quotes, orders and
 * stores still there, are given their record's store: in the one-store chain
 * an older install becomes, that is its only store, and filtering the log by
 * that store later (once a second opens) still finds them. Entries of
 * records since deleted stay the chain's.
 *
 * The owner's audit page filters by store and pages newest first: the index
 * serves that filter as audit_log_kind_at_idx serves the kind's.
 *
 * And the dashboard's counts are a store's (issue 48: the dashboard shows the
 * current store): quote_expiry_counts (migration 0016) keeps its counts per
 * store too. Its key gains store_id last, so the chain's sums (a one-store
 * chain's dashboard, "All stores") read it as before; its triggers count by
 * store, and a quote moved to another store moves its count. The counts are
 * rebuilt from the quotes once, as 0016 first built them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE audit_log ADD COLUMN store_id uuid
    REFERENCES stores (id) ON DELETE RESTRICT`.execute(db);
  await sql`
    UPDATE audit_log a SET store_id = q.store_id FROM quotes q
    WHERE a.entity_type = 'quote' AND a.entity_id = q.id::text`.execute(db);
  await sql`
    UPDATE audit_log a SET store_id = o.store_id FROM orders o
    WHERE a.entity_type = 'order' AND a.entity_id = o.id::text`.execute(db);
  await sql`
    UPDATE audit_log a SET store_id = s.id FROM stores s
    WHERE a.entity_type = 'store' AND a.entity_id = s.id::text`.execute(db);
  await sql`CREATE INDEX audit_log_store_at_idx ON audit_log (store_id, at DESC, id DESC)`
    .execute(db);
  await countQuotesByStore(db);
}

async function countQuotesByStore(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM quote_expiry_counts`.execute(db);
  await sql`ALTER TABLE quote_expiry_counts DROP CONSTRAINT quote_expiry_counts_pkey`.execute(db);
  await sql`ALTER TABLE quote_expiry_counts ADD COLUMN store_id uuid NOT NULL`.execute(db);
  await sql`ALTER TABLE quote_expiry_counts ADD PRIMARY KEY (status, expires_on, store_id)`
    .execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION quote_expiry_counts_bump() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE quote_expiry_counts SET n = n - 1
        WHERE status = OLD.status AND expires_on = quote_expiry_day(OLD.expires_at)
          AND store_id = OLD.store_id;
      INSERT INTO quote_expiry_counts AS c (status, expires_on, store_id, n)
        VALUES (NEW.status, quote_expiry_day(NEW.expires_at), NEW.store_id, 1)
        ON CONFLICT (status, expires_on, store_id) DO UPDATE SET n = c.n + 1;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION quote_expiry_counts_add() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO quote_expiry_counts AS c (status, expires_on, store_id, n)
        SELECT status, quote_expiry_day(expires_at), store_id, count(*) FROM new_rows
        GROUP BY 1, 2, 3
        ON CONFLICT (status, expires_on, store_id) DO UPDATE SET n = c.n + excluded.n;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION quote_expiry_counts_remove() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE quote_expiry_counts c SET n = c.n - d.n
        FROM (SELECT status, quote_expiry_day(expires_at) AS expires_on, store_id, count(*) AS n
              FROM old_rows GROUP BY 1, 2, 3) d
        WHERE c.status = d.status AND c.expires_on = d.expires_on AND c.store_id = d.store_id;
      RETURN NULL;
    END $$`.execute(db);
  await sql`DROP TRIGGER quotes_expiry_counts_update ON quotes`.execute(db);
  await sql`
    CREATE TRIGGER quotes_expiry_counts_update AFTER UPDATE OF status, expires_at, store_id
    ON quotes FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status
      OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
      OR OLD.store_id IS DISTINCT FROM NEW.store_id)
    EXECUTE FUNCTION quote_expiry_counts_bump()`.execute(db);
  await sql`
    INSERT INTO quote_expiry_counts (status, expires_on, store_id, n)
    SELECT status, quote_expiry_day(expires_at), store_id, count(*) FROM quotes
    GROUP BY 1, 2, 3`.execute(db);
}

/** Back to 0016's counts: per status and day for the whole chain. */
async function countQuotesForChain(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM quote_expiry_counts`.execute(db);
  await sql`DROP TRIGGER quotes_expiry_counts_update ON quotes`.execute(db);
  await sql`
    CREATE TRIGGER quotes_expiry_counts_update AFTER UPDATE OF status, expires_at ON quotes
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status
      OR OLD.expires_at IS DISTINCT FROM NEW.expires_at)
    EXECUTE FUNCTION quote_expiry_counts_bump()`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION quote_expiry_counts_bump() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE quote_expiry_counts SET n = n - 1
        WHERE status = OLD.status AND expires_on = quote_expiry_day(OLD.expires_at);
      INSERT INTO quote_expiry_counts AS c (status, expires_on, n)
        VALUES (NEW.status, quote_expiry_day(NEW.expires_at), 1)
        ON CONFLICT (status, expires_on) DO UPDATE SET n = c.n + 1;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION quote_expiry_counts_add() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO quote_expiry_counts AS c (status, expires_on, n)
        SELECT status, quote_expiry_day(expires_at), count(*) FROM new_rows GROUP BY 1, 2
        ON CONFLICT (status, expires_on) DO UPDATE SET n = c.n + excluded.n;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION quote_expiry_counts_remove() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE quote_expiry_counts c SET n = c.n - d.n
        FROM (SELECT status, quote_expiry_day(expires_at) AS expires_on, count(*) AS n
              FROM old_rows GROUP BY 1, 2) d
        WHERE c.status = d.status AND c.expires_on = d.expires_on;
      RETURN NULL;
    END $$`.execute(db);
  await sql`ALTER TABLE quote_expiry_counts DROP CONSTRAINT quote_expiry_counts_pkey`.execute(db);
  await sql`ALTER TABLE quote_expiry_counts DROP COLUMN store_id`.execute(db);
  await sql`ALTER TABLE quote_expiry_counts ADD PRIMARY KEY (status, expires_on)`.execute(db);
  await sql`
    INSERT INTO quote_expiry_counts (status, expires_on, n)
    SELECT status, quote_expiry_day(expires_at), count(*) FROM quotes GROUP BY 1, 2`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await countQuotesForChain(db);
  await sql`DROP INDEX IF EXISTS audit_log_store_at_idx`.execute(db);
  await sql`ALTER TABLE audit_log DROP COLUMN IF EXISTS store_id`.execute(db);
}
