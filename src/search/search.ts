import { JOB_STATUS_LABELS } from "../orders/rules.ts";
import { sql } from "kysely";
import { type DB, genericPlans } from "../db/database.ts";
import { CAPPED_MATCHES, cappedPage, matchCount } from "./capped.ts";
import { endsWithPattern, startsWithPattern } from "../db/like.ts";
import { QUOTE_STATUS_LABELS } from "../quotes/status_labels.ts";
import {
  clientMatches,
  clientPhoneDigits,
  clientText,
  type Lookup,
  phoneDigits,
  quoteMatches,
  searchWords,
} from "./match.ts";
import { SEARCH_MIN_CHARS, SEARCH_RESULTS_PER_TYPE, type SearchResult } from "./views.ts";

/*
 * How good a match is, lower first, on one scale for both types so the answer
 * can put the best matches first whatever their type:
 *   0  the whole query is the name, the e-mail, the phone or the quote number
 *   1  a name, the e-mail, the phone or the quote number starts with it (a
 *      quote number may also end with it: people type its last digits)
 *   2  a first name, last name, client name or optician starts with a word of it
 *   3  found anywhere (every word, as the list searches match)
 */

function clientRank(text: string, words: string[]) {
  const digits = phoneDigits(text);
  const first = startsWithPattern(words[0]);
  const prefix = startsWithPattern(text);
  const phoneExact = digits
    ? sql`or regexp_replace(coalesce(clients.mobile_phone, ''), '[^0-9]', '', 'g') = ${digits}
        or regexp_replace(coalesce(clients.home_phone, ''), '[^0-9]', '', 'g') = ${digits}`
    : sql``;
  const phonePrefix = digits
    ? sql`or ${clientPhoneDigits} like ${startsWithPattern(digits)}`
    : sql``;
  return sql<number>`case
    when lower(clients.first_name || ' ' || clients.last_name) = ${text}
      or lower(coalesce(clients.email, '')) = ${text} ${phoneExact} then 0
    when lower(clients.first_name || ' ' || clients.last_name) like ${prefix}
      or lower(clients.last_name) like ${prefix}
      or lower(coalesce(clients.email, '')) like ${prefix} ${phonePrefix} then 1
    when lower(clients.first_name) like ${first} or lower(clients.last_name) like ${first}
      or ${clientText} like ${"% " + first} then 2
    else 3 end`;
}

function quoteRank(text: string, words: string[]) {
  const first = startsWithPattern(words[0]);
  return sql<number>`case
    when lower(quotes.quote_number) = ${text} then 0
    when lower(quotes.quote_number) like ${startsWithPattern(text)}
      or lower(quotes.quote_number) like ${endsWithPattern(text)} then 1
    when lower(quotes.client_name) like ${first} or lower(quotes.optician_name) like ${first}
      or lower(quotes.client_name || ' ' || quotes.optician_name) like ${"% " + first} then 2
    else 3 end`;
}

/** The clients the words find, each with its rank, in no order. */
function clientResults(db: DB, text: string, words: string[], lookup: Lookup) {
  return db.selectFrom("clients")
    .select([
      "id",
      "firstName",
      "lastName",
      "email",
      "mobilePhone",
      "homePhone",
      clientRank(text, words).as("rank"),
    ])
    .where(clientMatches(words, lookup));
}

/**
 * The clients part of the search, best first (exported so tests can look at
 * its plan). It runs only with more matches than the capped statement
 * orders, so its words are scanned for, not looked up (match.ts).
 */
export function searchClientResultsQuery(db: DB, text: string, words: string[]) {
  return clientResults(db, text, words, "scan")
    .orderBy("rank").orderBy("lastName").orderBy("firstName").orderBy("id")
    .limit(SEARCH_RESULTS_PER_TYPE);
}

/** The clients part from the first CAPPED_MATCHES + 1 clients the words find (capped.ts). */
export function cappedClientResultsQuery(db: DB, text: string, words: string[]) {
  const found = clientResults(db, text, words, "grams").limit(CAPPED_MATCHES + 1).as("found");
  return db.selectFrom(found).selectAll("found").select(matchCount.as("matches"))
    .orderBy("found.rank").orderBy("found.lastName").orderBy("found.firstName")
    .orderBy("found.id").limit(SEARCH_RESULTS_PER_TYPE);
}

async function findClients(db: DB, text: string, words: string[]) {
  const capped = await cappedPage(() =>
    cappedClientResultsQuery(genericPlans(db), text, words).execute()
  );
  const rows = capped?.rows ?? await searchClientResultsQuery(db, text, words).execute();
  return rows.map((r) => ({
    rank: Number(r.rank),
    result: {
      id: r.id,
      type: "client",
      title: `${r.firstName} ${r.lastName}`,
      subtitle: [r.email, r.mobilePhone || r.homePhone].filter(Boolean).join(" · "),
      href: `/clients?id=${r.id}`,
    } satisfies SearchResult,
  }));
}

/** The quotes the words find, each with its rank, in no order. */
function quoteResults(db: DB, text: string, words: string[], lookup: Lookup) {
  return db.selectFrom("quotes")
    .select([
      "id",
      "quoteNumber",
      "clientName",
      "opticianName",
      "status",
      "createdAt",
      quoteRank(text, words).as("rank"),
    ])
    .where(quoteMatches(words, lookup));
}

/** The quotes part of the search, best first, as the clients part (exported for its plan). */
export function searchQuoteResultsQuery(db: DB, text: string, words: string[]) {
  return quoteResults(db, text, words, "scan")
    .orderBy("rank").orderBy("createdAt", "desc").orderBy("id", "desc")
    .limit(SEARCH_RESULTS_PER_TYPE);
}

/** The quotes part from the first CAPPED_MATCHES + 1 quotes the words find (capped.ts). */
export function cappedQuoteResultsQuery(db: DB, text: string, words: string[]) {
  const found = quoteResults(db, text, words, "grams").limit(CAPPED_MATCHES + 1).as("found");
  return db.selectFrom(found).selectAll("found").select(matchCount.as("matches"))
    .orderBy("found.rank").orderBy("found.createdAt", "desc").orderBy("found.id", "desc")
    .limit(SEARCH_RESULTS_PER_TYPE);
}

async function findQuotes(db: DB, text: string, words: string[]) {
  const capped = await cappedPage(() =>
    cappedQuoteResultsQuery(genericPlans(db), text, words).execute()
  );
  const rows = capped?.rows ?? await searchQuoteResultsQuery(db, text, words).execute();
  return rows.map((r) => ({
    rank: Number(r.rank),
    result: {
      id: r.id,
      type: "quote",
      title: r.quoteNumber,
      subtitle: [r.clientName, QUOTE_STATUS_LABELS[r.status], r.opticianName.trim()]
        .filter(Boolean).join(" · "),
      href: `/quote/${r.id}`,
    } satisfies SearchResult,
  }));
}

/**
 * The staff bar's search: clients by name, e-mail or phone digits and quotes
 * by number, client or optician, at most SEARCH_RESULTS_PER_TYPE of each,
 * best matches first. Fewer than SEARCH_MIN_CHARS characters give nothing.
 */
export async function globalSearch(db: DB, query: string): Promise<SearchResult[]> {
  const text = query.trim().toLowerCase().replace(/\s+/g, " ");
  if (text.length < SEARCH_MIN_CHARS) return [];
  const words = searchWords(text);
  const [clients, quotes, jobs] = await Promise.all([
    findClients(db, text, words),
    findQuotes(db, text, words),
    findJobs(db, text),
  ]);
  // A stable sort by rank alone: within a rank, clients come before quotes
  // and each type keeps its own order.
  return [...jobs, ...clients, ...quotes].sort((a, b) => a.rank - b.rank).map((r) => r.result);
}

/**
 * Jobs by number ("J-000123", "j-00012", "J000123"): only a query that looks
 * like one is looked up, by prefix on the unique index, so other searches
 * cost nothing more. An exact number ranks first.
 */
async function findJobs(db: DB, text: string) {
  const m = /^j-?(\d{1,6})$/.exec(text);
  if (!m) return [];
  const prefix = `J-${m[1]}`;
  const rows = await db.selectFrom("jobs")
    .innerJoin("orders", "orders.id", "jobs.orderId")
    .innerJoin("clients", "clients.id", "orders.clientId")
    .select([
      "jobs.jobNumber",
      "jobs.orderId",
      "jobs.status",
      "clients.firstName",
      "clients.lastName",
    ])
    .where("jobs.jobNumber", ">=", prefix).where("jobs.jobNumber", "<", `${prefix}:`)
    .orderBy("jobs.jobNumber").limit(SEARCH_RESULTS_PER_TYPE).execute();
  return rows.map((r) => ({
    rank: r.jobNumber.toLowerCase() === text || r.jobNumber === `J-${m[1].padStart(6, "0")}`
      ? 0
      : 1,
    result: {
      id: r.jobNumber,
      type: "job",
      title: r.jobNumber,
      subtitle: [`${r.firstName} ${r.lastName}`, JOB_STATUS_LABELS[r.status]].join(" · "),
      href: `/orders/${r.orderId}`,
    } satisfies SearchResult,
  }));
}
