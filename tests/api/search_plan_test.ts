// Every search that matches "contains" is served by a gram index, on both
// engines: the plans of the real queries are checked on a store with enough
// clients and quotes that the planner prefers the index by its own costs (no
// enable_seqscan = off), both before statistics exist (PGlite runs no
// autovacuum, so an embedded store may never have any) and after ANALYZE.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { type RawBuilder, sql } from "kysely";
import { type DatabaseHandle, openDatabase } from "../../src/db/database.ts";
import { listMigrationNames, migrateTo, migrateToLatest } from "../../src/db/migrate.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { planOf } from "../helpers/explain.ts";
import { searchClientsQuery } from "../../src/clients/clients.ts";
import { countQuotesQuery, listQuotesQuery } from "../../src/quotes/quote_store.ts";
import { searchClientResultsQuery, searchQuoteResultsQuery } from "../../src/search/search.ts";
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

before(async () => {
  testDb = await createTestDatabase();
  handle = await openDatabase(testDb.url, "/nonexistent");
  // The store exists before the search migration, as an upgraded one does:
  // its indexes are built over the rows and the client names copied to quotes.
  const names = await listMigrationNames();
  await migrateTo(handle.db, names[names.indexOf("0007_search_and_uploads") - 1]);
  const db = handle.db;
  // Names made of syllables, so names and e-mails vary the way real ones do
  // (one word shared by every row would make every trigram common).
  await sql`insert into clients (first_name, last_name, email, mobile_phone, home_phone, created_at)
    select (array['Ann','Ben','Carla','Dana','Eve','Farid','Gus','Hana','Ivo','June'])[1 + g % 10],
      initcap(s1 || s2 || s3), s1 || s3 || g || '@example.com',
      '(555) ' || lpad((g % 1000)::text, 3, '0') || '-' || lpad(g::text, 5, '0'),
      case when g % 3 = 0 then '555.200.' || lpad(g::text, 5, '0') end,
      now() - make_interval(mins => g)
    from generate_series(1, ${CLIENTS}) g, lateral (select
      (array['ab','bel','cor','dun','ed','fal','gar','hol','ing','jor','kal','lin','mor','nor',
        'ost','pal','quin','ros','sal','tor'])[1 + g % 20] s1,
      (array['va','wen','xi','yor','zu','ba','ce','di','fo','gu','he','ja','ko','lu','me','ni',
        'po','ra','si','te'])[1 + (g / 20) % 20] s2,
      (array['son','berg','ley','man','ton','well','wood','ford','stein','ski','ez','ova','er',
        'ini','oux','ard','an','ow','ic','ay'])[1 + (g / 400) % 20] s3) syllables`.execute(db);
  await sql`insert into quotes (client_id, optician_name, status, created_at)
    select c.id, (array['Dr. Ortiz','Sam Lee','Kim Novak','Dr. Weiss'])[1 + n],
      'ACTIVE', c.created_at + make_interval(secs => n)
    from clients c, generate_series(1, ${QUOTES_PER_CLIENT}) n`.execute(db);
  // Texts whose characters and pieces are not plain ASCII words: the grams
  // must be counted in characters, pieces split at spaces only.
  await sql`insert into clients (first_name, middle_name, last_name, email, mobile_phone)
    values ('Zoë', 'Ünal', 'Straße', 'zoë.straße@example.com', '+44 20 7946 0958'),
      ('Gem', null, '💎Gemstone💎', null, null),
      ('Tab', 'X' || chr(9) || 'Y', 'Nbsp' || chr(160) || 'Name', 'a_b%c\\d@example.com', null),
      ('Ian', null, 'İpek', 'ipek@example.com', '555-0000')`.execute(db);
  await migrateToLatest(db);
});
after(async () => {
  await handle.close();
  await testDb.drop();
});

/** The queries behind each search, with the gram indexes each must use. */
function searches() {
  const db = handle.db;
  const words = (q: string) => searchWords(q);
  const CLIENT_TEXT = "clients_search_text_grams_idx";
  const CLIENT_PHONE = "clients_phone_digits_grams_idx";
  const QUOTE_TEXT = "quotes_search_text_grams_idx";
  return [
    {
      name: "global search, clients by name",
      query: searchClientResultsQuery(db, "corwenstein", words("corwenstein")),
      uses: [CLIENT_TEXT],
    },
    {
      name: "global search, clients by e-mail",
      query: searchClientResultsQuery(db, "corstein4321@", words("corstein4321@")),
      uses: [CLIENT_TEXT],
    },
    {
      name: "global search, clients by phone digits",
      query: searchClientResultsQuery(db, "200 01234", words("200 01234")),
      uses: [CLIENT_TEXT, CLIENT_PHONE],
    },
    {
      name: "global search, quotes by client name",
      query: searchQuoteResultsQuery(db, "corwenstein", words("corwenstein")),
      uses: [QUOTE_TEXT],
    },
    {
      name: "global search, quotes by number",
      query: searchQuoteResultsQuery(db, "q-004321", words("q-004321")),
      uses: [QUOTE_TEXT],
    },
    {
      name: "client list search, two words",
      query: searchClientsQuery(db, words("hana holkoley")),
      uses: [CLIENT_TEXT],
    },
    {
      name: "client list search, phone digits",
      query: searchClientsQuery(db, words("(555) 345-01345")),
      uses: [CLIENT_PHONE],
    },
    {
      name: "quote list search, rows",
      query: listQuotesQuery(db, { q: "corwenstein" }),
      uses: [QUOTE_TEXT],
    },
    {
      name: "quote list search, count",
      query: countQuotesQuery(db, { q: "corwenstein" }),
      uses: [QUOTE_TEXT],
    },
    {
      name: "quote list search with a status filter",
      query: listQuotesQuery(db, { q: "q-004321", status: "ACTIVE" }),
      uses: [QUOTE_TEXT],
    },
  ];
}

async function expectIndexServed() {
  for (const { name, query, uses } of searches()) {
    const plan = await planOf(handle.db, query);
    expect({ name, uses: uses.filter((i) => plan.indexes.has(i)), seqScans: plan.seqScans })
      .toEqual({ name, uses, seqScans: [] });
  }
}

describe(`search plans with ${CLIENTS} clients and ${CLIENTS * QUOTES_PER_CLIENT} quotes`, () => {
  it("use the gram indexes before any statistics exist", async () => {
    await expectIndexServed();
  });

  it("use the gram indexes after ANALYZE", async () => {
    await sql`analyze clients`.execute(handle.db);
    await sql`analyze quotes`.execute(handle.db);
    await expectIndexServed();
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
