import { type Expression, type RawBuilder, sql } from "kysely";
import { containsPattern } from "../db/like.ts";

/*
 * The "contains" matching of every search in the app: the staff bar's global
 * search, the client list and the quote list. Each expression below is,
 * character for character in meaning, the expression of a trigram index of
 * migration 0007; PostgreSQL uses an expression index only for the same
 * expression, so changing one here without a new index turns searches into
 * scans (tests/api/search_plan_test.ts checks the plans). They name the
 * tables `clients` and `quotes` unaliased.
 */

/** Names and e-mail, lowercased (clients_search_text_trgm_idx). */
export const clientText = sql<string>`lower(clients.first_name || ' ' ||
  coalesce(clients.middle_name, '') || ' ' || clients.last_name || ' ' ||
  coalesce(clients.email, ''))`;

/** Both phones, digits only (clients_phone_digits_trgm_idx). */
export const clientPhoneDigits = sql<string>`(regexp_replace(coalesce(clients.mobile_phone, ''),
  '[^0-9]', '', 'g') || ' ' || regexp_replace(coalesce(clients.home_phone, ''), '[^0-9]', '',
  'g'))`;

/** Quote number, optician and the client's name, lowercased (quotes_search_text_trgm_idx). */
export const quoteText = sql<string>`lower(quotes.quote_number || ' ' || quotes.optician_name ||
  ' ' || quotes.client_name)`;

/** At most this many words of a query take part; the rest are ignored. */
export const MAX_SEARCH_WORDS = 6;

/** The words of a query: split on whitespace, lowercased, at most MAX_SEARCH_WORDS. */
export function searchWords(query: string): string[] {
  return query.trim().toLowerCase().split(/\s+/).filter(Boolean).slice(0, MAX_SEARCH_WORDS);
}

/** Phone search starts at three digits, so "5" does not match every phone number. */
export const MIN_PHONE_DIGITS = 3;

const contains = (expr: Expression<string>, text: string) =>
  sql<boolean>`${expr} like ${containsPattern(text)}`;

const allOf = (conditions: RawBuilder<boolean>[]) =>
  conditions.length ? sql<boolean>`(${sql.join(conditions, sql` and `)})` : sql<boolean>`true`;

/**
 * Every word must be in a name or the e-mail (case-insensitive, anywhere), or,
 * when it holds 3+ digits, in a phone number compared digits-only, so
 * "555 0102" and "(555) 010-2..." find each other.
 */
export function clientMatches(words: string[]): RawBuilder<boolean> {
  return allOf(words.map((word) => {
    const digits = word.replace(/\D/g, "");
    return digits.length >= MIN_PHONE_DIGITS
      ? sql<boolean>`(${contains(clientText, word)} or ${contains(clientPhoneDigits, digits)})`
      : contains(clientText, word);
  }));
}

/** Every word must be in the quote number, the optician's name or the client's name. */
export function quoteMatches(words: string[]): RawBuilder<boolean> {
  return allOf(words.map((word) => contains(quoteText, word)));
}
