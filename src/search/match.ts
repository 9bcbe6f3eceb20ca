import { type Expression, type RawBuilder, sql } from "kysely";
import { containsPattern } from "../db/like.ts";

/*
 * The "contains" matching of every search in the app: the staff bar's global
 * search, the client list and the quote list. Each expression below is,
 * character for character, the expression of a gram index of migration 0025
 * (inside lensdesk_search_grams), over the texts that migration stores;
 * PostgreSQL uses an expression index only for the same expression, so
 * changing one here without a new index turns searches into scans
 * (tests/api/search_plan_test.ts checks the plans). They name the tables
 * `clients` and `quotes` unaliased: a list's head (head.ts) takes that name.
 */

/** Names and e-mail, lowercased (clients_search_text_grams_idx). */
export const clientText = sql<string>`clients.search_text`;

/** Both phones, digits only (clients_phone_digits_grams_idx). */
export const clientPhoneDigits = sql<string>`(clients.mobile_digits || ' ' || clients.home_digits)`;

/** Quote number, optician and the client's name, lowercased (quotes_search_text_grams_idx). */
export const quoteText = sql<string>`quotes.search_text`;

/** At most this many words of a query take part; the rest are ignored. */
export const MAX_SEARCH_WORDS = 6;

/** The words of a query: split on whitespace, lowercased, at most MAX_SEARCH_WORDS. */
export function searchWords(query: string): string[] {
  return query.trim().toLowerCase().split(/\s+/).filter(Boolean).slice(0, MAX_SEARCH_WORDS);
}

/** Phone search starts at three digits, so "5" does not match every phone number. */
export const MIN_PHONE_DIGITS = 3;

/**
 * The digits of a word that looks like (part of) a phone number: digits and
 * the marks people type in one (space, `+ - . ( )`), with 3+ digits. Any other
 * word, `maria1985` say, is not a phone: its digits would list every client
 * whose number holds `1985`.
 */
export function phoneDigits(word: string): string | null {
  if (!/^[\d\s+\-.()]+$/.test(word)) return null;
  const digits = word.replace(/\D/g, "");
  return digits.length >= MIN_PHONE_DIGITS ? digits : null;
}

/** The longest grams the indexes hold (migration 0018 keeps 3, 4 and 5 characters). */
const GRAM_MAX = 5;
/** The shortest: a shorter word has no gram and is matched by the LIKE alone. */
const GRAM_MIN = 3;
/** Grams looked up per word: enough to make the lookup rare, few enough to keep plans cheap. */
const GRAMS_PER_WORD = 8;

/**
 * The grams of a word that every text containing it holds: its substrings of
 * GRAM_MAX characters (or the word itself when shorter), counted in code
 * points as PostgreSQL's substr() counts characters. A long word keeps
 * GRAMS_PER_WORD of them, spread from its start to its end: any of them is
 * in every row the LIKE keeps, so fewer only narrow less. The indexed pieces
 * hold no space, so a word with one (searchWords never makes it) gets none.
 */
export function wordGrams(word: string): string[] {
  const chars = Array.from(word);
  if (chars.length < GRAM_MIN || word.includes(" ")) return [];
  const size = Math.min(chars.length, GRAM_MAX);
  const starts = chars.length - size + 1;
  const picked = starts <= GRAMS_PER_WORD
    ? Array.from({ length: starts }, (_, i) => i)
    : Array.from(
      { length: GRAMS_PER_WORD },
      (_, i) => Math.round(i * (starts - 1) / (GRAMS_PER_WORD - 1)),
    );
  return [...new Set(picked.map((start) => chars.slice(start, start + size).join("")))];
}

/**
 * `expr` contains `text`, in two parts: `exact`, the LIKE, and `narrow`, the
 * lookup in the gram index that every row passing the LIKE passes too (none
 * when the word has no grams). A query says `narrow and exact`: PostgreSQL
 * finds the rows by the index and tests only those with the LIKE. The
 * narrowing never stands inside an OR with a LIKE, where PostgreSQL would
 * compute each found row's grams again to test it.
 */
function contains(expr: Expression<string>, text: string) {
  const grams = wordGrams(text);
  return {
    narrow: grams.length
      ? sql<boolean>`lensdesk_search_grams(${expr}) @> array[${sql.join(grams)}]::text[]`
      : undefined,
    exact: sql<boolean>`${expr} like ${containsPattern(text)}`,
  };
}

type Containment = ReturnType<typeof contains>;

/**
 * How a search's rows are found: "grams" through the gram indexes (every
 * search does this first, see src/search/capped.ts), or "scan", by the LIKEs
 * alone, for the statement a search runs only once it has found more than
 * CAPPED_MATCHES rows. Its words are then common, and reading an index in the
 * list's order (or the table) and testing each row's text is cheaper than
 * testing its grams: those are computed for each row the index scan did not
 * find (47 us a row, against 0.6 for the LIKE). The staff bar's search for
 * "example", in every e-mail of a 100,000-client store: 2.8 s with the grams,
 * 136 ms without.
 */
export type Lookup = "grams" | "scan";

/** One contains as one condition: both parts, or the LIKE alone for a scan. */
const matched = ({ narrow, exact }: Containment, lookup: Lookup) =>
  narrow && lookup === "grams" ? sql<boolean>`(${narrow} and ${exact})` : exact;

/**
 * One of two contains: found through both indexes when both words have
 * grams (PostgreSQL ORs the two index scans), else by the LIKEs alone.
 * `(a or b) and (x or y)` keeps the same rows as `(a and x) or (b and y)`
 * because x implies a and y implies b. A scan takes the LIKEs alone.
 */
const eitherMatched = (a: Containment, b: Containment, lookup: Lookup) => {
  const exact = sql<boolean>`(${a.exact} or ${b.exact})`;
  return a.narrow && b.narrow && lookup === "grams"
    ? sql<boolean>`((${a.narrow} or ${b.narrow}) and ${exact})`
    : exact;
};

const allOf = (conditions: RawBuilder<boolean>[]) =>
  conditions.length ? sql<boolean>`(${sql.join(conditions, sql` and `)})` : sql<boolean>`true`;

/**
 * Every word must be in a name or the e-mail (case-insensitive, anywhere), or,
 * when it looks like a phone number (phoneDigits), in a phone number compared
 * digits-only, so "555 0102" and "(555) 010-2..." find each other.
 */
export function clientMatches(words: string[], lookup: Lookup = "grams"): RawBuilder<boolean> {
  return allOf(words.map((word) => {
    const digits = phoneDigits(word);
    return digits
      ? eitherMatched(contains(clientText, word), contains(clientPhoneDigits, digits), lookup)
      : matched(contains(clientText, word), lookup);
  }));
}

/** Every word must be in the quote number, the optician's name or the client's name. */
export function quoteMatches(words: string[], lookup: Lookup = "grams"): RawBuilder<boolean> {
  return allOf(words.map((word) => matched(contains(quoteText, word), lookup)));
}
