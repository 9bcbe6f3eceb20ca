// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * Search by grams instead of trigrams. A trigram index (migration 0007) finds
 * "rossiberg" by intersecting the row lists of all its trigrams, and "ros",
 * "ber" and "erg" are each in one name of twenty: at 300,000 quotes the scan
 * decodes some 45,000 row pointers to return 39 rows, a cost that grows with
 * the store. These indexes hold, for each space-separated piece of the same
 * expressions, its distinct substrings of 3, 4 and 5 characters. A search word
 * of five characters or more looks up its 5-character grams, which are rare
 * (about one name in 400 holds "rossi"), a shorter word looks up itself.
 *
 * The grams only narrow the rows: the queries keep the LIKE of 0007 on the
 * same expression as the exact test (src/search/match.ts). A word never holds
 * a space, so a row whose text contains it holds it inside one piece, and
 * every substring of the word is a gram of that piece: the narrowing never
 * drops a row the LIKE would keep. substr() counts characters, as the
 * application's gram function counts code points.
 *
 * The function is IMMUTABLE (string_to_array, generate_series and substr are),
 * as an index expression must be. fastupdate is off for the reason 0007 gives.
 */
const INDEXES = [
  {
    name: "clients_search_text_grams_idx",
    table: "clients",
    expression: sql`lower(first_name || ' ' || coalesce(middle_name, '') || ' ' || last_name ||
      ' ' || coalesce(email, ''))`,
    trigram: "clients_search_text_trgm_idx",
  },
  {
    name: "clients_phone_digits_grams_idx",
    table: "clients",
    expression: sql`(regexp_replace(coalesce(mobile_phone, ''), '[^0-9]', '', 'g') || ' ' ||
      regexp_replace(coalesce(home_phone, ''), '[^0-9]', '', 'g'))`,
    trigram: "clients_phone_digits_trgm_idx",
  },
  {
    name: "quotes_search_text_grams_idx",
    table: "quotes",
    expression: sql`lower(quote_number || ' ' || optician_name || ' ' || client_name)`,
    trigram: "quotes_search_text_trgm_idx",
  },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION lensdesk_search_grams(text) RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT coalesce(array_agg(DISTINCT substr(piece, start, size)), '{}')
      FROM unnest(string_to_array($1, ' ')) AS piece,
        generate_series(3, 5) AS size,
        generate_series(1, length(piece) - size + 1) AS start
    $$`.execute(db);
  for (const index of INDEXES) {
    await sql`CREATE INDEX ${sql.id(index.name)} ON ${sql.table(index.table)} USING gin
      (lensdesk_search_grams(${index.expression})) WITH (fastupdate = off)`.execute(db);
    // The trigram index serves no query any more and would cost every write.
    await sql`DROP INDEX ${sql.id(index.trigram)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of INDEXES) {
    await sql`CREATE INDEX ${sql.id(index.trigram)} ON ${sql.table(index.table)} USING gin
      ((${index.expression}) gin_trgm_ops) WITH (fastupdate = off)`.execute(db);
    await sql`DROP INDEX ${sql.id(index.name)}`.execute(db);
  }
  await sql`DROP FUNCTION lensdesk_search_grams(text)`.execute(db);
}
