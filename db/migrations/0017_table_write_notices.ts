// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * Some reads are kept between requests (the store settings every page shows,
 * the dashboard, the first page of clients, a quote) and dropped when a table they read
 * is written. A process sees its own writes; these triggers tell every other
 * process on the same server (a replica, a CLI, a restore) with a
 * notification on the channel 'lensdesk_table_writes', sent at commit, once
 * per table and transaction (PostgreSQL folds duplicates). The payload is the
 * table's name and the writer's application_name, which is unique to each
 * pool, so a process can skip the notices of its own writes.
 */
const TABLES = [
  "settings",
  "heard_how_options",
  "clients",
  "client_measurements",
  "quotes",
  "quote_options",
  "option_items",
  "option_frame_measurements",
  "quote_carry_overs",
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION lensdesk_table_written() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('lensdesk_table_writes',
        TG_TABLE_NAME || ' ' || current_setting('application_name'));
      RETURN NULL;
    END $$`.execute(db);
  for (const table of TABLES) {
    await sql`
      CREATE TRIGGER ${sql.id(`${table}_written`)}
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION lensdesk_table_written()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await sql`DROP TRIGGER ${sql.id(`${table}_written`)} ON ${sql.table(table)}`.execute(db);
  }
  await sql`DROP FUNCTION lensdesk_table_written()`.execute(db);
}
