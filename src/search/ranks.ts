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

/** A test that `expr` starts with `value`. */
type StartsWith = (expr: RawBuilder<string>, value: string) => RawBuilder<boolean>;

/** The test as a LIKE: how a row's rank is computed. */
const startsWith: StartsWith = (expr, value) =>
  sql<boolean>`${expr} like ${startsWithPattern(value)}`;

/**
 * The test as a LIKE within a range of the expression's index: the same
 * rows, and a range that a plan made once for every word can read (a LIKE
 * with a parameter for its pattern is an index range only in a plan made for
 * that pattern, whose planning cost 1.5-3 ms per search). text_pattern_ops
 * compares bytes, and UTF-8's byte order is code points' order.
 */
export const startsWithInRange: StartsWith = (expr, value) => {
  const above = prefixUpperBound(value);
  return above === undefined
    ? sql<boolean>`(${expr} ~>=~ ${value} and ${startsWith(expr, value)})`
    : sql<boolean>`(${expr} ~>=~ ${value} and ${expr} ~<~ ${above} and ${startsWith(expr, value)})`;
};

/**
 * The least string above every string that starts with `prefix` (its last
 * character that has a next one, made that next one), or undefined when
 * none is (the prefix is empty or only U+10FFFF).
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const chars = Array.from(prefix);
  while (chars.length > 0) {
    const last = chars.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      // A surrogate is no character of UTF-8: the next one after them is U+E000.
      const next = last + 1 >= 0xd800 && last + 1 <= 0xdfff ? 0xe000 : last + 1;
      return chars.join("") + String.fromCodePoint(next);
    }
  }
  return undefined;
}

/** A string's characters in reverse order, as PostgreSQL's reverse() gives them. */
const reversed = (text: string) => Array.from(text).reverse().join("");

/**
 * The tests of a client's ranks 0, 1 and 2 for a query (`text`, lowercased
 * with single spaces, and its words): a client has the first rank one of
 * whose tests holds. A query that looks like a phone number tests the phones.
 * `starts` is how a prefix is tested: startsWithInRange for the lookups.
 */
export function clientLookups(
  text: string,
  words: string[],
  starts: StartsWith = startsWith,
): RawBuilder<boolean>[][] {
  const digits = phoneDigits(text);
  const phones = [MOBILE_DIGITS, HOME_DIGITS];
  return [
    [
      equals(FULL_NAME, text),
      equals(EMAIL, text),
      ...(digits ? phones.map((p) => equals(p, digits)) : []),
    ],
    [
      starts(FULL_NAME, text),
      starts(LAST_NAME, text),
      starts(EMAIL, text),
      ...(digits ? phones.map((p) => starts(p, digits)) : []),
    ],
    [starts(FIRST_NAME, words[0]), starts(LAST_NAME, words[0])],
  ];
}

/** The tests of a quote's ranks 0, 1 and 2, as clientLookups. */
export function quoteLookups(
  text: string,
  words: string[],
  starts: StartsWith = startsWith,
): RawBuilder<boolean>[][] {
  return [
    [equals(QUOTE_NUMBER, text)],
    [
      starts(QUOTE_NUMBER, text),
      // Ends with the text: its reverse starts with the reversed text.
      starts(QUOTE_NUMBER_REVERSED, reversed(text)),
    ],
    [starts(CLIENT_NAME, words[0]), starts(OPTICIAN, words[0])],
  ];
}

/** A row's rank as one expression: the first rank one of whose tests holds, else LAST_RANK. */
export function rankOf(lookups: RawBuilder<boolean>[][]): RawBuilder<number> {
  const whens = lookups.map((tests, rank) =>
    sql`when ${sql.join(tests, sql` or `)} then ${sql.lit(rank)}`
  );
  return sql<number>`case ${sql.join(whens, sql` `)} else ${sql.lit(LAST_RANK)} end`;
}
