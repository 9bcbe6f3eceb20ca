// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * What a search for a common word needs. The capped searches
 * (src/search/capped.ts) serve words found in at most 1,000 rows with one
 * plan; a word in more (an optician's name, "example" of every e-mail) runs
 * the ordinary statement, planned for its words, and the planner must then
 * know how common the word is and have an order to read in:
 *
 * - Statistics of the three search expressions. The trigram indexes of 0007
 *   gave the planner statistics of these expressions; 0018 dropped them, and
 *   without any the planner guesses that a LIKE keeps one row in 200. A word
 *   on every fourth quote was then found through the gram index and sorted,
 *   75,000 rows for a page of 100; with the statistics the quotes are read in
 *   created_at order until the page is full.
 * - The clients in name order, as the client search lists them. Without it
 *   a search for "example" read and tested every client, computing each
 *   one's grams in the filter: 2.7-4 s at 100,000 clients; in this order it
 *   stops after a page, 3.5-12 ms.
 */
const EXPRESSIONS = [
  {
    name: "clients_search_text_stats",
    table: "clients",
    expression: sql`lower(first_name || ' ' || coalesce(middle_name, '') || ' ' || last_name ||
      ' ' || coalesce(email, ''))`,
  },
  {
    name: "clients_phone_digits_stats",
    table: "clients",
    expression: sql`(regexp_replace(coalesce(mobile_phone, ''), '[^0-9]', '', 'g') || ' ' ||
      regexp_replace(coalesce(home_phone, ''), '[^0-9]', '', 'g'))`,
  },
  {
    name: "quotes_search_text_stats",
    table: "quotes",
    expression: sql`lower(quote_number || ' ' || optician_name || ' ' || client_name)`,
  },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { name, table, expression } of EXPRESSIONS) {
    await sql`CREATE STATISTICS ${sql.id(name)} ON (${expression}) FROM ${sql.table(table)}`
      .execute(db);
  }
  await sql`CREATE INDEX clients_name_order_idx ON clients (last_name, first_name, id)`
    .execute(db);
  // The statistics are empty until the tables are analyzed (a server's
  // autovacuum does it later; an embedded store runs none).
  await sql`ANALYZE clients`.execute(db);
  await sql`ANALYZE quotes`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX clients_name_order_idx`.execute(db);
  for (const { name } of EXPRESSIONS) await sql`DROP STATISTICS ${sql.id(name)}`.execute(db);
}
