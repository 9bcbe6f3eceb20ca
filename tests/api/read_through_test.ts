// Reads kept between requests (src/db/read_through.ts): served again while no
// table they read is written, dropped at the commit of a write, by this
// process or (on a server) another, and by age; and the pages built on them
// show every write on the very next request.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import { type DatabaseHandle, openDatabase } from "../../src/db/database.ts";
import { readThrough } from "../../src/db/read_through.ts";
import { type MigratedTestDatabase, openMigratedTestDatabase } from "../helpers/database.ts";
import type { TestApp } from "../helpers/test_app.ts";
import { createTestUser, sessionCookieFor, startTestApp } from "../helpers/test_app.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";

const SERVER = Deno.env.get("TEST_DATABASE_URL");

describe("readThrough", () => {
  let testDb: MigratedTestDatabase;
  let handle: DatabaseHandle;
  before(async () => {
    testDb = await openMigratedTestDatabase();
    handle = testDb.handle;
  });
  after(() => testDb.close());

  /** A read of the store name that counts its loads. */
  function storeNameRead(key: string, maxAgeMs = 60_000) {
    const read = {
      loads: 0,
      get: () =>
        readThrough(handle.db, {
          key,
          tables: ["settings"],
          maxAgeMs,
          load: async () => {
            read.loads++;
            const row = await handle.db.selectFrom("settings").select("storeName")
              .where("id", "=", 1).executeTakeFirstOrThrow();
            return row.storeName;
          },
        }),
    };
    return read;
  }
  const setStoreName = (name: string) =>
    handle.db.updateTable("settings").set({ storeName: name }).where("id", "=", 1).execute();

  it("serves a value again until a table it read is written", async () => {
    const read = storeNameRead("kept");
    await setStoreName("First");
    expect(await read.get()).toBe("First");
    expect(await read.get()).toBe("First");
    expect(read.loads).toBe(1);
    // Another table's write keeps it.
    await insertSavedQuote(handle.db);
    await handle.db.deleteFrom("sessions").execute();
    expect(await read.get()).toBe("First");
    expect(read.loads).toBe(1);
    await setStoreName("Second");
    expect(await read.get()).toBe("Second");
    expect(read.loads).toBe(2);
  });

  it("a write in a transaction drops it at the commit, not before", async () => {
    const read = storeNameRead("transaction");
    await setStoreName("Before");
    expect(await read.get()).toBe("Before");
    await handle.db.transaction().execute(async (trx) => {
      await trx.updateTable("settings").set({ storeName: "During" }).where("id", "=", 1)
        .execute();
      // Not committed: other connections still read "Before", and so does the kept value.
      expect(await read.get()).toBe("Before");
    });
    expect(await read.get()).toBe("During");
  });

  it("a statement it cannot read a target from drops every kept value", async () => {
    const read = storeNameRead("raw");
    expect(await read.get()).toBeDefined();
    const loads = read.loads;
    await sql`with x as (update settings set updated_at = now() returning id) select * from x`
      .execute(handle.db);
    await read.get();
    expect(read.loads).toBe(loads + 1);
  });

  it("drops a value older than its age limit", async () => {
    const read = storeNameRead("aged", 50);
    await read.get();
    await read.get();
    expect(read.loads).toBe(1);
    await new Promise((r) => setTimeout(r, 80));
    await read.get();
    expect(read.loads).toBe(2);
  });

  it("concurrent misses share one load, and a failed load is not kept", async () => {
    const read = storeNameRead("shared");
    await Promise.all([read.get(), read.get(), read.get()]);
    expect(read.loads).toBe(1);
    let attempts = 0;
    const failing = () =>
      readThrough(handle.db, {
        key: "failing",
        tables: ["settings"],
        maxAgeMs: 60_000,
        load: () => {
          attempts++;
          return Promise.reject(new Error("database went away"));
        },
      });
    await expect(failing()).rejects.toThrow("database went away");
    await expect(failing()).rejects.toThrow("database went away");
    expect(attempts).toBe(2);
  });

  it(
    "another process's write drops it once its notification arrives",
    { skip: !SERVER && "needs TEST_DATABASE_URL: PGlite is one process by design" },
    async () => {
      const read = storeNameRead("other-process");
      await setStoreName("Ours");
      expect(await read.get()).toBe("Ours");
      // A second pool on the same database: its writes never pass this handle's driver.
      const other = await openDatabase(testDb.url, "/nonexistent");
      try {
        await other.db.updateTable("settings").set({ storeName: "Theirs" }).where("id", "=", 1)
          .execute();
      } finally {
        await other.close();
      }
      const deadline = Date.now() + 5_000;
      let seen = await read.get();
      while (seen !== "Theirs" && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        seen = await read.get();
      }
      expect(seen).toBe("Theirs");
      expect(read.loads).toBe(2);
    },
  );

  it("keeps nothing while writes cannot be heard, and reads afresh once they are", async () => {
    const read = storeNameRead("unheard");
    await read.get();
    handle.writes.pause();
    await read.get();
    await read.get();
    expect(read.loads).toBe(3);
    handle.writes.resume();
    await read.get();
    await read.get();
    expect(read.loads).toBe(4);
  });
});

describe("pages that keep their reads show every write on the next request", () => {
  let app: TestApp;
  let cookie: string;
  before(async () => {
    app = await startTestApp();
    cookie = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "ADMIN" })).id);
  });
  after(() => app.close());

  const page = async (path: string) => {
    const res = await fetch(app.baseUrl + path, { headers: { cookie } });
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    return await res.text();
  };
  const activeQuotes = (html: string) =>
    Number(/data-testid="active-quotes">(\d+)</.exec(html)?.[1]);

  it("the dashboard", async () => {
    const before = await page("/dashboard");
    await insertSavedQuote(app.db, { firstName: "Ottilie", status: "ACTIVE" });
    const afterInsert = await page("/dashboard");
    expect(activeQuotes(afterInsert)).toBe(activeQuotes(before) + 1);
    expect(afterInsert).toContain("Ottilie Doe");
  });

  it("a quote, as the API and the builder page answer it", async () => {
    const { quoteId } = await insertSavedQuote(app.db, { status: "ACTIVE" });
    const get = async () =>
      await (await fetch(`${app.baseUrl}/api/quotes/${quoteId}`, { headers: { cookie } })).json();
    expect((await get()).quote.internalNotes).not.toBe("Seen at once");
    await page(`/quote/${quoteId}`);
    await app.db.updateTable("quotes").set({ internalNotes: "Seen at once" })
      .where("id", "=", quoteId).execute();
    expect((await get()).quote.internalNotes).toBe("Seen at once");
    expect(await page(`/quote/${quoteId}`)).toContain("Seen at once");
  });

  it("the builder page's catalog and its kept rendering", async () => {
    const { quoteId } = await insertSavedQuote(app.db, { status: "ACTIVE" });
    expect(await page(`/quote/${quoteId}`)).not.toContain("Kept Twice Lens");
    await app.db.insertInto("lensTypes").values({ name: "Kept Twice Lens", price: "12.00" })
      .execute();
    expect(await page(`/quote/${quoteId}`)).toContain("Kept Twice Lens");
    await app.db.updateTable("lensTypes").set({ active: false })
      .where("name", "=", "Kept Twice Lens").execute();
    expect(await page(`/quote/${quoteId}`)).not.toContain("Kept Twice Lens");
  });

  it("the clients page", async () => {
    await page("/clients");
    await insertSavedQuote(app.db, { firstName: "Philippa" });
    expect(await page("/clients")).toContain("Philippa");
  });

  it("the store name on every page", async () => {
    await page("/clients");
    await app.db.updateTable("settings").set({ storeName: "Renamed Optics" })
      .where("id", "=", 1).execute();
    expect(await page("/clients")).toContain("<title>Client Management · Renamed Optics</title>");
  });
});
