// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * The staff bar's rank lookups read their index alone.
 *
 * A rank the head of a list holds too few of is looked up through the
 * prefix indexes of 0025, and only its first matches in the list's order are
 * wanted. The indexes held the tested expression only, so every row a test
 * found was read from the table to learn where it stands in the list: "977"
 * at 1,000,000 clients is 1,250 mobile numbers that start with it and 3,000
 * quote numbers that end with it, each read twice (its id, then its row).
 * Each index now also carries the list's order (clients: last name, first
 * name, id; quotes: newest first, id) and the columns its expression is made
 * of (an index-only scan must be able to test the expression again from what
 * the index holds), so the candidates are sorted from the index alone and
 * only the first few rows are read from the table (src/search/search.ts,
 * ranksStatement). The tested expressions are unchanged: each is still,
 * character for character, the one src/search/ranks.ts writes.
 */
const CLIENT_ORDER = sql`last_name, first_name, id`;
const QUOTE_ORDER = sql`created_at, id`;

const INDEXES = [
  ["clients_full_name_prefix_idx", "clients", sql`lower(first_name || ' ' || last_name)`, sql``],
  ["clients_first_name_prefix_idx", "clients", sql`lower(first_name)`, sql``],
  ["clients_last_name_prefix_idx", "clients", sql`lower(last_name)`, sql``],
  ["clients_email_prefix_idx", "clients", sql`lower(coalesce(email, ''))`, sql`, email`],
  ["clients_mobile_digits_prefix_idx", "clients", sql`mobile_digits`, sql``],
  ["clients_home_digits_prefix_idx", "clients", sql`home_digits`, sql``],
  ["quotes_number_prefix_idx", "quotes", sql`lower(quote_number)`, sql`, quote_number`],
  ["quotes_number_suffix_idx", "quotes", sql`reverse(lower(quote_number))`, sql`, quote_number`],
  ["quotes_client_name_prefix_idx", "quotes", sql`lower(client_name)`, sql`, client_name`],
  ["quotes_optician_prefix_idx", "quotes", sql`lower(optician_name)`, sql`, optician_name`],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, expression, made] of INDEXES) {
    const order = table === "clients" ? CLIENT_ORDER : QUOTE_ORDER;
    await sql`DROP INDEX ${sql.id(name)}`.execute(db);
    await sql`CREATE INDEX ${sql.id(name)} ON ${sql.table(table)}
      ((${expression}) text_pattern_ops) INCLUDE (${order}${made})`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, expression] of INDEXES) {
    await sql`DROP INDEX ${sql.id(name)}`.execute(db);
    await sql`CREATE INDEX ${sql.id(name)} ON ${sql.table(table)}
      ((${expression}) text_pattern_ops)`.execute(db);
  }
}
