// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
// The dashboard's two counts come from per-day counts kept by triggers
// (migration 0016). Whatever happens to quotes, they must answer exactly what
// counting the quotes themselves answers, at any moment of the day.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import { type DatabaseHandle, openDatabase } from "../../src/db/database.ts";
import { migrateTo, migrateToLatest } from "../../src/db/migrate.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { ACTIVE_STATUSES, findStats } from "../../src/quotes/dashboard.ts";
import { countExpiredQuotes } from "../../src/quotes/dashboard.ts";
import { fillStore } from "../../bench/store.ts";
import type { DB } from "../../src/db/database.ts";

let testDb: TestDatabase;
let handle: DatabaseHandle;
let db: DB;

const DAY = 24 * 60 * 60 * 1000;

/** The counts as the dashboard defined them before migration 0016: every quote counted. */
async function countedDirectly(now: Date) {
  const row = await sql<{ expired: string; active: string }>`
    select
      (select count(*) from quotes where status <> 'CLOSED' and expires_at < ${now}) as expired,
      (select count(*) from quotes where status in (${sql.join(ACTIVE_STATUSES)})
        and (expires_at is null or expires_at >= ${now})) as active`.execute(db);
  return { expired: Number(row.rows[0].expired), active: Number(row.rows[0].active) };
}

async function fromCounts(now: Date) {
  const [expired, stats] = await Promise.all([countExpiredQuotes(db, now), findStats(db, now)]);
  return { expired, active: stats.activeQuotes };
}

/** Moments around the quotes' expiries: now, the edges of today (UTC), weeks away. */
function moments(): Date[] {
  const now = new Date();
  const midnight = new Date(now);
  midnight.setUTCHours(0, 0, 0, 0);
  return [
    now,
    midnight,
    new Date(midnight.getTime() + 1),
    new Date(midnight.getTime() + DAY - 1),
    new Date(now.getTime() - 40 * DAY),
    new Date(now.getTime() + 40 * DAY),
    new Date(now.getTime() + 400 * DAY),
  ];
}

async function expectSameCounts(label: string) {
  for (const now of moments()) {
    expect([label, now.toISOString(), await fromCounts(now)])
      .toEqual([label, now.toISOString(), await countedDirectly(now)]);
  }
}

before(async () => {
  testDb = await createTestDatabase();
  handle = await openDatabase(testDb.url, "/nonexistent");
  db = handle.db;
  // Quotes made before the migration: its backfill must count them.
  await migrateTo(db, "0015_hot_page_indexes");
  await fillStore(db, 0, 3000, { quotesPerClient: 3, optionsPerQuote: 1, itemsPerOption: 1 });
  await migrateToLatest(db);
});
after(async () => {
  await handle.close();
  await testDb.drop();
});

describe("the dashboard's counts kept per expiry day", () => {
  it("count the quotes that existed before the migration", async () => {
    const direct = await countedDirectly(new Date());
    expect(direct.expired).toBeGreaterThan(0);
    expect(direct.active).toBeGreaterThan(0);
    await expectSameCounts("backfill");
  });

  it("follow status and expiry changes, deletions and new quotes", async () => {
    // Reopen closed quotes expiring today (UTC) and in the past.
    await sql`update quotes set status = 'ACTIVE', closure_reason = null, closed_at = null,
      expires_at = now() - interval '1 minute'
      where id in (select id from quotes where status = 'CLOSED' limit 20)`.execute(db);
    // Close some open ones, move others' expiry across days, to and from none.
    await sql`update quotes set status = 'CLOSED', closure_reason = 'Test', closed_at = now()
      where id in (select id from quotes where status = 'ACTIVE' limit 15)`.execute(db);
    await sql`update quotes set expires_at = null
      where id in (select id from quotes where status = 'EMAILED' limit 10)`.execute(db);
    await sql`update quotes set expires_at = now() + interval '3 days'
      where id in (select id from quotes where expires_at is null limit 5)`.execute(db);
    await sql`update quotes set expires_at = expires_at - interval '2 days'
      where id in (select id from quotes where status <> 'CLOSED' limit 30)`.execute(db);
    // A save that changes neither column.
    await sql`update quotes set internal_notes = 'touched'
      where id in (select id from quotes limit 50)`.execute(db);
    // A client's deletion takes their quotes along.
    await sql`delete from clients where id in (select client_id from quotes limit 7)`.execute(db);
    await sql`insert into quotes (client_id, status, expires_at)
      select id, 'ACTIVE', now() + make_interval(hours => (row_number() over ())::int - 10)
      from clients limit 25`.execute(db);
    await expectSameCounts("after changes");
  });

  it("are left as they were by a rolled-back change", async () => {
    const before = await fromCounts(new Date());
    await db.transaction().execute(async (tx) => {
      await sql`update quotes set expires_at = now() - interval '5 days'`.execute(tx);
      throw new Error("roll back");
    }).catch(() => {});
    expect(await fromCounts(new Date())).toEqual(before);
    await expectSameCounts("after a rollback");
  });

  it("are emptied with the quotes by TRUNCATE", async () => {
    await sql`truncate quotes cascade`.execute(db);
    expect(await fromCounts(new Date())).toEqual({ expired: 0, active: 0 });
    await sql`insert into quotes (client_id, status, expires_at)
      select id, 'EMAILED', now() - interval '1 day' from clients limit 3`.execute(db);
    await expectSameCounts("after truncate");
    expect((await countedDirectly(new Date())).expired).toBe(3);
  });
});
