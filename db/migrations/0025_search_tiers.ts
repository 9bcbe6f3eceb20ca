// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * Searches that cost the same at any size of store.
 *
 * 1. The searched texts are stored. Every search now first reads the first
 *    rows of its list and tests their text (src/search/head.ts), so the
 *    text is read per row instead of being made: the phones' digits
 *    (regexp_replace, about 5 us a phone) made a head of 2,000 clients cost
 *    20 ms. The gram indexes of 0018 are built again on the stored columns,
 *    and their statistics are the columns' own (0019's objects go; the
 *    phones' pair keeps one, being an expression).
 *    The client list's order (0019's index) carries them, so a head of it
 *    reads the index alone.
 * 2. The staff bar's best matches are looked up by rank. It lists exact
 *    matches first, then names, e-mails, phone numbers and quote numbers that
 *    start with the query, then names that start with its first word
 *    (src/search/ranks.ts). A rank that a common word's head holds too few
 *    of is looked up here: each index answers "equal to" and "starts with"
 *    (text_pattern_ops compares bytes, so LIKE 'x%' is a range of it
 *    whatever the database's collation), and a quote number that ends with
 *    the query is one whose reverse starts with the reversed query. Each
 *    expression is, character for character, the one src/search/ranks.ts
 *    writes: PostgreSQL uses an expression index only for the same
 *    expression.
 */
const PREFIX_INDEXES = [
  ["clients_full_name_prefix_idx", "clients", sql`lower(first_name || ' ' || last_name)`],
  ["clients_first_name_prefix_idx", "clients", sql`lower(first_name)`],
  ["clients_last_name_prefix_idx", "clients", sql`lower(last_name)`],
  ["clients_email_prefix_idx", "clients", sql`lower(coalesce(email, ''))`],
  ["clients_mobile_digits_prefix_idx", "clients", sql`mobile_digits`],
  ["clients_home_digits_prefix_idx", "clients", sql`home_digits`],
  ["quotes_number_prefix_idx", "quotes", sql`lower(quote_number)`],
  ["quotes_number_suffix_idx", "quotes", sql`reverse(lower(quote_number))`],
  ["quotes_client_name_prefix_idx", "quotes", sql`lower(client_name)`],
  ["quotes_optician_prefix_idx", "quotes", sql`lower(optician_name)`],
] as const;

const GRAM_INDEXES = [
  ["clients_search_text_grams_idx", "clients", sql`search_text`],
  ["clients_phone_digits_grams_idx", "clients", sql`(mobile_digits || ' ' || home_digits)`],
  ["quotes_search_text_grams_idx", "quotes", sql`search_text`],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name] of GRAM_INDEXES) await sql`DROP INDEX ${sql.id(name)}`.execute(db);
  for (const name of ["clients_search_text_stats", "clients_phone_digits_stats"]) {
    await sql`DROP STATISTICS ${sql.id(name)}`.execute(db);
  }
  await sql`DROP STATISTICS quotes_search_text_stats`.execute(db);
  await sql`ALTER TABLE clients
    ADD COLUMN search_text text GENERATED ALWAYS AS (lower(first_name || ' ' ||
      coalesce(middle_name, '') || ' ' || last_name || ' ' || coalesce(email, ''))) STORED,
    ADD COLUMN mobile_digits text GENERATED ALWAYS AS
      (regexp_replace(coalesce(mobile_phone, ''), '[^0-9]', '', 'g')) STORED,
    ADD COLUMN home_digits text GENERATED ALWAYS AS
      (regexp_replace(coalesce(home_phone, ''), '[^0-9]', '', 'g')) STORED`.execute(db);
  // client_name is set by a BEFORE trigger (0007); stored columns are computed after those.
  await sql`ALTER TABLE quotes ADD COLUMN search_text text GENERATED ALWAYS AS
    (lower(quote_number || ' ' || optician_name || ' ' || client_name)) STORED`.execute(db);
  for (const [name, table, expression] of GRAM_INDEXES) {
    await sql`CREATE INDEX ${sql.id(name)} ON ${sql.table(table)} USING gin
      (lensdesk_search_grams(${expression})) WITH (fastupdate = off)`.execute(db);
  }
  await sql`CREATE STATISTICS clients_phone_digits_stats
    ON ((mobile_digits || ' ' || home_digits)) FROM clients`.execute(db);
  for (const [name, table, expression] of PREFIX_INDEXES) {
    await sql`CREATE INDEX ${sql.id(name)} ON ${sql.table(table)}
      ((${expression}) text_pattern_ops)`.execute(db);
  }
  // The client list's head reads clients in name order: with what its
  // searches test and show in the index, it reads the index alone (once the
  // table is vacuumed) instead of a table page per client.
  await sql`DROP INDEX clients_name_order_idx`.execute(db);
  await sql`CREATE INDEX clients_name_order_idx ON clients (last_name, first_name, id)
    INCLUDE (search_text, mobile_digits, home_digits, email, mobile_phone, home_phone)`
    .execute(db);
  // An embedded store runs no autovacuum: without this its plans would have
  // no statistics of the new columns.
  await sql`ANALYZE clients`.execute(db);
  await sql`ANALYZE quotes`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX clients_name_order_idx`.execute(db);
  await sql`CREATE INDEX clients_name_order_idx ON clients (last_name, first_name, id)`.execute(db);
  for (const [name] of PREFIX_INDEXES) await sql`DROP INDEX ${sql.id(name)}`.execute(db);
  await sql`DROP STATISTICS clients_phone_digits_stats`.execute(db);
  for (const [name] of GRAM_INDEXES) await sql`DROP INDEX ${sql.id(name)}`.execute(db);
  await sql`ALTER TABLE clients DROP COLUMN search_text, DROP COLUMN mobile_digits,
    DROP COLUMN home_digits`.execute(db);
  await sql`ALTER TABLE quotes DROP COLUMN search_text`.execute(db);
  const clientText = sql`lower(first_name || ' ' || coalesce(middle_name, '') || ' ' ||
    last_name || ' ' || coalesce(email, ''))`;
  const phoneDigits = sql`(regexp_replace(coalesce(mobile_phone, ''), '[^0-9]', '', 'g') || ' ' ||
    regexp_replace(coalesce(home_phone, ''), '[^0-9]', '', 'g'))`;
  const quoteText = sql`lower(quote_number || ' ' || optician_name || ' ' || client_name)`;
  const before = [
    ["clients_search_text_grams_idx", "clients_search_text_stats", "clients", clientText],
    ["clients_phone_digits_grams_idx", "clients_phone_digits_stats", "clients", phoneDigits],
    ["quotes_search_text_grams_idx", "quotes_search_text_stats", "quotes", quoteText],
  ] as const;
  for (const [index, stats, table, expression] of before) {
    await sql`CREATE INDEX ${sql.id(index)} ON ${sql.table(table)} USING gin
      (lensdesk_search_grams(${expression})) WITH (fastupdate = off)`.execute(db);
    await sql`CREATE STATISTICS ${sql.id(stats)} ON (${expression}) FROM ${sql.table(table)}`
      .execute(db);
  }
}
