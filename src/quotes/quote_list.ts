// The quote management list (/quotes): its filters, searched pages and counts.
import { type DB, genericPlans } from "../db/database.ts";
import { type Lookup, quoteMatches, searchWords } from "../search/match.ts";
import { cappedPage, matchCount, QUOTE_LIST_CAPPED_MATCHES } from "../search/capped.ts";
import {
  type HeadCounts,
  headRows,
  readHead,
  readInListOrder,
  readInStoreOrder,
} from "../search/head.ts";
import { sql } from "kysely";
import { pageOf, totalFromPage } from "../db/paging.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import { isExpired } from "./rules.ts";

export interface QuoteListQuery {
  /** Matches quote number, client name or optician name. */
  q?: string;
  status?: QuoteStatus;
  /** Only quotes past their expiry that are not closed. */
  expired?: boolean;
  limit?: number;
  offset?: number;
  /** One store's quotes (else every store's). */
  storeId?: string;
}

/** The quotes a list query keeps, its words looked up as `lookup` says (match.ts). */
function listFilter(db: DB, query: QuoteListQuery, now: Date, lookup: Lookup) {
  let q = db.selectFrom("quotes");
  const words = searchWords(query.q ?? "");
  if (words.length) q = q.where(quoteMatches(words, lookup));
  if (query.status) q = q.where("quotes.status", "=", query.status);
  if (query.storeId) q = q.where("quotes.storeId", "=", query.storeId);
  if (query.expired) {
    q = q.where("quotes.status", "!=", "CLOSED").where("quotes.expiresAt", "<", now);
  }
  return q;
}

/** A quotes list row's own columns (the client's e-mail is joined to them). */
const LIST_COLUMNS = [
  "quotes.id",
  "quotes.quoteNumber",
  "quotes.clientId",
  "quotes.clientName",
  "quotes.opticianName",
  "quotes.status",
  "quotes.createdAt",
  "quotes.expiresAt",
  "quotes.footerMessage",
  "quotes.clientViewedAt",
  "quotes.storeId",
] as const;

/** The quotes list's page: 100 rows unless asked, at most 500. */
const quotePage = (query: QuoteListQuery) => pageOf(query, 100, 500);

/**
 * The page of rows of listQuotes, apart so tests can look at its plan. A
 * search runs it only with more matches than the capped statement orders,
 * so its words are scanned for, not looked up (match.ts).
 */
export function listQuotesQuery(db: DB, query: QuoteListQuery, now = new Date()) {
  const { limit, offset } = quotePage(query);
  return listFilter(db, query, now, "scan").innerJoin("clients", "clients.id", "quotes.clientId")
    .select(LIST_COLUMNS).select("clients.email as clientEmail")
    .orderBy("quotes.createdAt", "desc").orderBy("quotes.id", "desc")
    .limit(limit).offset(offset);
}

/**
 * How many quotes listQuotes matches in all. Without the page's join: every
 * quote has its client (client_id is NOT NULL and a foreign key), and at
 * 75,000 matches the join was half of the count's 80 ms.
 */
export function countQuotesQuery(db: DB, query: QuoteListQuery, now = new Date()) {
  // Every match is counted: found through the gram index, however many.
  return listFilter(db, query, now, "grams").select((eb) => eb.fn.countAll<string>().as("n"));
}

/**
 * A page of a searched quote list from the first QUOTE_LIST_CAPPED_MATCHES + 1 quotes
 * the words find, with how many that was (src/search/capped.ts): one plan
 * for every word. The client's e-mail is joined to the page's rows only.
 */
export function cappedListQuotesQuery(db: DB, query: QuoteListQuery, now = new Date()) {
  const { limit, offset } = quotePage(query);
  const found = listFilter(db, query, now, "grams").select(LIST_COLUMNS);
  const page = db.selectFrom(found.limit(QUOTE_LIST_CAPPED_MATCHES + 1).as("found"))
    .selectAll("found").select(matchCount.as("matches"))
    .orderBy("found.createdAt", "desc").orderBy("found.id", "desc")
    .limit(limit).offset(offset).as("page");
  return db.selectFrom(page).innerJoin("clients", "clients.id", "page.clientId")
    .selectAll("page").select("clients.email as clientEmail")
    .orderBy("page.createdAt", "desc").orderBy("page.id", "desc");
}

/** A page row of headListQuotesQuery: the page's columns, empty when nothing matched. */
type HeadRow = HeadCounts & Partial<ListRow>;
type ListRow = Awaited<ReturnType<ReturnType<typeof listQuotesQuery>["execute"]>>[number];

/**
 * A searched quote list's page from its head (src/search/head.ts): the first
 * quotes of the list, newest first with its filters, the words tested on
 * each. One row always comes back, carrying how many quotes were read and how
 * many matched; the page's quotes are on it and the rows after it.
 */
export function headListQuotesQuery(
  db: DB,
  query: QuoteListQuery,
  now = new Date(),
  rows = headRows(quotePage(query).offset + quotePage(query).limit),
) {
  const { limit, offset } = quotePage(query);
  const head = listFilter(db, { ...query, q: undefined }, now, "scan")
    .select([...LIST_COLUMNS, "quotes.searchText"])
    .orderBy("quotes.createdAt", "desc").orderBy("quotes.id", "desc")
    .limit(sql.lit(rows));
  // The head is named `quotes` where the words are tested: match.ts's
  // expressions name that table's columns, and the head has them.
  const matched = quoteMatches(searchWords(query.q ?? ""), "scan");
  return sql<HeadRow>`with head as (${head}),
    found as (select * from head as quotes where ${matched})
    select counts.scanned, counts.matches, page.*,
      (select clients.email from clients where clients.id = page.client_id) as client_email
    from (select (select count(*) from head) as scanned, (select count(*) from found) as matches)
      counts
    left join lateral (select * from found order by found.created_at desc, found.id desc
      limit ${limit} offset ${offset}) page on true
    order by page.created_at desc, page.id desc`;
}

/*
 * A search reads the list's head first (src/search/head.ts): a word in many
 * quotes fills its page there, and the total says "at least" what the head
 * found. Otherwise it runs the capped statement, and its page tells the total.
 * Otherwise the count runs only when the page cannot tell the total: a page
 * shorter than its limit is the end of the list.
 */
export async function listQuotes(db: DB, query: QuoteListQuery, now = new Date()) {
  const { limit, offset } = quotePage(query);
  const view = (rows: Awaited<ReturnType<ReturnType<typeof listQuotesQuery>["execute"]>>) =>
    rows.map((r) => ({
      id: r.id,
      quoteNumber: r.quoteNumber,
      clientId: r.clientId,
      clientName: r.clientName,
      clientEmail: r.clientEmail,
      opticianName: r.opticianName,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
      expiresAt: r.expiresAt?.toISOString() ?? null,
      footerMessage: r.footerMessage,
      clientViewedAt: r.clientViewedAt ? new Date(r.clientViewedAt).toISOString() : null,
      isExpired: isExpired(r, now),
      storeId: r.storeId,
    }));
  if (searchWords(query.q ?? "").length) {
    const { head, matches, complete, filled } = await readHead(
      offset + limit,
      async (rows) => {
        const read = (db: DB) => headListQuotesQuery(db, query, now, rows).execute(db);
        // One store's head through its own index (readInStoreOrder).
        return (query.storeId
          ? await readInStoreOrder(genericPlans(db), read)
          : await read(genericPlans(db))).rows;
      },
    );
    if (complete || filled) {
      const rows = head.filter((r): r is HeadRow & ListRow => r.id !== null);
      return { total: matches, atLeast: !complete, rows: view(rows) };
    }
    const capped = await cappedPage(
      (firstRowOnly) =>
        cappedListQuotesQuery(
          genericPlans(db),
          firstRowOnly ? { ...query, offset: 0, limit: 1 } : query,
          now,
        ).execute(),
      offset,
      QUOTE_LIST_CAPPED_MATCHES,
    );
    if (capped) return { total: capped.total, atLeast: false, rows: view(capped.rows) };
    // More than the cap: the ordinary statement reads the list in order.
    const rows = await readInListOrder(db, (db) => listQuotesQuery(db, query, now).execute());
    const total = totalFromPage(offset, limit, rows.length);
    // More than the cap matched; a page with rows says at least that many more.
    const atLeast = Math.max(QUOTE_LIST_CAPPED_MATCHES + 1, rows.length ? offset + rows.length : 0);
    return { total: total ?? atLeast, atLeast: total === undefined, rows: view(rows) };
  }
  const rows = await listQuotesQuery(db, query, now).execute();
  const total = totalFromPage(offset, limit, rows.length) ??
    Number((await countQuotesQuery(db, query, now).executeTakeFirstOrThrow()).n);
  return { total, atLeast: false, rows: view(rows) };
}
