// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
// No N+1 on the hot pages: the SQL statements each request runs are counted
// (a Kysely plugin on the app's database sees every one executed, in
// transactions too) on a small store and again after it grew, so a query per
// row shows up as growth, and each page stays within its budget of round trips.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from "kysely";
import { loadConfig } from "../../src/config/config.ts";
import type { DatabaseHandle } from "../../src/db/database.ts";
import { readManifest } from "../../src/assets/manifest.ts";
import { createApp } from "../../routes/app.ts";
import { silentLogger } from "../../src/http/logger.ts";
import { PdfPool } from "../../src/pdf/pdf_pool.ts";
import { type MigratedTestDatabase, openMigratedTestDatabase } from "../helpers/database.ts";
import { createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";

/** Counts the statements executed through the Kysely instance it is attached to. */
class QueryCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs) {
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs) {
    this.count++;
    return Promise.resolve(args.result);
  }
}

let testDb: MigratedTestDatabase;
let database: DatabaseHandle;
let server: Deno.HttpServer<Deno.NetAddr>;
let pdf: PdfPool;
let base: string;
let staffCookie: string;
let adminCookie: string;
const counter = new QueryCounter();

before(async () => {
  testDb = await openMigratedTestDatabase();
  database = testDb.handle;
  const config = await loadConfig({ DATABASE_URL: testDb.url, PORT: "0", LOG_REQUESTS: "0" });
  pdf = new PdfPool(config.pdf);
  const app = createApp({
    db: database.db.withPlugin(counter),
    config,
    pdf,
    manifest: await readManifest(),
    logger: silentLogger,
    pool: database.pool,
  });
  server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
  base = `http://127.0.0.1:${server.addr.port}`;
  config.appUrl = base;
  staffCookie = await sessionCookieFor(
    database.db,
    (await createTestUser(database.db, { role: "AUTHORIZED_USER" })).id,
  );
  adminCookie = await sessionCookieFor(
    database.db,
    (await createTestUser(database.db, { role: "ADMIN" })).id,
  );
});
after(async () => {
  await server.shutdown();
  await pdf.close();
  await testDb.close();
});

/** The statements one request ran (requests here go one at a time). */
async function queriesOf(path: string, cookie: string) {
  counter.count = 0;
  const res = await fetch(base + path, { headers: { cookie } });
  await res.arrayBuffer();
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return counter.count;
}

const dayMs = 24 * 3600_000;

/** Quotes of every kind the dashboard lists: active, expired, with several options. */
async function addQuotes(n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const { quoteId } = await insertSavedQuote(database.db, {
      status: i % 3 === 0 ? "EMAILED" : "ACTIVE",
      expiresAt: new Date(Date.now() + (i % 2 ? -1 : 1) * (i + 1) * dayMs),
      options: [
        { label: "One", sku: `A-${i}`, price: "100.00" },
        { label: "Two", sku: `B-${i}`, price: "120.00" },
        { label: "Three", sku: `C-${i}`, price: "140.00" },
      ],
    });
    ids.push(quoteId);
  }
  return ids;
}

/** Statements each hot page runs, for a quote that exists. */
async function measure(quoteId: string, cookie: string) {
  return {
    dashboard: await queriesOf("/dashboard", cookie),
    clients: await queriesOf("/clients", cookie),
    quotePage: await queriesOf(`/quote/${quoteId}`, cookie),
    quoteApi: await queriesOf(`/api/quotes/${quoteId}`, cookie),
  };
}

/*
 * Budgets, in statements per request (each one round trip):
 *   every signed-in request: the session (1)
 *   every page: the store's settings, branding and whether mail is configured (1)
 *   every page with the staff bar: the stores the user works in, for its store picker and
 *     the current store (1; between requests it is kept, but not here: this handle
 *     counts statements and keeps nothing, src/db/read_through.ts)
 *   /dashboard: counts and both lists in one statement (1), the orders panel (late,
 *     waiting and today's pickups) in one more (1), the chain's stores for its store
 *     select (1; kept between requests too)
 *   /clients: the first page, heard-how options, consent texts (3)
 *   /quote/{id}: the quote with its options, items and measurements (1), the catalog's
 *     five sections (1)
 *   GET /api/quotes/{id}: the quote with its options, items and measurements (1)
 * An admin also sees the mail banner, answered by the same settings statement.
 */
const BUDGET = { dashboard: 6, clients: 6, quotePage: 5, quoteApi: 2 };

describe("statements per request on the hot pages", () => {
  it("stay within budget and do not grow with the rows shown", async () => {
    const [first] = await addQuotes(2);
    const small = await measure(first, staffCookie);
    for (const key of Object.keys(BUDGET) as (keyof typeof BUDGET)[]) {
      expect({ key, within: small[key] <= BUDGET[key] }).toEqual({ key, within: true });
    }
    // Twelve more quotes fill both dashboard lists and the clients page.
    await addQuotes(12);
    expect(await measure(first, staffCookie)).toEqual(small);
  });

  it("the quotes list counts only when its page cannot tell the total", async () => {
    await addQuotes(3);
    // A page with room to spare: the session, the chain's stores (kept between
    // requests where writes are heard; read each time on this counting handle)
    // and the page, whose length is the total.
    expect(await queriesOf("/api/quotes?limit=100", staffCookie)).toBe(3);
    // A full page may have more after it: the count follows.
    expect(await queriesOf("/api/quotes?limit=2", staffCookie)).toBe(4);
    // A search's capped page (src/search/capped.ts) carries how many matched,
    // full or not. Every quote here is Jane Doe's.
    expect(await queriesOf("/api/quotes?q=doe&limit=100", staffCookie)).toBe(3);
    expect(await queriesOf("/api/quotes?q=doe&limit=2", staffCookie)).toBe(3);
  });

  it("the admin's mail banner costs no extra statement", async () => {
    const [quoteId] = await addQuotes(1);
    const staff = await measure(quoteId, staffCookie);
    const admin = await measure(quoteId, adminCookie);
    expect(admin).toEqual(staff);
  });
});
