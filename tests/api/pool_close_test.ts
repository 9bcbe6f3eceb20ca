// Closing a server pool ends, whatever its statements did (src/db/database.ts,
// END_TIMEOUT_S). Server only: PGlite has no pool to end.
import { describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import { openDatabase } from "../../src/db/database.ts";
import { findBackupStatus } from "../../src/backup/runs.ts";
import { createTestDatabase } from "../helpers/database.ts";

const SERVER = Deno.env.get("TEST_DATABASE_URL");
const skip = !SERVER && "needs TEST_DATABASE_URL: PGlite has no connection pool";

/** "closed", or "still closing" once `ms` have passed. */
function closedWithin(close: Promise<void>, ms: number): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve("still closing"), ms);
  });
  return Promise.race([close.then(() => "closed"), late]).finally(() => clearTimeout(timer));
}

describe("closing a server pool", { skip }, () => {
  it("ends after two statements failed at once (postgres.js alone would wait forever)", async () => {
    const testDb = await createTestDatabase();
    try {
      const handle = await openDatabase(testDb.url, "/nonexistent");
      await handle.db.selectNoFrom(sql<number>`1`.as("one")).execute();
      // What /readyz does on an emptied database: the backup status reads its
      // two rows at once, and both reads are refused (no backup_runs table).
      await expect(findBackupStatus(handle.db)).rejects.toThrow(/backup_runs/);
      expect(await closedWithin(handle.close(), 30_000)).toBe("closed");
    } finally {
      await testDb.drop();
    }
  });

  it("ends the pool a backup or a restore used directly, so their command exits at once", async () => {
    const testDb = await createTestDatabase();
    try {
      const handle = await openDatabase(testDb.url, "/nonexistent");
      if (handle.raw.engine !== "postgres") throw new Error("a server handle");
      const client = await handle.raw.pool.connect();
      await client.query("SELECT 1");
      client.release();
      // Kysely never ran a statement: its destroy() alone would leave the
      // idle connection open for the pool's 30 s idle timeout.
      await handle.close();
      expect(handle.raw.pool.ended).toBe(true);
      expect(handle.raw.pool.totalCount).toBe(0);
    } finally {
      await testDb.drop();
    }
  });

  it("still lets a statement that is running finish", async () => {
    const testDb = await createTestDatabase();
    try {
      const handle = await openDatabase(testDb.url, "/nonexistent");
      const running = sql<{ done: string }>`SELECT pg_sleep(0.3)::text AS done`.execute(handle.db);
      // Started before the close, answered after it began.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const closing = handle.close();
      expect((await running).rows).toEqual([{ done: "" }]);
      expect(await closedWithin(closing, 30_000)).toBe("closed");
    } finally {
      await testDb.drop();
    }
  });
});
