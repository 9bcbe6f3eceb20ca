import { JOB_STATUS_LABELS } from "../orders/rules.ts";
import { type Compilable, type RawBuilder, sql } from "kysely";
import { type DB, genericPlans } from "../db/database.ts";
import { CAPPED_MATCHES, cappedPage, matchCount } from "./capped.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import { bestFirst, type Ranked } from "./best_first.ts";
import { headAnswer, type HeadCounts, headRows, readInListOrder } from "./head.ts";
import { clientLookups, quoteLookups, rankOf, startsWithInRange } from "./ranks.ts";
import { QUOTE_STATUS_LABELS } from "../quotes/status_labels.ts";
import { clientMatches, type Lookup, quoteMatches, searchWords } from "./match.ts";
import { SEARCH_MIN_CHARS, SEARCH_RESULTS_PER_TYPE, type SearchResult } from "./views.ts";

/** The columns of a client result. */
const CLIENT_COLUMNS = [
  "clients.id",
  "clients.firstName",
  "clients.lastName",
  "clients.email",
  "clients.mobilePhone",
  "clients.homePhone",
] as const;

interface ClientRow extends Ranked {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
  mobilePhone: string | null;
  homePhone: string | null;
}

/** The clients the words find, each with its rank, in no order. */
function clientResults(db: DB, text: string, words: string[], lookup: Lookup) {
  return db.selectFrom("clients")
    .select([...CLIENT_COLUMNS, rankOf(clientLookups(text, words)).as("rank")])
    .where(clientMatches(words, lookup));
}

/**
 * The clients part of the search, every match ranked and sorted: the
 * reference the staff bar's steps agree with (search_plan_test). The search
 * itself no longer runs it: ranking every match of a common word took 800 ms
 * at 1,000,000 clients (best_first.ts reads such a rank in order instead).
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

/**
 * The clients part from the head of the client list (head.ts), in name
 * order: how many clients it read and matched, and up to a page of each rank.
 */
export function headClientResultsQuery(db: DB, text: string, words: string[]) {
  const head = db.selectFrom("clients")
    .select([...CLIENT_COLUMNS, "clients.searchText", "clients.mobileDigits", "clients.homeDigits"])
    .orderBy("clients.lastName").orderBy("clients.firstName").orderBy("clients.id")
    .limit(sql.lit(headRows(SEARCH_RESULTS_PER_TYPE)));
  return headStatement<ClientRow>(
    head,
    "clients",
    rankOf(clientLookups(text, words)),
    clientMatches(words, "scan"),
    sql`last_name, first_name, id`,
  );
}

/**
 * Up to a page of clients of each of `ranks` (below the last), looked up by
 * the ranks' tests (ranks.ts, migrations 0025 and 0027), with the tests that
 * found more than CAPPED_MATCHES clients. Its prefixes are index ranges
 * whatever the words (startsWithInRange): one plan serves every search.
 */
export function clientRanksQuery(db: DB, text: string, words: string[], ranks: number[]) {
  return ranksStatement<ClientRow>(
    clientLookups(text, words, startsWithInRange),
    ranks,
    clientResults(db, text, words, "scan"),
    "clients",
    CLIENT_LIST_ORDER,
  );
}

/**
 * The first `need` clients of `rank` in name order, read in that order
 * (best_first.ts: a rank no lookup could give).
 */
export function clientRankInOrderQuery(
  db: DB,
  text: string,
  words: string[],
  rank: number,
  need: number,
) {
  const rows = clientResults(db, text, words, "scan");
  return rankInOrderStatement<ClientRow>(rows, "clients", CLIENT_LIST_ORDER, rank, need);
}

/** One type's statements, each for (db, text, words), and its rows as results: what findBest runs. */
interface TypeSearch<R> {
  head: (db: DB, text: string, words: string[]) => RawBuilder<HeadRow<R>>;
  capped: (db: DB, text: string, words: string[]) => { execute(): Promise<(R & Matches)[]> };
  ranks: (db: DB, text: string, words: string[], ranks: number[]) => RawBuilder<RanksRow<R>>;
  inOrder: (db: DB, text: string, words: string[], rank: number, need: number) => RawBuilder<R>;
  result: (row: R) => SearchResult;
}
type Matches = { matches: string | number };

/** One type's best matches (best_first.ts), each statement on the pool its plan needs. */
async function findBest<R extends Ranked>(
  db: DB,
  text: string,
  words: string[],
  statements: TypeSearch<R>,
) {
  const rows = await bestFirst<R>({
    head: () => runHead(db, statements.head(db, text, words)),
    capped: async () =>
      (await cappedPage(() => statements.capped(genericPlans(db), text, words).execute()))?.rows,
    ranks: (ranks) => runRanks(db, statements.ranks(db, text, words, ranks), ranks),
    // Read in the list's order whatever the planner guesses of the rank (head.ts).
    inOrder: (rank, need) =>
      readInListOrder(
        db,
        async (db) => (await statements.inOrder(db, text, words, rank, need).execute(db)).rows,
      ),
  });
  return rows.map((row) => ({ rank: Number(row.rank), result: statements.result(row) }));
}

/** The staff bar's clients part. */
const CLIENTS_PART: TypeSearch<ClientRow> = {
  head: headClientResultsQuery,
  capped: cappedClientResultsQuery,
  ranks: clientRanksQuery,
  inOrder: clientRankInOrderQuery,
  result: (r) => ({
    id: r.id,
    type: "client",
    title: `${r.firstName} ${r.lastName}`,
    subtitle: [r.email, r.mobilePhone || r.homePhone].filter(Boolean).join(" · "),
    href: `/clients?id=${r.id}`,
  }),
};

/** The columns of a quote result. */
const QUOTE_COLUMNS = [
  "quotes.id",
  "quotes.quoteNumber",
  "quotes.clientName",
  "quotes.opticianName",
  "quotes.status",
  "quotes.createdAt",
] as const;

interface QuoteRow extends Ranked {
  id: string;
  quoteNumber: string;
  clientName: string;
  opticianName: string;
  status: QuoteStatus;
  createdAt: Date;
}

/** The quotes the words find, each with its rank, in no order. */
function quoteResults(db: DB, text: string, words: string[], lookup: Lookup) {
  return db.selectFrom("quotes")
    .select([...QUOTE_COLUMNS, rankOf(quoteLookups(text, words)).as("rank")])
    .where(quoteMatches(words, lookup));
}

/** The quotes part of the search, every match ranked and sorted, as the clients part. */
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

/** The quotes part from the head of the quote list, newest first, as the clients part. */
export function headQuoteResultsQuery(db: DB, text: string, words: string[]) {
  const head = db.selectFrom("quotes").select([...QUOTE_COLUMNS, "quotes.searchText"])
    .orderBy("quotes.createdAt", "desc").orderBy("quotes.id", "desc")
    .limit(sql.lit(headRows(SEARCH_RESULTS_PER_TYPE)));
  return headStatement<QuoteRow>(
    head,
    "quotes",
    rankOf(quoteLookups(text, words)),
    quoteMatches(words, "scan"),
    sql`created_at desc, id desc`,
  );
}

/** Up to a page of quotes of each of `ranks`, as clientRanksQuery. */
export function quoteRanksQuery(db: DB, text: string, words: string[], ranks: number[]) {
  return ranksStatement<QuoteRow>(
    quoteLookups(text, words, startsWithInRange),
    ranks,
    quoteResults(db, text, words, "scan"),
    "quotes",
    QUOTE_LIST_ORDER,
  );
}

/** The first `need` quotes of `rank`, newest first, as clientRankInOrderQuery. */
export function quoteRankInOrderQuery(
  db: DB,
  text: string,
  words: string[],
  rank: number,
  need: number,
) {
  const rows = quoteResults(db, text, words, "scan");
  return rankInOrderStatement<QuoteRow>(rows, "quotes", QUOTE_LIST_ORDER, rank, need);
}

/** The staff bar's quotes part. */
const QUOTES_PART: TypeSearch<QuoteRow> = {
  head: headQuoteResultsQuery,
  capped: cappedQuoteResultsQuery,
  ranks: quoteRanksQuery,
  inOrder: quoteRankInOrderQuery,
  result: (r) => ({
    id: r.id,
    type: "quote",
    title: r.quoteNumber,
    subtitle: [r.clientName, QUOTE_STATUS_LABELS[r.status], r.opticianName.trim()]
      .filter(Boolean).join(" · "),
    href: `/quote/${r.id}`,
  }),
};

/*
 * The two statements both types share. Each always answers one row at
 * least, its counts, the matches on it and on the rows after it.
 */

/**
 * The head's statement: `head` (the list's first rows, in its order) named as
 * its table where the words are tested and the rank computed, since match.ts
 * and ranks.ts name that table's columns; up to a page of each rank, best first.
 */
function headStatement<R>(
  head: Compilable,
  table: "clients" | "quotes",
  rank: RawBuilder<number>,
  matched: RawBuilder<boolean>,
  order: RawBuilder<unknown>,
) {
  const t = sql.table(table);
  // Only the first RANKED_IN_HEAD matches are ranked: a rank costs a dozen
  // string tests, and a head of 2,000 matches ("ann" where the first names
  // in the list are Anns) took 13 ms to rank. They are the first matches of
  // the list, so each rank's rows among them are still that rank's first.
  return sql<HeadRow<R>>`with head as (${head}),
    found as (select ${t}.*, ${rank} as rank from (select * from head as ${t} where ${matched}
      order by ${order} limit ${sql.lit(RANKED_IN_HEAD)}) as ${t})
    select counts.scanned, counts.matches, best.* from
      (select (select count(*) from head) as scanned,
        (select count(*) from head as ${t} where ${matched}) as matches) counts
      left join lateral (select * from (select found.*,
          row_number() over (partition by found.rank order by ${order}) as place
        from found) ranked where place <= ${SEARCH_RESULTS_PER_TYPE}) best on true
    order by best.rank, ${order}`;
}

/** How many of a head's matches are ranked (headStatement). */
const RANKED_IN_HEAD = 200;

/** A head statement's rows: its counts, and the rows found. */
type HeadRow<R> = HeadCounts & Partial<R> & { rank: number | null };

/** A ranks statement's rows: the ranks whose lookup overflowed, and the rows found. */
type RanksRow<R> = { overflowed: number[] | null } & Partial<R> & { rank: number | null };

/** A list's order by the columns of its table: the same direction for each. */
interface ListOrder {
  columns: readonly string[];
  descending: boolean;
}

const CLIENT_LIST_ORDER: ListOrder = {
  columns: ["last_name", "first_name", "id"],
  descending: false,
};
const QUOTE_LIST_ORDER: ListOrder = { columns: ["created_at", "id"], descending: true };

/** `order` as an ORDER BY list of `table`'s columns. */
function orderOn(order: ListOrder, table: string) {
  const direction = order.descending ? sql` desc` : sql``;
  return sql.join(order.columns.map((c) => sql`${sql.ref(`${table}.${c}`)}${direction}`));
}

/**
 * The ranks' statement: the rows each test of `ranks` finds (at most
 * CAPPED_MATCHES + 1 each, so a test of a common prefix stops early, and
 * such a test's rank is said to overflow) with their place in the list, and
 * up to a page of each rank among them that match the words, best first.
 * A test's rows are read with the list's order columns (`order`, the id
 * among them), which its index carries (migration 0027): the candidates are
 * sorted from the index alone, and only rows from the first on are read from
 * the table, until a page of the rank is found ("977" at 1,000,000 clients:
 * 3,000 quote numbers end with it, and a handful are read). `rows` is every
 * match with its rank, named as its table.
 */
function ranksStatement<R>(
  lookups: RawBuilder<boolean>[][],
  ranks: number[],
  rows: Compilable,
  table: "clients" | "quotes",
  order: ListOrder,
) {
  const t = sql.table(table);
  const columns = sql.join(order.columns.map((c) => sql.ref(c)));
  const tableColumns = sql.join(order.columns.map((c) => sql.ref(`${table}.${c}`)));
  const capped = ranks.flatMap((rank) =>
    lookups[rank].map((test, i) =>
      sql`(select found.*, ${sql.lit(rank)} as rank, ${sql.lit(i)} as test
        from (select ${tableColumns} from ${t} where ${test}
          limit ${CAPPED_MATCHES + 1}) found)`
    )
  );
  // Each rank's candidates in the list's order, each read from the table in
  // turn (a lateral join: one row by its key at a time) until the rank holds
  // a page. A test's candidates may be of a better rank or miss a word: those
  // are read and passed over. An overflowing rank's are not read at all.
  const best = ranks.map((rank) =>
    sql`(select matched.* from (select distinct ${columns} from candidates
        where rank = ${sql.lit(rank)} and ${sql.lit(rank)} not in (select rank from over)
        order by ${orderOn(order, "candidates")}) c
      cross join lateral (select * from (${rows}) as ${t}
        where ${t}.id = c.id and ${t}.rank = ${sql.lit(rank)}) matched
      order by ${orderOn(order, "c")} limit ${SEARCH_RESULTS_PER_TYPE})`
  );
  return sql<RanksRow<R>>`
    with candidates as (${sql.join(capped, sql` union all `)}),
    over as (select distinct rank from candidates group by rank, test
      having count(*) > ${CAPPED_MATCHES})
    select (select array_agg(rank) from over) as overflowed, best.*
    from (select 1) one
    left join lateral (${sql.join(best, sql` union all `)}) best on true
    order by best.rank, ${orderOn(order, "best")}`;
}

/**
 * The first `need` of `rows` (every match with its rank, named as its
 * table) that are of `rank`, in the list's order: run with readInListOrder,
 * it reads the list's index in order and stops once it found them.
 */
function rankInOrderStatement<R>(
  rows: Compilable,
  table: "clients" | "quotes",
  order: ListOrder,
  rank: number,
  need: number,
) {
  const t = sql.table(table);
  return sql<R>`select * from (${rows}) as ${t} where ${t}.rank = ${rank}
    order by ${orderOn(order, table)} limit ${need}`;
}

/** The head statement's answer for bestFirst. */
async function runHead<R extends Ranked>(
  db: DB,
  statement: RawBuilder<HeadRow<R>>,
) {
  // Its plan is the same for every word: planned once (genericPlans).
  const { rows } = await statement.execute(genericPlans(db));
  const { matches, complete } = headAnswer(rows[0], SEARCH_RESULTS_PER_TYPE);
  // The whole list with more matches than were ranked is not yet the answer.
  const ranked = complete && matches <= RANKED_IN_HEAD;
  const best = rows.filter((r) => r.rank !== null).map(({ scanned: _, matches: _m, ...r }) =>
    r as unknown as R
  );
  return { complete: ranked, matches, best };
}

/** A ranks statement's answer for bestFirst: each rank's rows, but for the ranks that overflowed. */
async function runRanks<R extends Ranked>(
  db: DB,
  statement: RawBuilder<RanksRow<R>>,
  ranks: number[],
) {
  // Its plan is the same for every word (its prefixes are index ranges): planned once.
  const { rows } = await statement.execute(genericPlans(db));
  const overflowed = (rows[0].overflowed ?? []).map(Number);
  const found = rows.filter((r) => r.rank !== null).map(({ overflowed: _, ...r }) =>
    r as unknown as R
  );
  return new Map(
    ranks.filter((rank) => !overflowed.includes(rank))
      .map((rank) => [rank, found.filter((r) => Number(r.rank) === rank)]),
  );
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
    findBest(db, text, words, CLIENTS_PART),
    findBest(db, text, words, QUOTES_PART),
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
