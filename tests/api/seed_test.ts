import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import type { DB } from "../../src/db/database.ts";
import { verifyPassword } from "../../src/auth/password.ts";
import { findUserByUsername } from "../../src/users/users.ts";
import { type MigratedTestDatabase, openMigratedTestDatabase } from "../helpers/database.ts";
import { createTestUser } from "../helpers/test_app.ts";
import { DEMO_PASSWORD, DEMO_STAFF, seedDemoStore } from "../../src/seed/demo_store.ts";
import { DEFAULT_CATALOG } from "../../src/catalog/default_catalog.ts";

const TABLES = [
  "users",
  "heard_how_options",
  "clients",
  "client_measurements",
  "consent_records",
  "quotes",
  "quote_options",
  "option_items",
  "option_frame_measurements",
  "lens_packages",
  "lens_types",
  "materials",
  "ar_coatings",
  "add_ons",
  "audit_log",
] as const;

async function tableCounts(db: DB): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`
      .execute(db);
    counts[table] = Number(rows[0].n);
  }
  return counts;
}

describe("seedDemoStore on an empty database", () => {
  let testDb: MigratedTestDatabase;
  let db: DB;

  before(async () => {
    testDb = await openMigratedTestDatabase();
    db = testDb.handle.db;
    // The app creates the first OWNER at start; the seed runs after that.
    await createTestUser(db, { role: "OWNER", username: "owner" });
    const result = await seedDemoStore(db);
    expect(result.status).toBe("seeded");
  });

  after(() => testDb?.close());

  it("fills in the store settings", async () => {
    const settings = await db.selectFrom("settings").selectAll().where("id", "=", 1)
      .executeTakeFirstOrThrow();
    expect(settings.storeName).toBe("Northside Eyewear");
    expect(settings.footerMessage).toBe(
      "This quote is valid for 30 days. Prices subject to change without notice.",
    );
    expect(settings.storePhone).toBeTruthy();
    expect(settings.storeEmail).toContain("@");
    expect(settings.storeAddress).toBeTruthy();
    expect(settings.storeWebsite).toMatch(/^https:\/\//);
    expect(settings.smsConsentText).toMatch(/text messages/i);
    expect(settings.emailConsentText).toMatch(/e-mail/i);
  });

  it("creates the heard-how options and the default catalog", async () => {
    const heardHow = await db.selectFrom("heardHowOptions").select(["label"])
      .orderBy("sortOrder").execute();
    expect(heardHow.map((h) => h.label)).toEqual([
      "Google search",
      "Friend or family",
      "Instagram",
      "Walk-in",
      "Doctor referral",
      "Insurance provider",
    ]);
    const packages = await db.selectFrom("lensPackages").select(["name", "price", "description"])
      .orderBy("sortOrder").execute();
    expect(packages).toEqual(
      DEFAULT_CATALOG.lensPackages.map(({ name, price, description }) => ({
        name,
        price,
        description,
      })),
    );
    expect(packages.find((p) => p.name === "Premium Progressive")?.price).toBe("389.00");
    for (const table of ["lensTypes", "materials", "arCoatings", "addOns"] as const) {
      const rows = await db.selectFrom(table).select(["name", "price"]).orderBy("sortOrder")
        .execute();
      expect(rows).toEqual(DEFAULT_CATALOG[table].map(({ name, price }) => ({ name, price })));
    }
  });

  it("creates the demo staff with the demo password", async () => {
    for (const staff of DEMO_STAFF) {
      const user = await findUserByUsername(db, staff.username);
      expect(user).toBeDefined();
      expect(user!.role).toBe(staff.role);
      expect(user!.firstName).toBe(staff.firstName);
      expect(user!.email).toBe(staff.email);
      expect(user!.passwordHash).toMatch(/^\$argon2id\$/);
      expect(await verifyPassword(user!.passwordHash, DEMO_PASSWORD)).toBe(true);
      expect(await verifyPassword(user!.passwordHash, "wrong-password")).toBe(false);
    }
    expect((await findUserByUsername(db, "admin.demo"))!.role).toBe("ADMIN");
    // The existing owner is untouched.
    expect((await findUserByUsername(db, "owner"))!.role).toBe("OWNER");
  });

  it("makes a chain of two stores with staff in one, the other or both", async () => {
    const stores = await db.selectFrom("stores").select(["id", "code", "name", "address"])
      .orderBy("code").execute();
    expect(stores.map((s) => s.code)).toEqual(["MAIN", "WP"]);
    const second = stores.find((s) => s.code === "WP")!;
    expect(second.name).toBe("Northside Eyewear Wicker Park");
    expect(second.address).toMatch(/Milwaukee/);
    const codesOf = async (username: string) =>
      (await db.selectFrom("userStores").innerJoin("users", "users.id", "userStores.userId")
        .innerJoin("stores", "stores.id", "userStores.storeId").select("stores.code")
        .where("users.username", "=", username).orderBy("stores.code").execute())
        .map((r) => r.code);
    expect(await codesOf("admin.demo")).toEqual(["MAIN", "WP"]);
    expect(await codesOf("maria.optician")).toEqual(["MAIN"]);
    expect(await codesOf("james.optician")).toEqual(["WP"]);
    // Each quote is its optician's store's: both stores have quotes.
    const perStore = await db.selectFrom("quotes").innerJoin(
      "stores",
      "stores.id",
      "quotes.storeId",
    )
      .select(["stores.code", "quotes.opticianName"]).execute();
    expect(new Set(perStore.map((q) => q.code))).toEqual(new Set(["MAIN", "WP"]));
    for (const q of perStore) {
      expect(q.code).toBe(q.opticianName === "James Okafor" ? "WP" : "MAIN");
    }
    const homes = await db.selectFrom("clients").select("homeStoreId").distinct().execute();
    expect(homes.length).toBe(2);
  });

  it("creates clients with measurements, consent records and valid states", async () => {
    const clients = await db.selectFrom("clients")
      .leftJoin("clientMeasurements", "clientMeasurements.clientId", "clients.id")
      .select([
        "clients.id",
        "clients.state",
        "clients.smsConsent",
        "clients.emailConsent",
        "clients.consentDate",
        "clients.mobilePhone",
        "clients.email",
        "clients.heardHowId",
        "clientMeasurements.clientId as measuredClientId",
        "clientMeasurements.measurementsComplete",
        "clientMeasurements.pdBinocular",
        "clientMeasurements.pdNear",
      ]).execute();
    expect(clients.length).toBeGreaterThanOrEqual(10);
    for (const c of clients) {
      expect(c.measuredClientId).toBe(c.id);
      if (c.state !== null) expect(c.state).toMatch(/^[A-Z]{2}$/);
    }
    expect(clients.some((c) => c.measurementsComplete && c.pdBinocular === "62.0")).toBe(true);
    expect(clients.some((c) => !c.measurementsComplete && Number(c.pdBinocular) === 0)).toBe(
      true,
    );
    expect(clients.some((c) => !c.measurementsComplete && Number(c.pdBinocular) > 0)).toBe(true);
    expect(clients.some((c) => c.heardHowId !== null)).toBe(true);
    const { rows: extras } = await sql<{ type: string; extras: Record<string, string> }>`
      SELECT jsonb_typeof(extras) AS type, extras FROM client_measurements`.execute(db);
    expect(extras.every((m) => m.type === "object")).toBe(true);
    expect(extras.some((m) => m.extras["Vertex distance"] === "12 mm")).toBe(true);

    const consents = await db.selectFrom("consentRecords").selectAll().execute();
    expect(consents.length).toBeGreaterThan(0);
    for (const c of clients) {
      const mine = consents.filter((r) => r.clientId === c.id);
      expect(mine.some((r) => r.consentType === "SMS")).toBe(c.smsConsent);
      expect(mine.some((r) => r.consentType === "EMAIL")).toBe(c.emailConsent);
      expect(c.consentDate !== null).toBe(c.smsConsent || c.emailConsent);
      for (const r of mine) {
        expect(r.consentGiven).toBe(true);
        expect(r.statement.length).toBeGreaterThan(20);
        expect(r.target).toBe(r.consentType === "SMS" ? c.mobilePhone : c.email);
      }
    }
  });

  it("has quotes in every status", async () => {
    const rows = await db.selectFrom("quotes").select("status").distinct().execute();
    expect(rows.map((r) => r.status).sort()).toEqual(
      ["ACCEPTED", "ACTIVE", "CLOSED", "DRAFT", "EMAILED", "FINALIZED", "PENDING_MEASUREMENTS"]
        .sort(),
    );
  });

  it("has expired open quotes, quotes created today, and sensible dates", async () => {
    const { rows: [expired] } = await sql<{ n: string; active: string }>`
      SELECT count(*) AS n, count(*) FILTER (WHERE status = 'ACTIVE') AS active
      FROM quotes WHERE expires_at < now() AND status <> 'CLOSED'`.execute(db);
    expect(Number(expired.n)).toBeGreaterThanOrEqual(1);
    expect(Number(expired.active)).toBeGreaterThanOrEqual(2);

    const quotes = await db.selectFrom("quotes").innerJoin(
      "clients",
      "clients.id",
      "quotes.clientId",
    )
      .select([
        "quotes.quoteNumber",
        "quotes.status",
        "quotes.createdAt",
        "quotes.expiresAt",
        "quotes.closureReason",
        "quotes.closedAt",
        "quotes.opticianName",
        "quotes.createdBy",
        "clients.createdAt as clientCreatedAt",
      ]).execute();
    const now = new Date();
    const startOfToday = new Date(now);
    startOfToday.setHours(0, 0, 0, 0);
    const today = quotes.filter((q) => q.createdAt >= startOfToday);
    expect(today.length).toBeGreaterThanOrEqual(2);
    for (const q of quotes) {
      expect(q.quoteNumber).toMatch(/^Q-\d{6}$/);
      expect(q.createdAt.getTime()).toBeLessThanOrEqual(now.getTime());
      expect(q.createdAt.getTime()).toBeGreaterThanOrEqual(q.clientCreatedAt.getTime());
      expect(q.expiresAt!.getTime() - q.createdAt.getTime()).toBe(30 * 24 * 60 * 60 * 1000);
      expect(["Maria Alvarez", "James Okafor"]).toContain(q.opticianName);
      expect(q.createdBy).not.toBeNull();
      if (q.status === "CLOSED") {
        expect(q.closureReason).toBeTruthy();
        expect(q.closedAt).not.toBeNull();
      } else {
        expect(q.closureReason).toBeNull();
        expect(q.closedAt).toBeNull();
      }
    }
  });

  it("puts only clients with incomplete measurements in PENDING_MEASUREMENTS", async () => {
    const { rows } = await sql<{ status: string; complete: boolean }>`
      SELECT q.status, m.measurements_complete AS complete
      FROM quotes q JOIN client_measurements m ON m.client_id = q.client_id`.execute(db);
    const pending = rows.filter((r) => r.status === "PENDING_MEASUREMENTS");
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.every((r) => !r.complete)).toBe(true);
    for (const status of ["ACTIVE", "FINALIZED", "EMAILED", "ACCEPTED"]) {
      expect(rows.filter((r) => r.status === status).every((r) => r.complete)).toBe(true);
    }
  });

  it("gives every quote options with contiguous positions and the right chosen flags", async () => {
    const { rows: withoutOptions } = await sql`
      SELECT q.id FROM quotes q
      WHERE NOT EXISTS (SELECT 1 FROM quote_options o WHERE o.quote_id = q.id)`.execute(db);
    expect(withoutOptions).toEqual([]);

    const { rows: badPositions } = await sql`
      SELECT quote_id FROM quote_options GROUP BY quote_id
      HAVING min(position) <> 0 OR max(position) <> count(*) - 1`.execute(db);
    expect(badPositions).toEqual([]);

    const { rows } = await sql<{ status: string; chosen: number; options: number }>`
      SELECT q.status, count(*) FILTER (WHERE o.is_chosen)::int AS chosen,
        count(*)::int AS options
      FROM quotes q JOIN quote_options o ON o.quote_id = q.id GROUP BY q.id, q.status`
      .execute(db);
    for (const r of rows) {
      expect(r.options).toBeGreaterThanOrEqual(1);
      expect(r.options).toBeLessThanOrEqual(3);
      if (r.status === "ACCEPTED") expect(r.chosen).toBeGreaterThanOrEqual(1);
      if (r.status === "FINALIZED" || r.status === "EMAILED") expect(r.chosen).toBe(1);
    }
    expect(rows.some((r) => r.options > 1)).toBe(true);
  });

  it("stores each option's subtotal as the exact sum of its items", async () => {
    const { rows: mismatched } = await sql<{ id: string }>`
      SELECT o.id, o.subtotal, sum(i.unit_price * i.qty) AS computed
      FROM quote_options o LEFT JOIN option_items i ON i.option_id = o.id
      GROUP BY o.id, o.subtotal
      HAVING count(i.id) = 0 OR o.subtotal <> sum(i.unit_price * i.qty)`.execute(db);
    expect(mismatched).toEqual([]);

    const { rows: [totals] } = await sql<{ n: string; positive: string }>`
      SELECT count(*) AS n, count(*) FILTER (WHERE subtotal > 0) AS positive
      FROM quote_options`.execute(db);
    expect(Number(totals.positive)).toBe(Number(totals.n));

    const adjusted = await db.selectFrom("quoteOptions").select([
      "adjustmentAmount",
      "adjustmentReason",
    ])
      .where("adjustmentAmount", "<", "0").execute();
    expect(adjusted.length).toBeGreaterThan(0);
    expect(adjusted.every((o) => o.adjustmentReason !== "")).toBe(true);
    const shipped = await db.selectFrom("quoteOptions").select("shipping")
      .where("shipping", ">", "0").execute();
    expect(shipped.length).toBeGreaterThan(0);
  });

  it("builds items like the quote builder does", async () => {
    const { rows: kinds } = await sql<{ kind: string }>`
      SELECT DISTINCT kind FROM option_items ORDER BY kind`.execute(db);
    expect(kinds.map((k) => k.kind)).toEqual(
      ["ADDON", "AR", "FRAME", "LENS", "MATERIAL", "OTHER", "PACKAGE"],
    );

    // Every option starts with exactly one frame that has a SKU, and has one package item.
    const { rows: badFrames } = await sql`
      SELECT o.id FROM quote_options o
      WHERE (SELECT count(*) FROM option_items i
             WHERE i.option_id = o.id AND i.kind = 'FRAME' AND btrim(coalesce(i.sku, '')) <> '') <> 1
         OR (SELECT kind FROM option_items i WHERE i.option_id = o.id AND i.position = 0) <> 'FRAME'
         OR (SELECT count(*) FROM option_items i
             WHERE i.option_id = o.id AND i.kind = 'PACKAGE') <> 1`.execute(db);
    expect(badFrames).toEqual([]);

    // Item positions are 0..n-1 within each option.
    const { rows: badPositions } = await sql`
      SELECT option_id FROM option_items GROUP BY option_id
      HAVING min(position) <> 0 OR max(position) <> count(*) - 1`.execute(db);
    expect(badPositions).toEqual([]);

    // A catalog package carries its price; a custom package is free and has lens and material.
    const { rows: badPackages } = await sql`
      SELECT i.id FROM option_items i
      LEFT JOIN lens_packages p ON p.id = i.catalog_id
      WHERE i.kind = 'PACKAGE' AND (
        (i.catalog_id IS NOT NULL AND (p.id IS NULL OR p.price <> i.unit_price OR p.name <> i.name))
        OR (i.catalog_id IS NULL AND (i.name <> 'Custom Package' OR i.unit_price <> 0
          OR NOT EXISTS (SELECT 1 FROM option_items l
                         WHERE l.option_id = i.option_id AND l.kind = 'LENS')
          OR NOT EXISTS (SELECT 1 FROM option_items m
                         WHERE m.option_id = i.option_id AND m.kind = 'MATERIAL'))))`
      .execute(db);
    expect(badPackages).toEqual([]);
    const { rows: [custom] } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM option_items WHERE kind = 'PACKAGE' AND catalog_id IS NULL`
      .execute(db);
    expect(Number(custom.n)).toBeGreaterThan(0);

    // Catalog-derived items point at a row of their own table with the same price.
    const { rows: badRefs } = await sql`
      SELECT i.id FROM option_items i
      WHERE (i.kind = 'LENS' AND NOT EXISTS (SELECT 1 FROM lens_types t
               WHERE t.id = i.catalog_id AND t.price = i.unit_price))
         OR (i.kind = 'MATERIAL' AND NOT EXISTS (SELECT 1 FROM materials t
               WHERE t.id = i.catalog_id AND t.price = i.unit_price))
         OR (i.kind = 'AR' AND NOT EXISTS (SELECT 1 FROM ar_coatings t
               WHERE t.id = i.catalog_id AND t.price = i.unit_price))
         OR (i.kind = 'ADDON' AND NOT EXISTS (SELECT 1 FROM add_ons t
               WHERE t.id = i.catalog_id AND t.price = i.unit_price))`.execute(db);
    expect(badRefs).toEqual([]);

    const segs = await db.selectFrom("optionFrameMeasurements").select("segOc").execute();
    expect(segs.length).toBeGreaterThan(0);
    expect(segs.every((s) => /^\d+\/\d+$/.test(s.segOc))).toBe(true);
  });

  it("records the seed in the audit log", async () => {
    const { rows } = await sql<{ type: string; details: { users: string[] } }>`
      SELECT jsonb_typeof(details) AS type, details FROM audit_log WHERE action = 'demo.seed'`
      .execute(db);
    expect(rows.length).toBe(1);
    expect(rows[0].type).toBe("object");
    expect(rows[0].details.users).toEqual(DEMO_STAFF.map((s) => s.username));
  });

  it("refuses a second run and changes nothing", async () => {
    const before = await tableCounts(db);
    const settingsBefore = await db.selectFrom("settings").selectAll().executeTakeFirstOrThrow();
    const result = await seedDemoStore(db);
    expect(result.status).toBe("refused");
    if (result.status === "refused") expect(result.message).toMatch(/already holds clients/);
    expect(await tableCounts(db)).toEqual(before);
    expect(await db.selectFrom("settings").selectAll().executeTakeFirstOrThrow()).toEqual(
      settingsBefore,
    );
  });
});

describe("seedDemoStore with existing data", () => {
  let testDb: MigratedTestDatabase;

  after(() => testDb?.close());

  it("keeps existing accounts, heard-how options and catalog rows", async () => {
    testDb = await openMigratedTestDatabase();
    const db = testDb.handle.db;
    const maria = await createTestUser(db, {
      username: "Maria.Optician",
      password: "her-own-password",
      role: "ADMIN",
    });
    await db.insertInto("heardHowOptions").values({ label: "Walk-in", sortOrder: 9 }).execute();
    await db.insertInto("materials").values({ name: "Polycarbonate", price: "40.00" }).execute();

    const now = new Date(2031, 4, 14, 15, 30);
    const result = await seedDemoStore(db, { now });
    expect(result.status).toBe("seeded");
    if (result.status !== "seeded") return;
    expect(result.users).toEqual([
      { username: "admin.demo", role: "ADMIN", created: true },
      { username: "maria.optician", role: "AUTHORIZED_USER", created: false },
      { username: "james.optician", role: "AUTHORIZED_USER", created: true },
    ]);
    const kept = await findUserByUsername(db, "maria.optician");
    expect(kept!.id).toBe(maria.id);
    expect(await verifyPassword(kept!.passwordHash, "her-own-password")).toBe(true);
    expect(await verifyPassword(kept!.passwordHash, DEMO_PASSWORD)).toBe(false);

    const walkIns = await db.selectFrom("heardHowOptions").select("id")
      .where("label", "=", "Walk-in").execute();
    expect(walkIns.length).toBe(1);
    const polys = await db.selectFrom("materials").select(["id", "price"])
      .where("name", "=", "Polycarbonate").execute();
    expect(polys).toEqual([expect.objectContaining({ price: "40.00" })]);
    // Items built from the existing row use its price, and subtotals still add up.
    const { rows: mismatched } = await sql`
      SELECT o.id FROM quote_options o JOIN option_items i ON i.option_id = o.id
      GROUP BY o.id, o.subtotal HAVING o.subtotal <> sum(i.unit_price * i.qty)`.execute(db);
    expect(mismatched).toEqual([]);
    const { rows: polyItems } = await sql<{ price: string }>`
      SELECT unit_price AS price FROM option_items WHERE kind = 'MATERIAL' AND name = 'Polycarbonate'`
      .execute(db);
    expect(polyItems.length).toBeGreaterThan(0);
    expect(polyItems.every((i) => i.price === "40.00")).toBe(true);

    // Dates follow the given clock.
    const newest = await db.selectFrom("quotes").select("createdAt").orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    expect(newest.createdAt.getTime()).toBeLessThanOrEqual(now.getTime());
    expect(newest.createdAt.toDateString()).toBe(now.toDateString());
  });
});
