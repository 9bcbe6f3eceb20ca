// The signed-out limits (intake, consent, online acceptance) shared by every
// app process (migration 0030): two replicas on one database let through what
// one does, not twice as much.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { call, startReplica, type TestApp } from "../helpers/test_app.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { useTestApp } from "../helpers/suite.ts";
import { createQuoteLink } from "../../src/quotes/online_links.ts";
import { deleteOldRateEvents } from "../../src/auth/rate_counts.ts";
import { INTAKE_RULE, ONLINE_LINK_RULE } from "../../src/auth/throttle.ts";

let app: TestApp;
let replica: Pick<TestApp, "baseUrl" | "close">;

useTestApp((started) => {
  app = started.app;
});
before(async () => {
  replica = await startReplica(app);
});
after(() => replica.close());

const events = (rule: string) =>
  app.db.selectFrom("rateLimitEvents").select(["key", "at"]).where("rule", "=", rule).execute();

describe("signed-out limits across app processes", () => {
  it("counts intakes from one address on either replica against the same 20", async () => {
    const from = "127.0.0.61";
    const statuses: number[] = [];
    for (let i = 0; i < INTAKE_RULE.maxEvents; i++) {
      const res = await call(i % 2 ? replica : app, "POST", "/api/clients", {
        body: { firstName: "Shared", lastName: `Limit ${i}` },
        from,
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual(statuses.map(() => 201));
    for (const target of [app, replica]) {
      const refused = await call<{ message: string }>(target, "POST", "/api/clients", {
        body: { firstName: "Shared", lastName: "One too many" },
        from,
      });
      expect(refused.status).toBe(429);
      expect(refused.body.message).toBe(
        "Too many intake forms from this device. Please ask your optician for help.",
      );
      const wait = Number(refused.headers.get("retry-after"));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(INTAKE_RULE.windowMs / 1000);
    }
    // Another address is not held up; refused tries were not counted.
    const other = await call(replica, "POST", "/api/clients", {
      body: { firstName: "Other", lastName: "Device" },
      from: "127.0.0.62",
    });
    expect(other.status).toBe(201);
    const rows = await events("intake");
    expect(rows.filter((r) => r.key === from)).toHaveLength(INTAKE_RULE.maxEvents);
  });

  it("counts an intake sent with an Idempotency-Key (the tablet's) in its own transaction", async () => {
    const from = "127.0.0.63";
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const body = { firstName: "Keyed", lastName: "Intake" };
    const first = await call(app, "POST", "/api/clients", { body, from, headers });
    expect(first.status).toBe(201);
    // A replay answers from the key and is not counted again.
    const replay = await call(replica, "POST", "/api/clients", { body, from, headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    // A write refused and rolled back (an answer that is not on the list) made nothing: not counted.
    const refused = await call(app, "POST", "/api/clients", {
      body: { ...body, heardHowId: crypto.randomUUID() },
      from,
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    expect(refused.status).toBe(400);
    expect((await events("intake")).filter((r) => r.key === from)).toHaveLength(1);
  });

  it("counts a link's accept tries on either replica against the same 10", async () => {
    const q = await insertSavedQuote(app.db, {
      expiresAt: new Date(Date.now() + 10 * 86_400_000),
    });
    const token = await createQuoteLink(app.db, {
      quoteId: q.quoteId,
      quoteVersion: 1,
      sentTo: "shared@example.com",
      createdBy: null,
    });
    const statuses: number[] = [];
    for (let i = 0; i <= ONLINE_LINK_RULE.maxEvents; i++) {
      // A try with nothing in it: refused (400) after it is counted.
      const res = await call(i % 2 ? replica : app, "POST", `/q/${token}/accept`, {
        body: {},
        from: `127.0.0.${70 + i}`,
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, -1)).toEqual(statuses.slice(0, -1).map(() => 400));
    expect(statuses.at(-1)).toBe(429);
  });

  it("sweeps events no window reads any more", async () => {
    const now = Date.now();
    await app.db.insertInto("rateLimitEvents").values([
      { rule: "intake", key: "127.0.0.99", at: new Date(now - 2 * 60 * 60_000) },
      { rule: "intake", key: "127.0.0.99", at: new Date(now - 5 * 60_000) },
    ]).execute();
    expect(await deleteOldRateEvents(app.db, now)).toBe(1);
    const left = (await events("intake")).filter((r) => r.key === "127.0.0.99");
    expect(left.map((r) => r.at.getTime())).toEqual([now - 5 * 60_000]);
  });
});
