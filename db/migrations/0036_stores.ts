// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * The chain: an install holds one or more stores.
 *
 * - stores: a store's code (short, unique: it prefixes the store's numbers)
 *   and what it may override of the chain's settings (the settings row): its
 *   name, contacts, logo, hours, closed dates, time zone and ready e-mail.
 *   A null column is "the chain's setting", so a store goes back to the
 *   default by clearing it.
 * - user_stores: the stores each user works in (an OWNER works in all,
 *   whatever the rows say).
 * - The rows that belong to a store say which: quotes, orders, payments and
 *   the tablet hand-overs (store_id), each job the store its glasses go to
 *   (pickup_store_id), each client a home store (home_store_id).
 *
 * An install made before becomes a one-store chain: one store ("MAIN") with
 * no overrides (it shows today's settings exactly), every user working in
 * it, every row above belonging to it. The columns are added with that
 * store's id as a constant default, which PostgreSQL records without
 * rewriting the table (a store of a million clients migrates at once), and
 * then default to lensdesk_only_store(): the store while there is exactly
 * one, else null, so that in a chain a write that does not say its store
 * fails on NOT NULL instead of landing in an arbitrary one.
 */
const STAMPED: [table: string, column: string][] = [
  ["clients", "home_store_id"],
  ["quotes", "store_id"],
  ["orders", "store_id"],
  ["jobs", "pickup_store_id"],
  ["payments", "store_id"],
  ["kiosk_sessions", "store_id"],
];

const HOURS = "'^([01][0-9]|2[0-3]):[0-5][0-9]$'";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE stores (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      code text NOT NULL CHECK (code ~ '^[A-Z0-9]{1,8}$'),
      name text CHECK (btrim(name) <> ''),
      phone text,
      email text,
      address text,
      website text,
      logo_url text,
      logo_print_url text,
      time_zone text,
      opening_days text CHECK (opening_days ~ '^[0-6](,[0-6]){0,6}$'),
      opening_time text CHECK (opening_time ~ ${sql.raw(HOURS)}),
      closing_time text CHECK (closing_time ~ ${sql.raw(HOURS)}),
      closed_dates text,
      ready_email_subject text,
      ready_email_body text,
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX stores_code_idx ON stores (code)`.execute(db);

  await sql`
    CREATE TABLE user_stores (
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      store_id uuid NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
      PRIMARY KEY (user_id, store_id)
    )`.execute(db);
  await sql`CREATE INDEX user_stores_store_idx ON user_stores (store_id)`.execute(db);

  const { rows } = await sql<{ id: string }>`INSERT INTO stores (code) VALUES ('MAIN') RETURNING id`
    .execute(db);
  const only = rows[0].id;
  await sql`INSERT INTO user_stores (user_id, store_id) SELECT id, ${only}::uuid FROM users`
    .execute(db);

  await sql`
    CREATE FUNCTION lensdesk_only_store() RETURNS uuid LANGUAGE sql STABLE AS $$
      SELECT CASE WHEN count(*) = 1 THEN (array_agg(id))[1] END FROM stores
    $$`.execute(db);

  for (const [table, column] of STAMPED) {
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN ${sql.id(column)} uuid NOT NULL
      DEFAULT ${sql.lit(only)}::uuid REFERENCES stores (id) ON DELETE RESTRICT`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN ${sql.id(column)}
      SET DEFAULT lensdesk_only_store()`.execute(db);
  }

  // One store's quote list, newest first, and its head that a search reads
  // (src/search/head.ts): without it a store of a chain of 20 read 20 times
  // the rows of its page through quotes_created_at_idx.
  await sql`CREATE INDEX quotes_store_created_idx ON quotes (store_id, created_at DESC, id DESC)`
    .execute(db);

  // Cached reads of the stores (src/stores/) drop when either table is written.
  for (const table of ["stores", "user_stores"]) {
    await sql`
      CREATE TRIGGER ${sql.id(`${table}_written`)}
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION lensdesk_table_written()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table, column] of STAMPED) {
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN IF EXISTS ${sql.id(column)}`.execute(db);
  }
  await sql`DROP FUNCTION IF EXISTS lensdesk_only_store()`.execute(db);
  await sql`DROP TABLE IF EXISTS user_stores`.execute(db);
  await sql`DROP TABLE IF EXISTS stores`.execute(db);
}
