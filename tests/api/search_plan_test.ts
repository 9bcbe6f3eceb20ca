// One engine: the planner's choices, checked on the server, the engine a store runs
// (search_test runs the same searches on both engines).
// Every search that matches "contains" is served by a gram index: the plans of the real
// queries are checked on a store with enough clients and quotes that the planner prefers the
// index by its own costs (no enable_seqscan = off), both before statistics exist (as on an
// embedded store, whose PGlite runs no autovacuum) and after ANALYZE.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { type Compilable, type RawBuilder, sql } from "kysely";
import { type DatabaseHandle, openDatabase } from "../../src/db/database.ts";
import { listMigrationNames, migrateTo, migrateToLatest } from "../../src/db/migrate.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { genericPlanOf, planOf } from "../helpers/explain.ts";
import {
  cappedSearchClientsQuery,
  headSearchClientsQuery,
  searchClients,
  searchClientsQuery,
} from "../../src/clients/clients.ts";
import {
  cappedListQuotesQuery,
  countQuotesQuery,
  headListQuotesQuery,
  listQuotes,
  listQuotesQuery,
} from "../../src/quotes/quote_list.ts";
import {
  cappedClientResultsQuery,
  cappedQuoteResultsQuery,
  clientRankInOrderQuery,
  clientRanksQuery,
  globalSearch,
  headClientResultsQuery,
  headQuoteResultsQuery,
  quoteRankInOrderQuery,
  quoteRanksQuery,
  searchClientResultsQuery,
  searchQuoteResultsQuery,
} from "../../src/search/search.ts";
import { CAPPED_MATCHES, cappedTotal, QUOTE_LIST_CAPPED_MATCHES } from "../../src/search/capped.ts";
import { readInListOrder } from "../../src/search/head.ts";
import { LAST_RANK } from "../../src/search/ranks.ts";
import { genericPlans } from "../../src/db/database.ts";
import {
  clientMatches,
  clientPhoneDigits,
  clientText,
  quoteMatches,
  quoteText,
  searchWords,
} from "../../src/search/match.ts";
import { containsPattern } from "../../src/db/like.ts";

const CLIENTS = 10_000;
const QUOTES_PER_CLIENT = 3;

let testDb: TestDatabase;
let handle: DatabaseHandle;

/** Clients g = from … to, named of syllables, each with QUOTES_PER_CLIENT quotes. */
async function insertClients(db: DatabaseHandle["db"], from: number, to: number) {
  // Names made of syllables, so names and e-mails vary the way real ones do
  // (one word shared by every row would make every trigram common).
  await sql`insert into clients (first_name, last_name, email, mobile_phone, home_phone, created_at)
    select (array['Ann','Ben','Carla','Dana','Eve','Farid','Gus','Hana','Ivo','June'])[1 + g % 10],
      initcap(s1 || s2 || s3), s1 || s3 || g || '@example.com',
      '(555) ' || lpad((g % 1000)::text, 3, '0') || '-' || lpad(g::text, 5, '0'),
      case when g % 3 = 0 then '555.200.' || lpad(g::text, 5, '0') end,
      now() - make_interval(mins => g)
    from generate_series(${from}::int, ${to}::int) g, lateral (select
      (array['ab','bel','cor','dun','ed','fal','gar','hol','ing','jor','kal','lin','mor','nor',
        'ost','pal','quin','ros','sal','tor'])[1 + g % 20] s1,
      (array['va','wen','xi','yor','zu','ba','ce','di','fo','gu','he','ja','ko','lu','me','ni',
        'po','ra','si','te'])[1 + (g / 20) % 20] s2,
      (array['son','berg','ley','man','ton','well','wood','ford','stein','ski','ez','ova','er',
        'ini','oux','ard','an','ow','ic','ay'])[1 + (g / 400) % 20] s3) syllables`.execute(db);
  await sql`insert into quotes (client_id, optician_name, status, created_at)
    select c.id, (array['Dr. Ortiz','Sam Lee','Kim Novak','Dr. Weiss'])[1 + n],
      'ACTIVE', c.created_at + make_interval(secs => n)
    from clients c, generate_series(1, ${QUOTES_PER_CLIENT}) n
    where c.mobile_phone like '(555) %'
      and not exists (select 1 from quotes q where q.client_id = c.id)`.execute(db);
}

const GRAM_INDEXES_OF_0018 = [
  "clients_search_text_grams_idx",
  "clients_phone_digits_grams_idx",
  "quotes_search_text_grams_idx",
];

/** Clients made before 0007, so its copy of their names to their quotes is walked. */
const CLIENTS_BEFORE_0007 = 500;

before(async () => {
  testDb = await createTestDatabase();
  handle = await openDatabase(testDb.url, "/nonexistent");
  // The store exists before the search migrations, as an upgraded one does:
  // the client names copied to quotes (0007) and every search index and
  // stored text built over its rows (0025, which builds again what 0018
  // built, so most rows come after 0018: building both over them doubled
  // this file's time on PGlite).
  const names = await listMigrationNames();
  await migrateTo(handle.db, names[names.indexOf("0007_search_and_uploads") - 1]);
  const db = handle.db;
  await insertClients(db, 1, CLIENTS_BEFORE_0007);
  // Texts whose characters and pieces are not plain ASCII words: the grams
  // must be counted in characters, pieces split at spaces only.
  await sql`insert into clients (first_name, middle_name, last_name, email, mobile_phone)
    values ('Zoë', 'Ünal', 'Straße', 'zoë.straße@example.com', '+44 20 7946 0958'),
      ('Gem', null, '💎Gemstone💎', null, null),
      ('Tab', 'X' || chr(9) || 'Y', 'Nbsp' || chr(160) || 'Name', 'a_b%c\\d@example.com', null),
      ('Ian', null, 'İpek', 'ipek@example.com', '555-0000'),
      -- Past the head of the name order, and the only client whose first name
      -- starts with a word every client's e-mail holds: its rank is looked up.
      ('Example', null, 'Zulu', null, null)`.execute(db);
  await migrateTo(db, names[names.indexOf("0025_search_tiers") - 1]);
  // 0025 drops 0018's gram indexes: their rows wait in the pending list
  // instead of being put in place one by one (52 s on PGlite).
  for (const index of GRAM_INDEXES_OF_0018) {
    await sql`alter index ${sql.id(index)} set (fastupdate = on)`.execute(db);
  }
  await insertClients(db, CLIENTS_BEFORE_0007 + 1, CLIENTS);
  await migrateToLatest(db);
});
after(async () => {
  await handle.close();
  await testDb.drop();
});

/**
 * The statements that look words up, with the gram indexes each must use:
 * every capped statement (src/search/capped.ts), planned for its words and
 * with the one plan it runs with on a server, and the quote list's count.
 */
function lookups() {
  const db = handle.db;
  const words = (q: string) => searchWords(q);
  const CLIENT_TEXT = "clients_search_text_grams_idx";
  const CLIENT_PHONE = "clients_phone_digits_grams_idx";
  const QUOTE_TEXT = "quotes_search_text_grams_idx";
  return [
    {
      name: "global search, clients by name",
      query: cappedClientResultsQuery(db, "corwenstein", words("corwenstein")),
      uses: [CLIENT_TEXT],
    },
    {
      name: "global search, clients by e-mail",
      query: cappedClientResultsQuery(db, "corstein4321@", words("corstein4321@")),
      uses: [CLIENT_TEXT],
    },
    {
      name: "global search, clients by phone digits",
      query: cappedClientResultsQuery(db, "200 01234", words("200 01234")),
      uses: [CLIENT_TEXT, CLIENT_PHONE],
    },
    {
      name: "global search, quotes by client name",
      query: cappedQuoteResultsQuery(db, "corwenstein", words("corwenstein")),
      uses: [QUOTE_TEXT],
    },
    {
      name: "global search, quotes by number",
      query: cappedQuoteResultsQuery(db, "q-004321", words("q-004321")),
      uses: [QUOTE_TEXT],
    },
    {
      name: "client list search, two words",
      query: cappedSearchClientsQuery(db, words("hana holkoley")),
      uses: [CLIENT_TEXT],
    },
    {
      name: "client list search, phone digits",
      query: cappedSearchClientsQuery(db, words("(555) 345-01345")),
      uses: [CLIENT_PHONE],
    },
    {
      name: "quote list search",
      query: cappedListQuotesQuery(db, { q: "corwenstein" }),
      uses: [QUOTE_TEXT],
    },
    {
      name: "quote list search with a status filter",
      query: cappedListQuotesQuery(db, { q: "q-004321", status: "ACTIVE" }),
      uses: [QUOTE_TEXT],
    },
    {
      name: "quote list search, count",
      query: countQuotesQuery(db, { q: "corwenstein" }),
      uses: [QUOTE_TEXT],
    },
  ];
}

/** A statement built as raw SQL, as planOf and genericPlanOf take built queries. */
const built = (statement: RawBuilder<unknown>): Compilable => ({
  compile: () => statement.compile(handle.db),
});

/**
 * The statements that read a list's head (src/search/head.ts) and look a
 * rank up (src/search/ranks.ts), with the index each must read: the head in
 * the list's order, never the whole table; a rank by its tests' indexes.
 */
function orderedReads() {
  const db = handle.db;
  const words = (q: string) => searchWords(q);
  return [
    {
      name: "client list head",
      query: built(headSearchClientsQuery(db, words("example"))),
      uses: ["clients_name_order_idx"],
    },
    {
      name: "quote list head",
      query: built(headListQuotesQuery(db, { q: "dr." })),
      uses: ["quotes_created_at_idx"],
    },
    {
      name: "global search, clients head",
      query: built(headClientResultsQuery(db, "555", words("555"))),
      uses: ["clients_name_order_idx"],
    },
    {
      name: "global search, quotes head",
      query: built(headQuoteResultsQuery(db, "dr.", words("dr."))),
      uses: ["quotes_created_at_idx"],
    },
    {
      name: "global search, clients ranked 0",
      query: built(clientRanksQuery(db, "555 200", words("555 200"), [0])),
      uses: [
        "clients_full_name_prefix_idx",
        "clients_email_prefix_idx",
        "clients_mobile_digits_prefix_idx",
        "clients_home_digits_prefix_idx",
      ],
    },
    {
      name: "global search, clients ranked 1",
      query: built(clientRanksQuery(db, "example", words("example"), [1])),
      uses: [
        "clients_full_name_prefix_idx",
        "clients_last_name_prefix_idx",
        "clients_email_prefix_idx",
      ],
    },
    {
      name: "global search, clients ranked 2",
      query: built(clientRanksQuery(db, "example zulu", words("example zulu"), [2])),
      uses: ["clients_first_name_prefix_idx", "clients_last_name_prefix_idx"],
    },
    {
      name: "global search, quotes ranked 1",
      query: built(quoteRanksQuery(db, "4321", words("4321"), [1])),
      uses: ["quotes_number_prefix_idx", "quotes_number_suffix_idx"],
    },
    {
      name: "global search, quotes ranked 2",
      query: built(quoteRanksQuery(db, "corwenstein", words("corwenstein"), [2])),
      uses: ["quotes_client_name_prefix_idx", "quotes_optician_prefix_idx"],
    },
  ];
}

async function expectOrderedReads() {
  for (const { name, query, uses } of orderedReads()) {
    // The heads and the ranks' lookups run with one plan for every word
    // (genericPlans): the lookups' prefixes are ranges of their indexes
    // whatever the words (startsWithInRange).
    const plans = [["planned for its words", await planOf(handle.db, query)]] as const;
    const generic = name.includes("head") || name.includes("ranked")
      ? [["one plan for every word", await genericPlanOf(handle.db, query)] as const]
      : [];
    for (const [how, plan] of [...plans, ...generic]) {
      expect({ name, how, uses: uses.filter((i) => plan.indexes.has(i)), seqScans: plan.seqScans })
        .toEqual({ name, how, uses, seqScans: [] });
    }
  }
}

async function expectIndexServed() {
  for (const { name, query, uses } of lookups()) {
    for (
      const [how, plan] of [
        ["planned for its words", await planOf(handle.db, query)],
        ["one plan for every word", await genericPlanOf(handle.db, query)],
      ] as const
    ) {
      expect({ name, how, uses: uses.filter((i) => plan.indexes.has(i)), seqScans: plan.seqScans })
        .toEqual({ name, how, uses, seqScans: [] });
    }
  }
}

describe(`search plans with ${CLIENTS} clients and ${CLIENTS * QUOTES_PER_CLIENT} quotes`, () => {
  it("use the gram indexes before any statistics exist", async () => {
    // Migration 0019 analyzes the tables: the statistics it made are dropped here.
    await sql`delete from pg_statistic where starelid in ('clients'::regclass, 'quotes'::regclass)`
      .execute(handle.db);
    await expectIndexServed();
    await expectOrderedReads();
  });

  it("use the gram indexes after ANALYZE", async () => {
    await sql`analyze clients`.execute(handle.db);
    await sql`analyze quotes`.execute(handle.db);
    await expectIndexServed();
    await expectOrderedReads();
  });

  it("read a common word's matches in the list's order, testing each row's text", async () => {
    // The statements a search runs once it found more than CAPPED_MATCHES.
    const quotes = await planOf(handle.db, listQuotesQuery(handle.db, { q: "dr." }));
    expect(quotes.indexes.has("quotes_created_at_idx")).toBe(true);
    const clients = await planOf(handle.db, searchClientsQuery(handle.db, ["example"]));
    expect(clients.indexes.has("clients_name_order_idx")).toBe(true);
  });

  it("reads a word past the cap in the list's order whatever the planner guesses of it", async () => {
    // The statistics say few clients hold "555 0" (its digits are in every
    // phone); planned freely, the planner tested the whole table and sorted.
    for (const q of ["555 0", "example", "dr."]) {
      const clients = await readInListOrder(
        handle.db,
        (db) => planOf(db, searchClientsQuery(db, searchWords(q))),
      );
      expect({ q, name: clients.indexes.has("clients_name_order_idx"), seq: clients.seqScans })
        .toEqual({ q, name: true, seq: [] });
      const quotes = await readInListOrder(
        handle.db,
        (db) => planOf(db, listQuotesQuery(db, { q })),
      );
      expect({ q, created: quotes.indexes.has("quotes_created_at_idx"), seq: quotes.seqScans })
        .toEqual({ q, created: true, seq: [] });
    }
  });

  it("runs the capped statements where one plan serves every word", async () => {
    const setting = async (db: typeof handle.db) =>
      (await sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`.execute(db))
        .rows[0].mode;
    /** Statements prepared on one connection after `statement` ran on it twice. */
    const preparedAfter = (db: typeof handle.db, statement: string) =>
      db.connection().execute(async (conn) => {
        for (let i = 0; i < 2; i++) await sql`${sql.raw(statement)} ${"x"}::text`.execute(conn);
        return (await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements
          where statement like ${statement + "%"}`.execute(conn)).rows[0].n;
      });
    const probe = "select 'plan probe' as p,";
    if (handle.kind === "server") {
      expect(await setting(genericPlans(handle.db))).toBe("force_generic_plan");
      // Prepared once per connection, one plan kept for every value.
      expect(await preparedAfter(genericPlans(handle.db), probe)).toBe(1);
      // Every other statement is sent unnamed, and PostgreSQL plans an
      // unnamed statement for its values every time.
      expect(await setting(handle.db)).toBe("auto");
      expect(await preparedAfter(handle.db, probe)).toBe(0);
    } else {
      // PGlite is one connection: everything runs on it, planned as usual.
      expect(genericPlans(handle.db)).toBe(handle.db);
    }
  });

  it("answers a capped search as the ordinary statement does, with fewer or more matches than the cap", async () => {
    const db = handle.db;
    // "q-0" is in every quote number and "example" in nearly every client's
    // e-mail: over the caps. "ann" is in 1,000 clients (each tenth is an Ann),
    // the others in fewer.
    const over = { quotes: "q-0", clients: "example" };
    const quotesOver = await cappedListQuotesQuery(db, { q: over.quotes }).execute();
    expect(cappedTotal(quotesOver, 0, QUOTE_LIST_CAPPED_MATCHES)).toBeUndefined();
    // "dr." (a third of the quotes) is past the others' cap, under the quote list's.
    const drs = await cappedListQuotesQuery(db, { q: "dr." }).execute();
    expect(cappedTotal(drs, 0, QUOTE_LIST_CAPPED_MATCHES)).toBe(
      Number((await countQuotesQuery(db, { q: "dr." }).executeTakeFirstOrThrow()).n),
    );
    const clientsOver = await cappedSearchClientsQuery(db, searchWords(over.clients)).execute();
    expect(cappedTotal(clientsOver)).toBeUndefined();
    const under = await cappedListQuotesQuery(db, { q: "corwenstein" }).execute();
    expect(cappedTotal(under)).toBeGreaterThan(0);
    expect(cappedTotal(under)).toBeLessThanOrEqual(CAPPED_MATCHES);

    expect(cappedTotal(await cappedSearchClientsQuery(db, ["ann"]).execute())).toBe(CLIENTS / 10);
    // Common words (every e-mail, every phone, each tenth name, half the
    // opticians, every quote number's start), rare ones, and a common word
    // whose best match is outside the head ("example": Example Zulu), and
    // words in about one quote in a hundred whose head reads again longer
    // ("kim 77", "sam 77", "dr. 17": src/search/head.ts, readHead), both
    // where the longer head fills its page and where it does not.
    const words = [
      ...["corwenstein", "hana holkoley", "dr.", "ann", "example", "q-0043", "kim novak"],
      ...[
        "555",
        "(555) 123",
        "01234",
        "555.200.0",
        "hana",
        "son",
        "4321",
        "q-00",
        "zulu",
        "kim 77",
        "sam 77",
        "dr. 17",
      ],
    ];
    for (const q of words) {
      const count = Number((await countQuotesQuery(db, { q }).executeTakeFirstOrThrow()).n);
      for (
        const page of [{ limit: 20 }, { limit: 7, offset: 5 }, { limit: 5, offset: 40_000 }, {
          limit: 100,
          offset: 300,
        }]
      ) {
        const ordinary = await listQuotesQuery(db, { q, ...page }).execute();
        const { total, atLeast, rows } = await listQuotes(db, { q, ...page });
        expect({ q, page, ids: rows.map((r) => r.id) })
          .toEqual({ q, page, ids: ordinary.map((r) => r.id) });
        // A search that stopped counting tells a true floor, at least its page.
        const shown = rows.length ? (page.offset ?? 0) + rows.length : 0;
        if (atLeast) {
          expect({ q, page, floor: total <= count && total >= shown })
            .toEqual({ q, page, floor: true });
        } else expect({ q, page, total }).toEqual({ q, page, total: count });
        const clients = await searchClients(db, q, page);
        const ordinaryClients = await searchClientsQuery(db, searchWords(q), page).execute();
        const brief = (c: { id: string; quoteCount?: number | null; measurementStatus: string }) =>
          `${c.id} ${Number(c.quoteCount)} ${c.measurementStatus}`;
        expect({ q, page, clients: clients.map(brief) })
          .toEqual({ q, page, clients: ordinaryClients.map(brief) });
      }
      const results = await globalSearch(db, q);
      const words = searchWords(q);
      const ordinary = [
        ...await searchClientResultsQuery(db, q, words).execute(),
        ...await searchQuoteResultsQuery(db, q, words).execute(),
      ].sort((a, b) => Number(a.rank) - Number(b.rank)).map((r) => r.id);
      expect({ q, ids: results.map((r) => r.href.split(/[=/]/).pop()) }).toEqual({
        q,
        ids: ordinary,
      });
    }
  });

  it("finds a common word's best match outside the head by looking its rank up", async () => {
    // Every client's e-mail holds "example"; the head (the first clients by
    // last name) holds hundreds of them at rank 3, and Example Zulu, the one
    // whose first name starts with it (rank 2), is the last client by name.
    const [first] = await globalSearch(handle.db, "example");
    expect(first.title).toBe("Example Zulu");
  });

  it("reads a rank's first matches in the list's order, through the list's index", async () => {
    // The staff bar's step for a rank no lookup could give (best_first.ts).
    const db = handle.db;
    for (const text of ["ann", "555", "dr.", "example", "son", "q-00", "hana holkoley", "4321"]) {
      const words = searchWords(text);
      const clients = await searchClientResultsQuery(db, text, words).clearLimit().execute();
      const quotes = await searchQuoteResultsQuery(db, text, words).clearLimit().execute();
      for (let rank = 0; rank <= LAST_RANK; rank++) {
        const ofRank = <R extends { id: string; rank: number | string }>(rows: R[]) =>
          rows.filter((r) => Number(r.rank) === rank).slice(0, 3).map((r) => r.id);
        const read = await readInListOrder(db, async (db) => ({
          clients: (await clientRankInOrderQuery(db, text, words, rank, 3).execute(db)).rows
            .map((r) => r.id),
          quotes: (await quoteRankInOrderQuery(db, text, words, rank, 3).execute(db)).rows
            .map((r) => r.id),
        }));
        expect({ text, rank, ...read })
          .toEqual({ text, rank, clients: ofRank(clients), quotes: ofRank(quotes) });
      }
    }
    const plans = await readInListOrder(db, async (db) => ({
      clients: await planOf(db, built(clientRankInOrderQuery(db, "555", searchWords("555"), 1, 5))),
      quotes: await planOf(db, built(quoteRankInOrderQuery(db, "dr.", searchWords("dr."), 2, 5))),
    }));
    expect(plans.clients.indexes.has("clients_name_order_idx")).toBe(true);
    expect(plans.quotes.indexes.has("quotes_created_at_idx")).toBe(true);
    expect([...plans.clients.seqScans, ...plans.quotes.seqScans]).toEqual([]);
  });

  it("looks ranks up as the ordinary statement ranks them, reading the candidates from the index alone", async () => {
    const db = handle.db;
    const ranks = Array.from({ length: LAST_RANK }, (_, r) => r);
    for (const text of ["ann", "555", "555 200", "dr.", "example", "son", "q-00", "4321", "zulu"]) {
      const words = searchWords(text);
      const reference = {
        clients: await searchClientResultsQuery(db, text, words).clearLimit().execute(),
        quotes: await searchQuoteResultsQuery(db, text, words).clearLimit().execute(),
      };
      const looked = {
        clients: (await clientRanksQuery(db, text, words, ranks).execute(db)).rows,
        quotes: (await quoteRanksQuery(db, text, words, ranks).execute(db)).rows,
      };
      for (const type of ["clients", "quotes"] as const) {
        const overflowed = (looked[type][0].overflowed ?? []).map(Number);
        for (const rank of ranks.filter((r) => !overflowed.includes(r))) {
          const ids = (rows: { id?: string; rank: number | string | null }[]) =>
            rows.filter((r) => r.rank !== null && Number(r.rank) === rank).slice(0, 5)
              .map((r) => r.id);
          expect({ text, type, rank, ids: ids(looked[type]) })
            .toEqual({ text, type, rank, ids: ids(reference[type]) });
        }
      }
    }
    // Vacuumed (a server's autovacuum does it), the prefix indexes answer
    // alone with each candidate's place in the list (migration 0027): only
    // the rows read in that order until a page is found come from the table.
    await sql`vacuum clients`.execute(db);
    await sql`vacuum quotes`.execute(db);
    const ranked = orderedReads().filter((l) => l.name.includes("ranked"));
    expect(ranked.length).toBe(5);
    for (const { name, query, uses } of ranked) {
      const plan = await planOf(db, query);
      expect({ name, indexOnly: uses.filter((i) => plan.indexOnly.has(i)) })
        .toEqual({ name, indexOnly: uses });
    }
  });

  it("keeps every row the LIKE alone keeps, and no other", async () => {
    const db = handle.db;
    const count = async (where: RawBuilder<boolean>, table: "clients" | "quotes") =>
      Number(
        (await sql<{ n: string }>`select count(*) as n from ${sql.table(table)} where ${where}`
          .execute(db)).rows[0].n,
      );
    const words = [
      ...["ros", "rosw", "roswe", "rosweni", "corwenstein", "holkoley", "stein", "ann "],
      ...["zoë", "straße", "ünal", "oë.st", "💎gem", "gemstone💎", "💎", "x\ty", "nbsp\u00a0name"],
      ...["a_b%c", "%c\\d", "_b%", "i̇pek", "ipek", "xyzzy", "q-00", "q-004321", "004321"],
      ...["dr.", "novak", "r. ort", "weiss"],
    ].map((w) => w.trim());
    for (const word of words) {
      const like = sql<boolean>`${clientText} like ${containsPattern(word)}`;
      expect({ word, n: await count(clientMatches([word]), "clients") })
        .toEqual({ word, n: await count(like, "clients") });
      const quoteLike = sql<boolean>`${quoteText} like ${containsPattern(word)}`;
      expect({ word, n: await count(quoteMatches([word]), "quotes") })
        .toEqual({ word, n: await count(quoteLike, "quotes") });
    }
    for (const digits of ["555", "0958", "79460958", "2079", "01234", "55501234"]) {
      const like = sql<boolean>`(${clientText} like ${containsPattern(digits)}
        or ${clientPhoneDigits} like ${containsPattern(digits)})`;
      expect({ digits, n: await count(clientMatches([digits]), "clients") })
        .toEqual({ digits, n: await count(like, "clients") });
    }
    // Found at all: the comparison above would also hold for a search that finds nothing.
    expect(await count(clientMatches(["straße"]), "clients")).toBe(1);
    expect(await count(clientMatches(["💎gem"]), "clients")).toBe(1);
    expect(await count(quoteMatches(["corwenstein"]), "quotes")).toBeGreaterThan(0);
  });

  it("finds through the index the rows the words say", async () => {
    const rows = await searchClientsQuery(handle.db, searchWords("hana holkoley")).execute();
    const expected = await sql<{ n: string }>`select count(*) as n from clients
      where first_name = 'Hana' and last_name = 'Holkoley'`.execute(handle.db);
    expect(rows.length).toBe(Number(expected.rows[0].n));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.firstName === "Hana" && r.lastName === "Holkoley")).toBe(true);
  });
});
