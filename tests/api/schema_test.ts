import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import type { DatabaseHandle } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrate.ts";
import { type MigratedTestDatabase, openMigratedTestDatabase } from "../helpers/database.ts";
import { ensureFirstOwner } from "../../src/auth/owner_bootstrap.ts";
import { verifyPassword } from "../../src/auth/password.ts";

let testDb: MigratedTestDatabase;
let handle: DatabaseHandle;

before(async () => {
  testDb = await openMigratedTestDatabase();
  handle = testDb.handle;
});
after(() => testDb.close());

async function makeClientWithQuote() {
  const db = handle.db;
  const client = await db.insertInto("clients").values({ firstName: "Ana", lastName: "Ruiz" })
    .returning("id").executeTakeFirstOrThrow();
  await db.insertInto("clientMeasurements").values({ clientId: client.id }).execute();
  await db.insertInto("consentRecords").values({
    clientId: client.id,
    consentType: "SMS",
    statement: "I agree to texts.",
    target: "555-0100",
    consentGiven: true,
    ip: null,
  }).execute();
  const quote = await db.insertInto("quotes").values({ clientId: client.id })
    .returning(["id", "quoteNumber"]).executeTakeFirstOrThrow();
  const option = await db.insertInto("quoteOptions").values({ quoteId: quote.id, position: 0 })
    .returning("id").executeTakeFirstOrThrow();
  await db.insertInto("optionItems").values({
    optionId: option.id,
    position: 0,
    kind: "FRAME",
    sku: "RB-1",
    unitPrice: "120.00",
  }).execute();
  await db.insertInto("optionFrameMeasurements").values({ optionId: option.id, segOc: "22/22" })
    .execute();
  return { clientId: client.id, quote, optionId: option.id };
}

const count = async (table: string) => {
  const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`
    .execute(handle.db);
  return Number(rows[0].n);
};

describe("schema", () => {
  it("migrating again changes nothing", async () => {
    expect(await migrateToLatest(handle.db)).toEqual([]);
  });

  it("starts with one settings row holding the spec's defaults", async () => {
    const rows = await handle.db.selectFrom("settings").selectAll().execute();
    expect(rows.length).toBe(1);
    expect(rows[0]).toMatchObject({
      quoteExpirationEnabled: true,
      quoteExpirationDays: 30,
      smtpPort: 587,
      // Mail requires TLS until an admin allows a local relay without it.
      smtpAllowInsecure: false,
    });
    await expect(sql`insert into settings (id) values (2)`.execute(handle.db)).rejects.toThrow();
  });

  it("numbers quotes sequentially in a human form", async () => {
    const a = await makeClientWithQuote();
    const b = await makeClientWithQuote();
    expect(a.quote.quoteNumber).toMatch(/^Q-\d{6}$/);
    const n = (q: string) => Number(q.slice(2));
    expect(n(b.quote.quoteNumber)).toBe(n(a.quote.quoteNumber) + 1);
  });

  it("numbers the millionth quote and the ones after it with every digit", async () => {
    const db = handle.db;
    const client = await db.insertInto("clients").values({ firstName: "Mil", lastName: "Lion" })
      .returning("id").executeTakeFirstOrThrow();
    const { rows: [{ last }] } = await sql<{ last: string }>`select last_value as last
      from quote_number_seq`.execute(db);
    await sql`select setval('quote_number_seq', 999998)`.execute(db);
    try {
      const numbers = [];
      for (let i = 0; i < 3; i++) {
        const quote = await db.insertInto("quotes").values({ clientId: client.id })
          .returning("quoteNumber").executeTakeFirstOrThrow();
        numbers.push(quote.quoteNumber);
      }
      // Migration 0001's default cut the millionth to Q-100000, a number taken.
      expect(numbers).toEqual(["Q-999999", "Q-1000000", "Q-1000001"]);
    } finally {
      await sql`select setval('quote_number_seq', ${Number(last)})`.execute(db);
      await db.deleteFrom("clients").where("id", "=", client.id).execute();
    }
  });

  it("deleting a client deletes its quotes, options, items, measurements and consents", async () => {
    const tables = [
      "quotes",
      "quote_options",
      "option_items",
      "option_frame_measurements",
      "client_measurements",
      "consent_records",
    ];
    const before = await Promise.all(tables.map(count));
    const { clientId } = await makeClientWithQuote();
    const during = await Promise.all(tables.map(count));
    expect(during).toEqual(before.map((n) => n + 1));
    await handle.db.deleteFrom("clients").where("id", "=", clientId).execute();
    expect(await Promise.all(tables.map(count))).toEqual(before);
  });

  it("refuses values the spec does not allow", async () => {
    const db = handle.db;
    const { clientId, optionId } = await makeClientWithQuote();
    const bad: Array<() => Promise<unknown>> = [
      () => sql`insert into users (username, role) values ('zed', 'SUPERUSER')`.execute(db),
      () => sql`insert into users (username) values ('ab')`.execute(db),
      () => sql`insert into quotes (client_id, status) values (${clientId}, 'LOST')`.execute(db),
      () => sql`insert into quotes (client_id, status) values (${clientId}, 'CLOSED')`.execute(db),
      () =>
        sql`insert into option_items (option_id, position, kind, qty)
          values (${optionId}, 5, 'FRAME', 0)`.execute(db),
      () =>
        sql`insert into option_items (option_id, position, kind) values (${optionId}, 6, 'HAT')`
          .execute(db),
      () =>
        sql`insert into quote_options (quote_id, position, adjustment_amount)
          select id, 9, 5 from quotes limit 1`.execute(db),
      () =>
        sql`update client_measurements set pd_binocular = 95 where client_id = ${clientId}`
          .execute(db),
      () =>
        sql`insert into clients (first_name, last_name, state) values ('A', 'B', 'Texas')`
          .execute(db),
      () => sql`insert into clients (first_name, last_name) values (' ', 'B')`.execute(db),
      () =>
        sql`insert into consent_records (client_id, consent_type, statement, target, consent_given)
          values (${clientId}, 'FAX', 's', 't', true)`.execute(db),
    ];
    for (const attempt of bad) await expect(attempt()).rejects.toThrow();
  });

  it("keeps usernames unique regardless of case", async () => {
    await handle.db.insertInto("users").values({ username: "Casey" }).execute();
    await expect(handle.db.insertInto("users").values({ username: "casey" }).execute()).rejects
      .toThrow();
  });

  it("a closed quote carries its reason", async () => {
    const { quote } = await makeClientWithQuote();
    await handle.db.updateTable("quotes").set({
      status: "CLOSED",
      closureReason: "Client bought elsewhere",
      closedAt: new Date(),
    }).where("id", "=", quote.id).execute();
    const row = await handle.db.selectFrom("quotes").select(["status", "closureReason"])
      .where("id", "=", quote.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "CLOSED", closureReason: "Client bought elsewhere" });
  });
});

describe("first owner", () => {
  it("is created from OWNER_* once, and never again", async () => {
    await handle.db.deleteFrom("users").execute();
    const first = await ensureFirstOwner(handle.db, {
      username: "olivia",
      password: "s3cret-pass",
      email: "olivia@store.test",
    });
    expect(first).toEqual({ created: true, username: "olivia", generatedPassword: undefined });
    const user = await handle.db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
    expect(user).toMatchObject({ username: "olivia", role: "OWNER", email: "olivia@store.test" });
    expect(await verifyPassword(user.passwordHash, "s3cret-pass")).toBe(true);
    expect(await ensureFirstOwner(handle.db, { username: "other" })).toEqual({ created: false });
  });

  it("without OWNER_* is `owner` with a random password that works", async () => {
    await handle.db.deleteFrom("users").execute();
    const result = await ensureFirstOwner(handle.db, {});
    if (!result.created) throw new Error("expected an owner");
    expect(result.username).toBe("owner");
    expect(result.generatedPassword!.length).toBeGreaterThanOrEqual(16);
    const user = await handle.db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
    expect(await verifyPassword(user.passwordHash, result.generatedPassword!)).toBe(true);
  });

  it("refuses a password shorter than 6 characters", async () => {
    await handle.db.deleteFrom("users").execute();
    await expect(ensureFirstOwner(handle.db, { password: "12345" })).rejects.toThrow(
      /at least 6/,
    );
  });
});
