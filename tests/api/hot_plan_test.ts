// One engine: the planner's choices, checked on the server, the engine a store runs.
// The hot pages read through indexes: the parts of the dashboard's one statement and the
// clients page's first page, planned on a store with the history of an older store (most
// quotes expired and closed) so the planner picks by its own costs.
// Search plans are checked in search_plan_test.ts.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import type { DatabaseHandle } from "../../src/db/database.ts";
import { type MigratedTestDatabase, openMigratedTestDatabase } from "../helpers/database.ts";
import { planOf } from "../helpers/explain.ts";
import { dashboardParts, listAcceptedOnline, loadDashboard } from "../../src/quotes/dashboard.ts";
import {
  countExpiredQuotes,
  findStats,
  listExpiredQuotes,
  listRecentQuotes,
} from "../../src/quotes/dashboard.ts";
import { listClientsQuery } from "../../src/clients/clients.ts";
import { fillStore } from "../../bench/store.ts";

const CLIENTS = 10_000;

let testDb: MigratedTestDatabase;
let handle: DatabaseHandle;

before(async () => {
  testDb = await openMigratedTestDatabase();
  handle = testDb.handle;
  await fillStore(handle.db, 0, CLIENTS, {
    quotesPerClient: 3,
    optionsPerQuote: 1,
    itemsPerOption: 1,
  });
});
after(() => testDb.close());

/*
 * Each part of the dashboard's statement and the clients page. The two counts
 * read today's quotes off the expiry indexes and sum the per-day counts of
 * quote_expiry_counts (one row per status and day: small, so the planner may
 * scan it; its size follows the calendar, not the number of quotes).
 */
const SMALL_TABLES = ["quote_expiry_counts"];
function hotQueries() {
  const db = handle.db;
  const parts = dashboardParts(db);
  return [
    {
      name: "dashboard, active quotes",
      query: parts.activeQuotes,
      uses: ["quotes_active_expires_at_idx"],
    },
    {
      name: "dashboard, expired count",
      query: parts.expiredCount,
      uses: ["quotes_open_expires_at_id_idx"],
    },
    {
      name: "dashboard, new clients",
      query: parts.newClients,
      uses: ["clients_created_at_id_idx"],
    },
    { name: "dashboard, recent quotes", query: parts.recent, uses: ["quotes_updated_at_idx"] },
    {
      name: "dashboard, expired quotes",
      query: parts.expired,
      uses: ["quotes_open_expires_at_id_idx"],
    },
    { name: "clients page", query: listClientsQuery(db), uses: ["clients_created_at_id_idx"] },
  ];
}

async function expectIndexServed() {
  for (const { name, query, uses } of hotQueries()) {
    const plan = await planOf(handle.db, query);
    const seqScans = plan.seqScans.filter((t) => !SMALL_TABLES.includes(t!));
    expect({ name, uses: uses.filter((i) => plan.indexes.has(i)), seqScans })
      .toEqual({ name, uses, seqScans: [] });
  }
}

describe(`hot page plans with ${CLIENTS} clients and ${CLIENTS * 3} quotes`, () => {
  it("use the indexes before any statistics exist", async () => {
    await expectIndexServed();
  });

  it("use the indexes after ANALYZE", async () => {
    await sql`analyze`.execute(handle.db);
    await expectIndexServed();
  });

  it("the dashboard's one statement answers what its four queries answer", async () => {
    const now = new Date();
    const [one, stats, recent, expired, expiredCount] = await Promise.all([
      loadDashboard(handle.db, now),
      findStats(handle.db, now),
      listRecentQuotes(handle.db),
      listExpiredQuotes(handle.db, undefined, now),
      countExpiredQuotes(handle.db, now),
    ]);
    const { acceptedOnline, ...rest } = one;
    expect(rest).toEqual({ stats, recent, expired, expiredCount });
    expect(acceptedOnline).toEqual(await listAcceptedOnline(handle.db));
    expect(expiredCount).toBeGreaterThan(0);
    expect(stats.activeQuotes).toBeGreaterThan(0);
    expect(recent.length).toBe(5);
  });
});
