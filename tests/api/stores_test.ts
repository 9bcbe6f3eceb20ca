// The chain's stores in the data: an install of the previous release becomes a
// one-store chain with every row in its store, and in a chain of two each
// write lands in the store it belongs to: the device's current store for staff
// (remembered by its store cookie, honoured only where the user works), the
// kiosk's for a tablet, the quote's for its order.
import { NOT_A_LAB_OF_THE_STORE } from "../../src/orders/labs.ts";
import { describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import { migrateTo, migrateToLatest } from "../../src/db/migrate.ts";
import { createPersistentTestDatabase } from "../helpers/database.ts";
import type { DatabaseHandle } from "../../src/db/database.ts";
import { dumpDatabase } from "../../src/backup/dump.ts";
import { restoreDatabase } from "../../src/backup/restore.ts";
import { call, sessionCookieFor, signedInUser } from "../helpers/test_app.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { findFirstStore, findUserStores, pickCurrentStore } from "../../src/stores/stores.ts";
import { ALL_STORES_FORBIDDEN, NO_STORE_MESSAGE } from "../../src/stores/current_store.ts";
import {
  OTHER_STORE_JOB,
  PICKUP_STORE_FINAL,
  PICKUP_STORE_UNKNOWN,
} from "../../src/orders/order_store.ts";
import type { OrderBundle } from "../../src/orders/views.ts";
import type { ClientDetail } from "../../src/clients/views.ts";
import { app, finalizedQuote, lab, setNow, step, useOrdersApp } from "./orders_fixture.ts";
import { createQuoteLink } from "../../src/quotes/online_links.ts";

useOrdersApp();

const STAMPED = [
  ["clients", "home_store_id"],
  ["quotes", "store_id"],
  ["orders", "store_id"],
  ["jobs", "pickup_store_id"],
  ["payments", "store_id"],
  ["kiosk_sessions", "store_id"],
] as const;

describe("an install of the previous release", () => {
  it("restores its backup and becomes a one-store chain with its data and settings whole", async () => {
    const [source, target] = await Promise.all([
      createPersistentTestDatabase(),
      createPersistentTestDatabase(),
    ]);
    const handle = await source.open();
    let restored: DatabaseHandle | undefined;
    try {
      let db = handle.db;
      await migrateTo(db, "0035_paper_names_and_terms");
      // A store in use at the previous release: staff, a client with a quote,
      // an order with a job and a payment, a tablet hand-over, its settings.
      await sql`UPDATE settings SET store_name = 'Northside Eyewear', time_zone = 'Europe/Paris',
        store_address = '1 Rue de Rivoli, Paris'`.execute(db);
      const { rows: [user] } = await sql<{ id: string }>`
        INSERT INTO users (username, role) VALUES ('sam', 'AUTHORIZED_USER') RETURNING id`
        .execute(db);
      await sql`INSERT INTO users (username, role) VALUES ('olivia', 'OWNER')`.execute(db);
      const { rows: [client] } = await sql<{ id: string }>`
        INSERT INTO clients (first_name, last_name) VALUES ('Jane', 'Doe') RETURNING id`.execute(
        db,
      );
      const { rows: [quote] } = await sql<{ id: string; quoteNumber: string }>`
        INSERT INTO quotes (client_id, status) VALUES (${client.id}, 'FINALIZED')
        RETURNING id, quote_number`.execute(db);
      const { rows: [labRow] } = await sql<{ id: string }>`
        INSERT INTO labs (name, turnaround_days) VALUES ('Lab', 3) RETURNING id`.execute(db);
      const { rows: [order] } = await sql<{ id: string }>`
        INSERT INTO orders (quote_id, quote_number, client_id)
        VALUES (${quote.id}, ${quote.quoteNumber}, ${client.id}) RETURNING id`.execute(db);
      await sql`INSERT INTO jobs (order_id, position, lab_id, items, total, measurements,
        ordered_at, promised_date, updated_at)
        VALUES (${order.id}, 0, ${labRow.id}, '[]', 100, '{}', now(), '2026-12-01', now())`
        .execute(db);
      await sql`INSERT INTO payments (order_id, amount, method, paid_on, user_id, actor)
        VALUES (${order.id}, 40, 'CASH', '2026-11-27', ${user.id}, 'sam')`.execute(db);
      await sql`INSERT INTO kiosk_sessions (id, kind, handed_over_by, expires_at)
        VALUES ('hash', 'INTAKE', ${user.id}, now() + interval '1 hour')`.execute(db);
      const settingsBefore = (await sql`SELECT * FROM settings`.execute(db)).rows;
      // Its backup, restored into a new install, which then starts (migrates).
      const backup = await dumpDatabase(handle);
      expect(backup.migrations.at(-1)).toBe("0035_paper_names_and_terms");
      restored = await target.open();
      await restoreDatabase(restored, backup.script);
      db = restored.db;
      await migrateToLatest(db);

      const stores = await db.selectFrom("stores").selectAll().execute();
      expect(stores).toHaveLength(1);
      const [store] = stores;
      expect(store.code).toBe("MAIN");
      // No overrides: the store shows the settings exactly as they were.
      for (const column of ["name", "phone", "email", "address", "logoUrl", "timeZone"] as const) {
        expect(store[column]).toBeNull();
      }
      expect((await sql`SELECT * FROM settings`.execute(db)).rows).toEqual(settingsBefore);
      for (const [table, column] of STAMPED) {
        const { rows } = await sql<{ store: string | null; n: number }>`
          SELECT ${sql.ref(column)} AS store, count(*)::int AS n FROM ${sql.table(table)}
          GROUP BY 1`.execute(db);
        expect({ table, rows }).toEqual({ table, rows: [{ store: store.id, n: 1 }] });
      }
      expect(await db.selectFrom("userStores").selectAll().execute()).toEqual(
        expect.arrayContaining([{ userId: user.id, storeId: store.id }]),
      );
      expect(await findUserStores(db, { id: user.id, role: "AUTHORIZED_USER" })).toEqual([
        { id: store.id, code: "MAIN", name: null },
      ]);
      // A row written without a store still lands in the only store.
      const { rows: [later] } = await sql<{ homeStoreId: string }>`
        INSERT INTO clients (first_name, last_name) VALUES ('Later', 'Client')
        RETURNING home_store_id`.execute(db);
      expect(later.homeStoreId).toBe(store.id);
    } finally {
      await Promise.all([handle.close(), restored?.close()]);
      await Promise.all([source.drop(), target.drop()]);
    }
  });
});

describe("in a chain of two stores", () => {
  let storeA: string;
  let storeB: string;
  /** A user working in A and B, and their session with the device in B. */
  let both: { id: string; cookie: string };
  const inStore = (cookie: string, storeId: string) => `${cookie}; lensdesk_store=${storeId}`;

  it("a second store takes away the one-store default: a write must say its store", async () => {
    storeA = (await findFirstStore(app.db)).id;
    storeB = (await app.db.insertInto("stores").values({ code: "DT", name: "Downtown" })
      .returning("id").executeTakeFirstOrThrow()).id;
    const { user, cookie } = await signedInUser(app.db, { storeIds: [storeA, storeB] });
    both = { id: user.id, cookie };
    await expect(
      sql`INSERT INTO clients (first_name, last_name) VALUES ('No', 'Store')`.execute(app.db),
    ).rejects.toThrow(/home_store_id/);
  });

  it("staff write in the store their device is in, and in their first store otherwise", async () => {
    const created = async (cookie: string) => {
      const res = await call<{ client: { id: string }; quote: { id: string } }>(
        app,
        "POST",
        "/api/clients",
        { cookie, body: { firstName: "Ana", lastName: "Lopez" } },
      );
      expect(res.status).toBe(201);
      const client = await app.db.selectFrom("clients").select("homeStoreId")
        .where("id", "=", res.body.client.id).executeTakeFirstOrThrow();
      const quote = await app.db.selectFrom("quotes").select("storeId")
        .where("id", "=", res.body.quote.id).executeTakeFirstOrThrow();
      return [client.homeStoreId, quote.storeId];
    };
    expect(await created(inStore(both.cookie, storeB))).toEqual([storeB, storeB]);
    expect(await created(inStore(both.cookie, storeA))).toEqual([storeA, storeA]);
    // No store remembered, or one the user does not work in: their first by code (DT < MAIN).
    expect(await created(both.cookie)).toEqual([storeB, storeB]);
    const onlyACookie = (await signedInUser(app.db, { storeIds: [storeA] })).cookie;
    expect(await created(inStore(onlyACookie, storeB))).toEqual([storeA, storeA]);

    const q = await call<{ id: string }>(app, "POST", "/api/quotes", {
      cookie: inStore(both.cookie, storeA),
      body: { clientId: (await insertSavedQuote(app.db, { storeId: storeB })).clientId },
    });
    expect(q.status).toBe(201);
    expect(
      (await app.db.selectFrom("quotes").select("storeId").where("id", "=", q.body.id)
        .executeTakeFirstOrThrow()).storeId,
    ).toBe(storeA);
  });

  it("a user who works in no store is refused a write, and nothing is written", async () => {
    const { cookie } = await signedInUser(app.db, { storeIds: [] });
    const before = await app.db.selectFrom("clients").select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    const res = await call(app, "POST", "/api/clients", {
      cookie,
      body: { firstName: "Ana", lastName: "Nowhere" },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(NO_STORE_MESSAGE);
    expect(
      await app.db.selectFrom("clients").select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow(),
    ).toEqual(before);
    // An owner works in every store without being given any.
    const ownerCookie = (await signedInUser(app.db, { role: "OWNER", storeIds: [] })).cookie;
    const made = await call(app, "POST", "/api/clients", {
      cookie: inStore(ownerCookie, storeB),
      body: { firstName: "Ana", lastName: "Owner" },
    });
    expect(made.status).toBe(201);
  });

  it("an order is its quote's store's; a payment is the store that takes it", async () => {
    const q = await finalizedQuote({ storeId: storeA });
    const ordered = await call<OrderBundle>(app, "POST", `/api/quotes/${q.quoteId}/order`, {
      cookie: inStore(both.cookie, storeB),
      body: { labId: lab.id },
    });
    expect(ordered.status).toBe(201);
    const orderId = ordered.body.order.id;
    const order = await app.db.selectFrom("orders").select("storeId").where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    expect(order.storeId).toBe(storeA);
    const jobs = await app.db.selectFrom("jobs").select("pickupStoreId")
      .where("orderId", "=", orderId).execute();
    expect(jobs.map((j) => j.pickupStoreId)).toEqual(jobs.map(() => storeA));

    for (const store of [storeA, storeB]) {
      const paid = await call(app, "POST", `/api/orders/${orderId}/payments`, {
        cookie: inStore(both.cookie, store),
        body: { amount: "10.00", method: "CASH" },
      });
      expect(paid.status).toBe(201);
    }
    const payments = await app.db.selectFrom("payments").select("storeId")
      .where("orderId", "=", orderId).orderBy("createdAt").execute();
    expect(payments.map((p) => p.storeId)).toEqual([storeA, storeB]);
  });

  it("a job is moved on and re-promised by its stores' staff only", async () => {
    const q = await finalizedQuote({ storeId: storeA });
    const ordered = await call<OrderBundle>(app, "POST", `/api/quotes/${q.quoteId}/order`, {
      cookie: inStore(both.cookie, storeA),
      body: { labId: lab.id },
    });
    expect(ordered.status).toBe(201);
    const job = ordered.body.jobs[0];
    const onlyB = (await signedInUser(app.db, { role: "ADMIN", storeIds: [storeB] })).cookie;
    const refused = await step(ordered.body, 0, "SENT_TO_LAB", {}, onlyB);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(OTHER_STORE_JOB);
    const redated = await call(app, "PUT", `/api/jobs/${job.id}/promised-date`, {
      cookie: onlyB,
      body: { promisedDate: "2026-12-24", reason: "Lab delay", version: job.version },
    });
    expect(redated.status).toBe(403);
    const unchanged = await app.db.selectFrom("jobs").select(["status", "version"])
      .where("id", "=", job.id).executeTakeFirstOrThrow();
    expect(unchanged).toEqual({ status: "ORDERED", version: job.version });
    // Sent to store B for pickup, the job is B's staff's to move on too.
    await app.db.updateTable("jobs").set({ pickupStoreId: storeB }).where("id", "=", job.id)
      .execute();
    expect((await step(ordered.body, 0, "SENT_TO_LAB", {}, onlyB)).status).toBe(200);
  });

  it("a job's glasses go to another store of the chain until they are ready", async () => {
    const q = await finalizedQuote({ storeId: storeA });
    let o = (await call<OrderBundle>(app, "POST", `/api/quotes/${q.quoteId}/order`, {
      cookie: inStore(both.cookie, storeA),
      body: { labId: lab.id },
    })).body;
    const move = (storeId: string, cookie = both.cookie) =>
      call<OrderBundle & { message?: string }>(
        app,
        "PUT",
        `/api/jobs/${o.jobs[0].id}/pickup-store`,
        { cookie, body: { storeId, version: o.jobs[0].version } },
      );
    const unknown = await move(crypto.randomUUID());
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(PICKUP_STORE_UNKNOWN);
    const onlyB = (await signedInUser(app.db, { storeIds: [storeB] })).cookie;
    expect((await move(storeB, onlyB)).body.message).toBe(OTHER_STORE_JOB);
    const moved = await move(storeB);
    expect(moved.status).toBe(200);
    o = moved.body;
    expect(o.jobs[0].pickupStoreId).toBe(storeB);
    expect(o.order.storeId).toBe(storeA);
    const entry = await app.db.selectFrom("auditLog").select("details")
      .where("action", "=", "order.pickup_store").where("entityId", "=", o.order.id)
      .executeTakeFirstOrThrow();
    expect(entry.details).toMatchObject({
      jobNumber: o.jobs[0].jobNumber,
      changes: [{ field: "pickupStore", from: "MAIN", to: "DT" }],
    });
    // Stale, then ready: no more moves.
    expect(
      (await call(app, "PUT", `/api/jobs/${o.jobs[0].id}/pickup-store`, {
        cookie: both.cookie,
        body: { storeId: storeA, version: o.jobs[0].version - 1 },
      })).status,
    ).toBe(409);
    for (const to of ["SENT_TO_LAB", "RECEIVED", "CHECKED", "READY"]) {
      o = (await step(o, 0, to, {}, both.cookie)).body;
    }
    const ready = await move(storeA);
    expect(ready.status).toBe(409);
    expect(ready.body.message).toBe(PICKUP_STORE_FINAL);
  });

  it("the lists show the device's store; another store, or every store, when asked", async () => {
    const count = async (path: string, cookie: string) => {
      const res = await call(app, "GET", path, { cookie });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      return Number(res.headers.get("x-total-count"));
    };
    const quotesIn = async (store: string) =>
      Number(
        (await app.db.selectFrom("quotes").select((eb) => eb.fn.countAll().as("n"))
          .where("storeId", "=", store).executeTakeFirstOrThrow()).n,
      );
    const all = Number(
      (await app.db.selectFrom("quotes").select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()).n,
    );
    const [inA, inB] = [await quotesIn(storeA), await quotesIn(storeB)];
    expect(inA).toBeGreaterThan(0);
    expect(inB).toBeGreaterThan(0);
    expect(inA).not.toBe(inB);
    expect(await count("/api/quotes", inStore(both.cookie, storeA))).toBe(inA);
    expect(await count("/api/quotes", inStore(both.cookie, storeB))).toBe(inB);
    expect(await count(`/api/quotes?store=${storeB}`, inStore(both.cookie, storeA))).toBe(inB);
    // A search of one store's list reads that store's head (src/search/head.ts) and finds its own.
    const doesIn = async (store: string) =>
      Number(
        (await app.db.selectFrom("quotes").select((eb) => eb.fn.countAll().as("n"))
          .where("storeId", "=", store).where("clientName", "ilike", "%doe%")
          .executeTakeFirstOrThrow()).n,
      );
    expect(await doesIn(storeA)).toBeGreaterThan(0);
    expect(await count("/api/quotes?q=doe", inStore(both.cookie, storeA))).toBe(
      await doesIn(storeA),
    );
    expect(await count("/api/quotes?q=doe", inStore(both.cookie, storeB))).toBe(
      await doesIn(storeB),
    );
    const admin = (await signedInUser(app.db, { role: "ADMIN", storeIds: [storeA] })).cookie;
    expect(await count("/api/quotes?store=all", admin)).toBe(all);
    const staffAll = await call<{ message: string }>(app, "GET", "/api/quotes?store=all", {
      cookie: both.cookie,
    });
    expect(staffAll.status).toBe(403);
    expect(staffAll.body.message).toBe(ALL_STORES_FORBIDDEN);
    const unknown = await call(app, "GET", `/api/quotes?store=${crypto.randomUUID()}`, {
      cookie: both.cookie,
    });
    expect(unknown.status).toBe(400);
    // The page's first rows are the same store's; a wrong store in its address shows the default.
    const page = await (await fetch(`${app.baseUrl}/quotes?store=nonsense`, {
      headers: { cookie: inStore(both.cookie, storeB) },
    })).text();
    expect(page).toContain(`"initialTotal":${inB}`);
    // Orders: a store's own, and the glasses sent to it for pickup.
    const jobsOf = async (store: string) =>
      Number(
        (await app.db.selectFrom("jobs").innerJoin("orders", "orders.id", "jobs.orderId")
          .select((eb) => eb.fn.countAll().as("n"))
          .where((eb) =>
            eb.or([eb("orders.storeId", "=", store), eb("jobs.pickupStoreId", "=", store)])
          ).executeTakeFirstOrThrow()).n,
      );
    expect(await count("/api/orders", inStore(both.cookie, storeA))).toBe(await jobsOf(storeA));
    expect(await count("/api/orders", inStore(both.cookie, storeB))).toBe(await jobsOf(storeB));
    const jobs = Number(
      (await app.db.selectFrom("jobs").select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()).n,
    );
    expect(await jobsOf(storeB)).toBeLessThan(jobs);
    expect(await count("/api/orders?store=all", admin)).toBe(jobs);
  });

  it("a tablet belongs to the store that handed it over, and so does its intake", async () => {
    const handed = await call(app, "POST", "/api/kiosk/hand-over", {
      cookie: inStore(both.cookie, storeB),
      body: { kind: "INTAKE" },
    });
    expect(handed.status).toBe(201);
    const kioskCookie = handed.headers.get("set-cookie")!.match(/lensdesk_kiosk=[^;]+/)![0];
    const intake = await call<{ client: { id: string } }>(app, "POST", "/api/clients", {
      cookie: kioskCookie,
      body: { firstName: "Tab", lastName: "Let" },
    });
    expect(intake.status).toBe(201);
    const client = await app.db.selectFrom("clients").select("homeStoreId")
      .where("firstName", "=", "Tab").executeTakeFirstOrThrow();
    expect(client.homeStoreId).toBe(storeB);
    const quote = await app.db.selectFrom("quotes").select("storeId")
      .innerJoin("clients", "clients.id", "quotes.clientId").where("clients.firstName", "=", "Tab")
      .executeTakeFirstOrThrow();
    expect(quote.storeId).toBe(storeB);
  });

  it("the signed-out intake page registers in the chain's first store", async () => {
    const res = await call(app, "POST", "/api/clients", {
      body: { firstName: "Walk", lastName: "In" },
    });
    expect(res.status).toBe(201);
    const client = await app.db.selectFrom("clients").select("homeStoreId")
      .where("firstName", "=", "Walk").executeTakeFirstOrThrow();
    expect(client.homeStoreId).toBe(storeB);
  });

  it("a store's own intake address registers in that store; an unknown store is refused", async () => {
    const res = await call(app, "POST", "/api/clients?store=main", {
      body: { firstName: "Store", lastName: "Intake" },
    });
    expect(res.status).toBe(201);
    const client = await app.db.selectFrom("clients").select("homeStoreId")
      .where("firstName", "=", "Store").executeTakeFirstOrThrow();
    expect(client.homeStoreId).toBe(storeA);
    const page = await fetch(`${app.baseUrl}/intake/DT`);
    expect(await page.text()).toContain("Welcome to Downtown");
    expect((await fetch(`${app.baseUrl}/intake/NOPE`)).status).toBe(404);
    const before = await app.db.selectFrom("clients").select(sql<number>`count(*)::int`.as("n"))
      .executeTakeFirstOrThrow();
    const unknown = await call<{ message: string }>(app, "POST", "/api/clients?store=NOPE", {
      body: { firstName: "No", lastName: "Where" },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/active stores/);
    const after = await app.db.selectFrom("clients").select(sql<number>`count(*)::int`.as("n"))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    // A tablet or signed-in staff stay in their own store whatever the address says (the
    // hand-over above ended `both`'s session on that device: a new one).
    both.cookie = await sessionCookieFor(app.db, both.id);
    const staffed = await call<{ client: { id: string } }>(app, "POST", "/api/clients?store=MAIN", {
      cookie: inStore(both.cookie, storeB),
      body: { firstName: "Staffed", lastName: "Intake" },
    });
    expect(staffed.status).toBe(201);
    expect(
      (await app.db.selectFrom("clients").select("homeStoreId")
        .where("id", "=", staffed.body.client.id).executeTakeFirstOrThrow()).homeStoreId,
    ).toBe(storeB);
  });

  it("a client's quotes and orders name their store; staff change the client's home store", async () => {
    const q = await insertSavedQuote(app.db, { storeId: storeB });
    const detail = await call<ClientDetail>(app, "GET", `/api/clients/${q.clientId}`, {
      cookie: both.cookie,
    });
    expect(detail.body.quotes.map((x) => x.storeCode)).toEqual(["DT"]);
    expect(detail.body.homeStoreId).toBe(storeB);
    expect(detail.body.stores?.map((s) => s.code)).toEqual(["DT", "MAIN"]);
    const moved = await call<ClientDetail>(app, "PUT", `/api/clients/${q.clientId}`, {
      cookie: both.cookie,
      body: { homeStoreId: storeA },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.homeStoreId).toBe(storeA);
    const audit = await app.db.selectFrom("auditLog").select("details")
      .where("entityId", "=", q.clientId).where("action", "=", "client.update")
      .executeTakeFirstOrThrow();
    expect((audit.details as { changes: unknown }).changes).toEqual({
      homeStore: { from: "DT", to: "MAIN" },
    });
    for (const homeStoreId of [crypto.randomUUID(), "nope"]) {
      const bad = await call(app, "PUT", `/api/clients/${q.clientId}`, {
        cookie: both.cookie,
        body: { homeStoreId },
      });
      expect(bad.status).toBe(400);
    }
    expect(
      (await app.db.selectFrom("clients").select("homeStoreId").where("id", "=", q.clientId)
        .executeTakeFirstOrThrow()).homeStoreId,
    ).toBe(storeA);
  });

  it("a store uses the labs it names (none: every lab); its orders go to one of them", async () => {
    const owner = (await signedInUser(app.db, { role: "OWNER" })).cookie;
    const other = await call<{ id: string }>(app, "POST", "/api/admin/labs", {
      cookie: owner,
      body: { name: "Other Lab", email: "other@lab.test", turnaroundDays: 2 },
    });
    expect(other.status).toBe(201);
    const labsOf = async (storeId: string) =>
      (await call<{ id: string }[]>(app, "GET", `/api/labs?store=${storeId}`, { cookie: owner }))
        .body.map((l) => l.id).sort();
    expect(await labsOf(storeB)).toEqual([lab.id, other.body.id].sort());
    const named = await call<{ labIds: string[] }>(app, "PUT", `/api/admin/stores/${storeB}`, {
      cookie: owner,
      body: { labIds: [other.body.id] },
    });
    expect(named.status).toBe(200);
    expect(named.body.labIds).toEqual([other.body.id]);
    expect(await labsOf(storeB)).toEqual([other.body.id]);
    expect(await labsOf(storeA)).toEqual([lab.id, other.body.id].sort());
    // An unknown lab: 400, and the store keeps its labs.
    const unknown = await call(app, "PUT", `/api/admin/stores/${storeB}`, {
      cookie: owner,
      body: { labIds: [crypto.randomUUID()], phone: "(555) 010-0100" },
    });
    expect(unknown.status).toBe(400);
    expect(await labsOf(storeB)).toEqual([other.body.id]);
    expect(
      (await app.db.selectFrom("stores").select("phone").where("id", "=", storeB)
        .executeTakeFirstOrThrow()).phone,
    ).toBeNull();
    // An order of B's quote goes to one of B's labs only.
    const q = await finalizedQuote({ storeId: storeB, firstName: "Labby" });
    const refused = await call<{ message: string }>(app, "POST", `/api/quotes/${q.quoteId}/order`, {
      cookie: owner,
      body: { labId: lab.id },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(NOT_A_LAB_OF_THE_STORE);
    expect(
      (await app.db.selectFrom("orders").select("id").where("quoteId", "=", q.quoteId).execute())
        .length,
    ).toBe(0);
    const made = await call(app, "POST", `/api/quotes/${q.quoteId}/order`, {
      cookie: owner,
      body: { labId: other.body.id },
    });
    expect(made.status).toBe(201);
    // Its history says which labs, and back to every lab.
    await call(app, "PUT", `/api/admin/stores/${storeB}`, { cookie: owner, body: { labIds: [] } });
    const changes = (await app.db.selectFrom("auditLog").select("details")
      .where("action", "=", "settings.store_update").where("entityId", "=", storeB)
      .orderBy("id").execute()).flatMap((r) =>
        (r.details as { changes: { field: string }[] }).changes.filter((c) => c.field === "labs")
      );
    expect(changes).toEqual([
      { field: "labs", from: "Every lab", to: "Other Lab" },
      { field: "labs", from: "Other Lab", to: "Every lab" },
    ]);
    expect(await labsOf(storeB)).toEqual([lab.id, other.body.id].sort());
  });

  it("an admin's new staff member works in the admin's current store", async () => {
    const admin = await signedInUser(app.db, { role: "ADMIN", storeIds: [storeA, storeB] });
    const cookie = inStore(admin.cookie, storeA);
    const res = await call<{ id: string }>(app, "POST", "/api/admin/users/invite", {
      cookie,
      body: {
        username: "newhire",
        firstName: "New",
        lastName: "Hire",
        email: "new@store.test",
        role: "AUTHORIZED_USER",
        password: "a-long-password-1",
      },
    });
    expect(res.status).toBe(201);
    expect(await findUserStores(app.db, { id: res.body.id, role: "AUTHORIZED_USER" }))
      .toEqual([{ id: storeA, code: "MAIN", name: null }]);
  });
});

/** The store the install's data went to (no overrides: the chain's settings). */
const mainStoreId = async () =>
  (await app.db.selectFrom("stores").select("id").where("code", "=", "MAIN")
    .executeTakeFirstOrThrow()).id;

describe("a store's own settings, else the chain's", () => {
  let storeB: string;
  let cookie: string;
  const DOWNTOWN = {
    code: "DT2",
    name: "Downtown Optical",
    address: "9 Elm Street, Springfield",
    phone: "(555) 010-0199",
    // Open Monday to Saturday, 10:00-19:00 in New York (the chain: Mon-Fri 09:00-18:00, Chicago).
    openingDays: "1,2,3,4,5,6",
    openingTime: "10:00",
    closingTime: "19:00",
    timeZone: "America/New_York",
    readyEmailSubject: "Your glasses are waiting for you downtown",
  };

  it("a quote's printout and online page show its store", async () => {
    storeB = (await app.db.insertInto("stores").values(DOWNTOWN).returning("id")
      .executeTakeFirstOrThrow()).id;
    ({ cookie } = await signedInUser(app.db, { storeIds: [storeB] }));
    const chain = await app.db.selectFrom("settings").select("storeName")
      .executeTakeFirstOrThrow();
    for (
      const [storeId, name, not] of [
        [storeB, DOWNTOWN.name, chain.storeName ?? "Lensdesk Optical"],
        [await mainStoreId(), chain.storeName ?? "Lensdesk Optical", DOWNTOWN.name],
      ] as const
    ) {
      const q = await insertSavedQuote(app.db, { storeId });
      const page = await fetch(`${app.baseUrl}/quote/${q.quoteId}/client-print`, {
        headers: { cookie },
      });
      const html = await page.text();
      expect(page.status).toBe(200);
      expect(html).toContain(name);
      expect(html).not.toContain(not);
      const token = await createQuoteLink(app.db, {
        quoteId: q.quoteId,
        quoteVersion: 1,
        sentTo: "jane@example.com",
        createdBy: null,
      });
      const online = await (await fetch(`${app.baseUrl}/q/${token}`)).text();
      expect(online).toContain(name);
      expect(online).not.toContain(not);
    }
  });

  it("an order is promised in its store's business days; the ready e-mail is its pickup store's", async () => {
    // Friday 11:00 in New York, a 3-day lab: Saturday, Monday, Tuesday (the chain's: to Wednesday).
    setNow(new Date("2026-11-27T16:00:00Z"));
    const q = await finalizedQuote({
      storeId: storeB,
      options: [{ label: "One", sku: "S-DT", price: "50.00" }],
      firstName: "Dana",
    });
    let o = (await call<OrderBundle>(app, "POST", `/api/quotes/${q.quoteId}/order`, {
      cookie,
      body: { labId: lab.id },
    })).body;
    expect(o.jobs[0].promisedDate).toBe("2026-12-01");
    for (const to of ["SENT_TO_LAB", "RECEIVED", "CHECKED"]) {
      o = (await step(o, 0, to, {}, cookie)).body;
    }
    try {
      // Ready on Friday at 18:55 in New York: held for the undo window, past closing, so it
      // goes on Saturday at 10:00 there (the chain would wait for Monday 09:00 in Chicago).
      setNow(new Date("2026-11-27T23:55:00Z"));
      o = (await step(o, 0, "READY", {}, cookie)).body;
      expect(o.jobs[0].status).toBe("READY");
      const held = await app.db.selectFrom("emailOutbox")
        .select(["subject", "textBody", "nextAttemptAt"])
        .where("jobId", "=", o.jobs[0].id).executeTakeFirstOrThrow();
      expect(held.nextAttemptAt.toISOString()).toBe("2026-11-28T15:00:00.000Z");
      expect(held.subject).toBe(DOWNTOWN.readyEmailSubject);
      expect(held.textBody).toContain(DOWNTOWN.name);
      expect(held.textBody).toContain(DOWNTOWN.address);
      expect(held.textBody).toContain("Mon–Sat 10:00–19:00");
    } finally {
      setNow(new Date("2026-11-27T16:00:00Z"));
    }
  });
});

describe("the current store", () => {
  it("is the remembered one where the user works, else their first", () => {
    const a = { id: "a", code: "A", name: null };
    const b = { id: "b", code: "B", name: "Bee" };
    expect(pickCurrentStore([a, b], "b")).toBe(b);
    expect(pickCurrentStore([a, b], undefined)).toBe(a);
    expect(pickCurrentStore([a], "b")).toBe(a);
    expect(pickCurrentStore([], "b")).toBeUndefined();
  });
});
