// Queries hand their rows over (src/db/released_results.ts): what Kysely's
// postgres.js driver awaits is the rows moved out of the query's Result, and
// the Result the query itself resolved with is left empty. Server only: PGlite
// has no postgres.js.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import postgres from "postgres";
import { releasingResults } from "../../src/db/released_results.ts";
import { type MigratedTestDatabase, openMigratedTestDatabase } from "../helpers/database.ts";

const SERVER = Deno.env.get("TEST_DATABASE_URL");
const skip = !SERVER && "needs TEST_DATABASE_URL: PGlite does not use postgres.js";

/** Records every query `client`'s reserved connections make, as postgres.js made it. */
function recordQueries(client: postgres.Sql): Promise<unknown>[] {
  const made: Promise<unknown>[] = [];
  const reserve = client.reserve.bind(client);
  client.reserve = async () => {
    const reserved = await reserve();
    const unsafe = reserved.unsafe.bind(reserved);
    reserved.unsafe = ((...args: Parameters<typeof unsafe>) => {
      const query = unsafe(...args);
      made.push(query);
      return query;
    }) as typeof unsafe;
    return reserved;
  };
  return made;
}

describe("releasingResults", { skip }, () => {
  let testDb: MigratedTestDatabase;
  before(async () => {
    testDb = await openMigratedTestDatabase();
  });
  after(() => testDb.close());

  it("answers the rows and figures, and leaves the query's own Result empty", async () => {
    const client = postgres(testDb.url, { max: 1, onnotice: () => {} });
    try {
      const made = recordQueries(client);
      const connection = await releasingResults(client).reserve();
      const answer = await connection.unsafe("select generate_series(1, 3) as n", [], {
        prepare: true,
      });
      connection.release();
      expect([...answer]).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(answer.command).toBe("SELECT");
      expect(answer.count).toBe(3);
      expect(answer.columns.map((c) => c.name)).toEqual(["n"]);
      expect(made).toHaveLength(1);
      const kept = (await made[0]) as postgres.RowList<postgres.Row[]>;
      expect(kept.length).toBe(0);
      expect(kept.command).toBe("SELECT");
    } finally {
      await client.end();
    }
  });

  it("still rejects with the server's error", async () => {
    const client = postgres(testDb.url, { max: 1, onnotice: () => {} });
    try {
      const connection = await releasingResults(client).reserve();
      await expect(connection.unsafe("select 1 / 0", [], { prepare: true })).rejects
        .toMatchObject({ code: "22012" });
      connection.release();
    } finally {
      await client.end();
    }
  });

  it("is what the app's Kysely runs on: its statements leave their Results empty", async () => {
    const made = recordQueries((testDb.handle.raw as { sql: postgres.Sql }).sql);
    const rows = await sql<{ n: number }>`select generate_series(1, 4) as n`.execute(
      testDb.handle.db,
    );
    expect(rows.rows.map((r) => r.n)).toEqual([1, 2, 3, 4]);
    await testDb.handle.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
    });
    expect(made.length).toBeGreaterThanOrEqual(4); // the select, begin, select, commit
    for (const query of made) expect(((await query) as unknown[]).length).toBe(0);
  });

  it("streams through the query's own cursor", async () => {
    const seen: number[] = [];
    const stream = testDb.handle.db
      .selectNoFrom(sql<number>`generate_series(1, 5)`.as("n"))
      .stream(2);
    for await (const row of stream) seen.push(row.n);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });
});
