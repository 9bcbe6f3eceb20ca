// Every search the staff can run, timed one request at a time on the
// 1,000-client store and on the full one, taking turns.
import { emailNameOf, lastNameOf, lastNameSyllable, mobileDigitsOf } from "./store.ts";
import { CLIENT_PAGE_SIZE } from "../src/clients/views.ts";
import { QUOTE_PAGE_SIZE } from "../components/quote_manager/queries.ts";
import { runWrk, type WrkResult } from "./wrk.ts";
import { SEARCH_ROUNDS, SEARCH_SECONDS, SEARCH_WINDOWS_AT_ONCE, SEARCHED } from "./mode.ts";
import { expectOk, headers } from "./session.ts";
import { searchLimitMs } from "./targets.ts";

/*
 * Each search kind with a word of every family. The words come from the
 * generator (bench/store.ts) and client SEARCHED, so each is found, as
 * rarely or as often, in both stores: a rare word is in a few rows of either,
 * a common one in a share of all rows that stays the same as the store grows
 * (that is what makes the common words hard).
 */
const SEARCH_KINDS = [
  /** The staff bar (islands/SearchBox.tsx). */
  { name: "staff bar", path: (q: string) => `/api/search?q=${q}` },
  /** The quick client search: the API's own page. */
  { name: "client search", path: (q: string) => `/api/clients/search?q=${q}` },
  /** The /clients page's list as its search box asks for it (components/client_manager). */
  {
    name: "client list",
    path: (q: string) => `/api/clients/search?q=${q}&limit=${CLIENT_PAGE_SIZE}&offset=0`,
  },
  /** The /quotes page's list (components/quote_manager) of every store: its page with X-Total-Count. */
  {
    name: "quote list",
    path: (q: string) => `/api/quotes?q=${q}&limit=${QUOTE_PAGE_SIZE}&offset=0&store=all`,
  },
  /** The same list of one store of the chain's STORES: the device's (the owner's first). */
  {
    name: "quote list, one store",
    path: (q: string) => `/api/quotes?q=${q}&limit=${QUOTE_PAGE_SIZE}&offset=0`,
  },
];
const lastName = lastNameOf(SEARCHED).toLowerCase();
const phone = mobileDigitsOf(SEARCHED);
const emailName = emailNameOf(SEARCHED);
const SEARCH_FAMILIES = [
  /** Inside one last name of 8,000 (with its first and last letters off). */
  { family: "rare word", word: lastName.slice(1, -1) },
  /** Every e-mail is @example.com. */
  { family: "common: example", word: "example" },
  /** A last name's last syllable: one name in 20. */
  { family: "common: syllable", word: lastNameSyllable(SEARCHED) },
  { family: "phone, 3 digits", word: phone.slice(0, 3) },
  { family: "phone, 4 digits", word: phone.slice(-4) },
  { family: "phone, whole", word: phone },
  { family: "e-mail fragment", word: `${emailName.slice(-7)}@exa` },
  /** A quote number both stores have (numbers start at Q-001001, 3 per client). */
  { family: "quote number", word: "Q-002345" },
  /** A name and digits in one word, as in "maria1985": the e-mail's name. */
  { family: "letters + digits", word: emailName },
];
interface Search {
  /** "<kind>, <family>": the key of its timings. */
  name: string;
  kind: string;
  family: string;
  word: string;
  path: string;
}
export const SEARCHES: Search[] = SEARCH_KINDS.flatMap((k) =>
  SEARCH_FAMILIES.map((f) => ({
    name: `${k.name}, ${f.family}`,
    kind: k.name,
    family: f.family,
    word: f.word,
    path: k.path(encodeURIComponent(f.word)),
  }))
);

export interface SearchTiming {
  /** Medians over the rounds. */
  p50ms: number;
  p95ms: number;
  rounds: { p50ms: number; p95ms: number }[];
  /** Failed requests over all rounds. */
  errors: number;
}

/** A search's figures at both sizes, as the results file keeps them. */
export interface SearchFigures extends Search {
  small: SearchTiming;
  large: SearchTiming;
  /** p95 at full size ÷ p95 at 1,000 clients. */
  growth: number;
  /** Its target: the p95 at full size at most this (see TARGETS). */
  limitMs: number;
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * One request at a time: latency without queueing. Each search is timed in
 * SEARCH_ROUNDS rounds on each store, the searches and the stores taking
 * turns (which store goes first alternates by round), and its p50 and p95
 * are the medians of its rounds': a burst of someone else's work during one
 * window moves that window's p95 by half.
 */
export async function timeSearches(
  bases: { small: string; large: string },
  huge: boolean,
): Promise<SearchFigures[]> {
  // A quick run has one store and one server for both sizes (see fill.ts):
  // each window then times that server once and counts for both, instead of
  // timing the same searches on the same server twice.
  const oneServer = bases.small === bases.large;
  // Warm-up: the first requests compile code paths and fill caches.
  for (const base of new Set(Object.values(bases))) {
    for (const s of SEARCHES) for (let i = 0; i < 5; i++) await expectOk(base, s.path);
  }
  const rounds = {
    small: new Map<string, WrkResult[]>(SEARCHES.map((s) => [s.name, []])),
    large: new Map<string, WrkResult[]>(SEARCHES.map((s) => [s.name, []])),
  };
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    const order = round % 2 ? (["large", "small"] as const) : (["small", "large"] as const);
    const windows = SEARCHES.flatMap((s) =>
      (oneServer ? [order[0]] : order).map((size) => ({ s, size }))
    );
    // SEARCH_WINDOWS_AT_ONCE at a time (one, but for --quick): each window
    // then shares the machine with the others, which --quick may afford.
    for (let at = 0; at < windows.length; at += SEARCH_WINDOWS_AT_ONCE) {
      await Promise.all(
        windows.slice(at, at + SEARCH_WINDOWS_AT_ONCE).map(async ({ s, size }) => {
          const result = await runWrk(bases[size] + s.path, {
            connections: 1,
            threads: 1,
            seconds: SEARCH_SECONDS,
            headers,
          });
          for (const into of oneServer ? order : [size]) rounds[into].get(s.name)!.push(result);
        }),
      );
    }
  }
  const summary = (results: WrkResult[]): SearchTiming => ({
    p50ms: median(results.map((r) => r.p50ms)),
    p95ms: median(results.map((r) => r.p95ms)),
    rounds: results.map((r) => ({ p50ms: r.p50ms, p95ms: r.p95ms })),
    errors: results.reduce((n, r) => n + r.errors, 0),
  });
  return SEARCHES.map((s) => {
    const small = summary(rounds.small.get(s.name)!);
    const large = summary(rounds.large.get(s.name)!);
    return {
      ...s,
      small,
      large,
      growth: large.p95ms / small.p95ms,
      limitMs: searchLimitMs(huge, small.p95ms),
    };
  });
}
