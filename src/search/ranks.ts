import { type RawBuilder, sql } from "kysely";
import { startsWithPattern } from "../db/like.ts";
import { phoneDigits } from "./match.ts";

/*
 * How good a staff bar match is, lower first, on one scale for both types so
 * the answer can put the best matches first whatever their type:
 *   0  the whole query is the name, the e-mail, a phone number or the quote number
 *   1  the name, the last name, the e-mail, a phone number or the quote number
 *      starts with it (a quote number may also end with it: people type its
 *      last digits)
 *   2  a first or last name, the client's name or the optician's starts with
 *      its first word
 *   3  found anywhere (every word, as the list searches match)
 *
 * Every test of ranks 0-2 is one of the `lookups` below, and each lookup's
 * expression is, character for character, the one of an index of migration
 * 0025: a rank that the head of the list holds too few of is looked up
 * through them (src/search/best_first.ts). They name the tables `clients`
 * and `quotes` unaliased.
 */

/** The last rank: found anywhere, not looked up by rank (best_first.ts reads it from the head). */
export const LAST_RANK = 3;

const FULL_NAME = sql<string>`lower(clients.first_name || ' ' || clients.last_name)`;
const FIRST_NAME = sql<string>`lower(clients.first_name)`;
const LAST_NAME = sql<string>`lower(clients.last_name)`;
const EMAIL = sql<string>`lower(coalesce(clients.email, ''))`;
const MOBILE_DIGITS = sql<string>`clients.mobile_digits`;
const HOME_DIGITS = sql<string>`clients.home_digits`;
const QUOTE_NUMBER = sql<string>`lower(quotes.quote_number)`;
const QUOTE_NUMBER_REVERSED = sql<string>`reverse(lower(quotes.quote_number))`;
const CLIENT_NAME = sql<string>`lower(quotes.client_name)`;
const OPTICIAN = sql<string>`lower(quotes.optician_name)`;

const equals = (expr: RawBuilder<string>, value: string) => sql<boolean>`${expr} = ${value}`;
const startsWith = (expr: RawBuilder<string>, value: string) =>
  sql<boolean>`${expr} like ${startsWithPattern(value)}`;

/** A string's characters in reverse order, as PostgreSQL's reverse() gives them. */
const reversed = (text: string) => Array.from(text).reverse().join("");

/**
 * The tests of a client's ranks 0, 1 and 2 for a query (`text`, lowercased
 * with single spaces, and its words): a client has the first rank one of
 * whose tests holds. A query that looks like a phone number tests the phones.
 */
export function clientLookups(text: string, words: string[]): RawBuilder<boolean>[][] {
  const digits = phoneDigits(text);
  const phones = [MOBILE_DIGITS, HOME_DIGITS];
  return [
    [
      equals(FULL_NAME, text),
      equals(EMAIL, text),
      ...(digits ? phones.map((p) => equals(p, digits)) : []),
    ],
    [
      startsWith(FULL_NAME, text),
      startsWith(LAST_NAME, text),
      startsWith(EMAIL, text),
      ...(digits ? phones.map((p) => startsWith(p, digits)) : []),
    ],
    [startsWith(FIRST_NAME, words[0]), startsWith(LAST_NAME, words[0])],
  ];
}

/** The tests of a quote's ranks 0, 1 and 2, as clientLookups. */
export function quoteLookups(text: string, words: string[]): RawBuilder<boolean>[][] {
  return [
    [equals(QUOTE_NUMBER, text)],
    [
      startsWith(QUOTE_NUMBER, text),
      // Ends with the text: its reverse starts with the reversed text.
      startsWith(QUOTE_NUMBER_REVERSED, reversed(text)),
    ],
    [startsWith(CLIENT_NAME, words[0]), startsWith(OPTICIAN, words[0])],
  ];
}

/** A row's rank as one expression: the first rank one of whose tests holds, else LAST_RANK. */
export function rankOf(lookups: RawBuilder<boolean>[][]): RawBuilder<number> {
  const whens = lookups.map((tests, rank) =>
    sql`when ${sql.join(tests, sql` or `)} then ${sql.lit(rank)}`
  );
  return sql<number>`case ${sql.join(whens, sql` `)} else ${sql.lit(LAST_RANK)} end`;
}
