// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
import { beforeEach, describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { call, createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import type { QuoteListRow } from "../../src/quotes/views.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp, staff: TestUser, cookie: string;

useTestApp(async (started) => {
  ({ app } = started);
  staff = await createTestUser(app.db, { username: "quinn_list", firstName: "Quinn" });
  cookie = await sessionCookieFor(app.db, staff.id);
});
beforeEach(async () => {
  await app.db.deleteFrom("clients").execute();
});

const DAY = 24 * 60 * 60 * 1000;

async function insertClient(firstName: string, lastName: string) {
  const row = await app.db.insertInto("clients").values({ firstName, lastName })
    .returning("id").executeTakeFirstOrThrow();
  return row.id;
}

async function insertQuote(
  clientId: string,
  init: { status?: QuoteStatus; optician?: string; expiresAt?: Date | null; ageMs?: number } = {},
) {
  return await app.db.insertInto("quotes").values({
    clientId,
    status: init.status ?? "DRAFT",
    opticianName: init.optician ?? "",
    expiresAt: init.expiresAt ?? null,
    createdAt: new Date(Date.now() - (init.ageMs ?? 0)),
    closureReason: init.status === "CLOSED" ? "Went elsewhere" : null,
  }).returning(["id", "quoteNumber"]).executeTakeFirstOrThrow();
}

/** Ann (active, Dr. Lee), Bob (closed, expired long ago), Cara (draft, expired): newest first. */
async function insertFixtures() {
  const ann = await insertClient("Ann", "Archer");
  const bob = await insertClient("Bob", "Baker");
  const cara = await insertClient("Cara", "Cole");
  const active = await insertQuote(ann, {
    status: "ACTIVE",
    optician: "Dr. Lee",
    expiresAt: new Date(Date.now() + 20 * DAY),
    ageMs: 1_000,
  });
  const closed = await insertQuote(bob, {
    status: "CLOSED",
    optician: "Sam Ortiz",
    expiresAt: new Date(Date.now() - 40 * DAY),
    ageMs: 2_000,
  });
  const expired = await insertQuote(cara, {
    status: "DRAFT",
    optician: "Sam Ortiz",
    expiresAt: new Date(Date.now() - 2 * DAY),
    ageMs: 3_000,
  });
  return { ann, bob, cara, active, closed, expired };
}

const list = (query = "") => call<QuoteListRow[]>(app, "GET", `/api/quotes${query}`, { cookie });

describe("GET /api/quotes", () => {
  it("lists every quote newest first with X-Total-Count", async () => {
    const f = await insertFixtures();
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Total-Count")).toBe("3");
    expect(res.body.map((r) => r.id)).toEqual([f.active.id, f.closed.id, f.expired.id]);
    expect(res.body[0]).toMatchObject({
      quoteNumber: f.active.quoteNumber,
      clientId: f.ann,
      clientName: "Ann Archer",
      opticianName: "Dr. Lee",
      status: "ACTIVE",
      isExpired: false,
    });
  });

  it("searches by quote number, client name and optician name", async () => {
    const f = await insertFixtures();
    const byNumber = await list(`?q=${encodeURIComponent(f.expired.quoteNumber)}`);
    expect(byNumber.body.map((r) => r.id)).toEqual([f.expired.id]);
    const byClient = await list("?q=bob%20baker");
    expect(byClient.body.map((r) => r.id)).toEqual([f.closed.id]);
    const byOptician = await list("?q=ortiz");
    expect(byOptician.body.map((r) => r.id)).toEqual([f.closed.id, f.expired.id]);
    expect(byOptician.headers.get("X-Total-Count")).toBe("2");
    const none = await list("?q=nobody");
    expect(none.body).toEqual([]);
    expect(none.headers.get("X-Total-Count")).toBe("0");
  });

  it("filters by status and by expired (closed quotes are not expired)", async () => {
    const f = await insertFixtures();
    const closed = await list("?status=CLOSED");
    expect(closed.body.map((r) => r.id)).toEqual([f.closed.id]);
    const expired = await list("?filter=expired");
    expect(expired.body.map((r) => r.id)).toEqual([f.expired.id]);
    expect(expired.body[0].isExpired).toBe(true);
    expect(expired.headers.get("X-Total-Count")).toBe("1");
  });

  it("pages with limit and offset while the total counts them all", async () => {
    const f = await insertFixtures();
    const res = await list("?limit=1&offset=1");
    expect(res.body.map((r) => r.id)).toEqual([f.closed.id]);
    expect(res.headers.get("X-Total-Count")).toBe("3");
    // A short last page, and an empty page past the end, give the same total.
    const last = await list("?limit=2&offset=2");
    expect(last.body.map((r) => r.id)).toEqual([f.expired.id]);
    expect(last.headers.get("X-Total-Count")).toBe("3");
    const past = await list("?limit=2&offset=10");
    expect(past.body).toEqual([]);
    expect(past.headers.get("X-Total-Count")).toBe("3");
  });

  it("a search in more quotes than its page reads stops counting and says the total is a floor", async () => {
    const f = await insertFixtures();
    // 2,500 more of Dr. Lee's quotes, older than the fixtures: more than
    // the head of the list a search reads first (src/search/head.ts).
    await sql`insert into quotes (client_id, optician_name, created_at)
      select ${f.ann}, 'Dr. Lee', now() - make_interval(days => g)
      from generate_series(1, 2500) g`.execute(app.db);
    const common = await list("?q=dr.%20lee&limit=10");
    expect(common.body.map((r) => r.id).slice(0, 1)).toEqual([f.active.id]);
    expect(common.body).toHaveLength(10);
    expect(common.headers.get("X-Total-Count-At-Least")).toBe("true");
    const floor = Number(common.headers.get("X-Total-Count"));
    expect(floor).toBeGreaterThanOrEqual(10);
    expect(floor).toBeLessThanOrEqual(2501);
    // A rare word among them is counted exactly.
    const rare = await list("?q=bob%20baker");
    expect(rare.headers.get("X-Total-Count")).toBe("1");
    expect(rare.headers.get("X-Total-Count-At-Least")).toBe("false");
  });

  it("refuses an unknown status with 400", async () => {
    expect((await list("?status=LOST")).status).toBe(400);
    expect((await list("?filter=old")).status).toBe(400);
  });

  it("needs a signed-in user", async () => {
    const res = await call(app, "GET", "/api/quotes");
    expect(res.status).toBe(401);
  });
});

describe("DELETE /api/quotes/{id}", () => {
  it("answers 404 for an unknown or malformed id", async () => {
    const unknown = await call(app, "DELETE", `/api/quotes/${crypto.randomUUID()}`, { cookie });
    expect(unknown.status).toBe(404);
    const malformed = await call(app, "DELETE", "/api/quotes/not-a-uuid", { cookie });
    expect(malformed.status).toBe(404);
  });

  it("removes the quote with its options and items and records who did it", async () => {
    const f = await insertFixtures();
    const option = await app.db.insertInto("quoteOptions")
      .values({ quoteId: f.active.id, position: 0, label: "Option 1" })
      .returning("id").executeTakeFirstOrThrow();
    await app.db.insertInto("optionItems")
      .values({ optionId: option.id, position: 0, kind: "FRAME", name: "Ray-Ban", unitPrice: 150 })
      .execute();

    const res = await call(app, "DELETE", `/api/quotes/${f.active.id}`, { cookie });
    expect(res.status).toBe(200);

    const quote = await app.db.selectFrom("quotes").select("id").where("id", "=", f.active.id)
      .executeTakeFirst();
    expect(quote).toBeUndefined();
    const options = await app.db.selectFrom("quoteOptions").select("id")
      .where("quoteId", "=", f.active.id).execute();
    expect(options).toEqual([]);
    const items = await app.db.selectFrom("optionItems").select("id")
      .where("optionId", "=", option.id).execute();
    expect(items).toEqual([]);

    const audit = await app.db.selectFrom("auditLog").selectAll()
      .where("action", "=", "quote.delete").where("entityId", "=", f.active.id)
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ userId: staff.id, actor: staff.username, entityType: "quote" });
    expect(audit.details).toMatchObject({ quoteNumber: f.active.quoteNumber, clientId: f.ann });

    // The other quotes stay, and a second delete finds nothing.
    expect((await list()).headers.get("X-Total-Count")).toBe("2");
    const again = await call(app, "DELETE", `/api/quotes/${f.active.id}`, { cookie });
    expect(again.status).toBe(404);
  });

  it("needs a signed-in user", async () => {
    const f = await insertFixtures();
    const res = await call(app, "DELETE", `/api/quotes/${f.active.id}`);
    expect(res.status).toBe(401);
    expect((await list()).headers.get("X-Total-Count")).toBe("3");
  });
});
