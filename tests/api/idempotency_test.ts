import { describe, it } from "node:test";
import { expect } from "expect";
import {
  call,
  createTestUser,
  kioskCookieFor,
  sessionCookieFor,
  type TestApp,
  type TestUser,
} from "../helpers/test_app.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { KEY_REUSED_MESSAGE, STILL_RUNNING_MESSAGE } from "../../src/http/idempotency.ts";
import { IDEMPOTENCY_TTL_MS, keptAnswerText } from "../../src/idempotency/key_store.ts";
import type { TabletQuote } from "../../components/tablet/tablet_view.ts";
import { useTestApp } from "../helpers/suite.ts";

// The key store's clock: a test moves it past a key's expiry.
let offsetMs = 0;
let app: TestApp;
let maria: TestUser;

useTestApp(async (started) => {
  ({ app } = started);
  maria = await createTestUser(app.db, { username: "maria_idem", firstName: "Maria" });
}, { clock: () => new Date(Date.now() + offsetMs) });

// Each test calls from its own loopback address, so the signed-out intake
// limit (per address) of one test does not reach the next.
let lastAddress = 10;
const nextAddress = () => `127.0.0.${++lastAddress}`;

type Created = { client: { id: string }; quote: { id: string } };

const countClients = async (lastName: string) =>
  Number(
    (await app.db.selectFrom("clients").select((eb) => eb.fn.countAll<string>().as("n"))
      .where("lastName", "=", lastName).executeTakeFirstOrThrow()).n,
  );

const keyRow = (key: string) =>
  app.db.selectFrom("idempotencyKeys").selectAll().where("key", "=", key).executeTakeFirst();

function intake(lastName: string) {
  return { firstName: "Ida", lastName, mobilePhone: "555-300-4000", email: "ida@example.com" };
}

describe("Idempotency-Key on POST /api/clients (signed out)", () => {
  it("answers a replay with the first answer and writes nothing more", async () => {
    const from = nextAddress();
    const key = crypto.randomUUID();
    const body = intake("Replay");
    const headers = { "Idempotency-Key": key };
    const first = await call<Created>(app, "POST", "/api/clients", { from, body, headers });
    expect(first.status).toBe(201);
    const audits = await app.db.selectFrom("auditLog").select("id")
      .where("entityId", "=", first.body.client.id).execute();
    const replay = await call<Created>(app, "POST", "/api/clients", { from, body, headers });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await countClients("Replay")).toBe(1);
    const auditsAfter = await app.db.selectFrom("auditLog").select("id")
      .where("entityId", "=", first.body.client.id).execute();
    expect(auditsAfter).toEqual(audits);
    const row = await keyRow(key);
    expect(row).toMatchObject({ caller: `ip:${from}`, status: 201 });
    expect(row!.bodySha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(keptAnswerText(row!))).toEqual(first.body);
  });

  it("refuses the same key with another body, or from another caller, with a 422", async () => {
    const from = nextAddress();
    const key = crypto.randomUUID();
    const headers = { "Idempotency-Key": key };
    const first = await call(app, "POST", "/api/clients", {
      from,
      body: intake("Reused"),
      headers,
    });
    expect(first.status).toBe(201);
    const other = await call<{ message: string; errors: Record<string, string> }>(
      app,
      "POST",
      "/api/clients",
      { from, body: intake("Reused2"), headers },
    );
    expect(other.status).toBe(422);
    expect(other.body.message).toBe(KEY_REUSED_MESSAGE);
    expect(other.body.errors["Idempotency-Key"]).toBe(KEY_REUSED_MESSAGE);
    const elsewhere = await call(app, "POST", "/api/clients", {
      from: nextAddress(),
      body: intake("Reused"),
      headers,
    });
    expect(elsewhere.status).toBe(422);
    expect(await countClients("Reused")).toBe(1);
    expect(await countClients("Reused2")).toBe(0);
  });

  it("refuses a key that is not a UUID with a 400 naming the header", async () => {
    const res = await call<{ errors: Record<string, string> }>(app, "POST", "/api/clients", {
      from: nextAddress(),
      body: intake("BadKey"),
      headers: { "Idempotency-Key": "not-a-uuid" },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors["Idempotency-Key"]).toBe("Idempotency-Key must be a UUID");
    expect(await countClients("BadKey")).toBe(0);
  });

  it("keeps no refusal: the key of a 400 is free for the corrected request", async () => {
    const from = nextAddress();
    const key = crypto.randomUUID();
    const headers = { "Idempotency-Key": key };
    const bad = await call(app, "POST", "/api/clients", {
      from,
      body: { firstName: "", lastName: "Corrected" },
      headers,
    });
    expect(bad.status).toBe(400);
    expect(await keyRow(key)).toBeUndefined();
    const good = await call(app, "POST", "/api/clients", {
      from,
      body: intake("Corrected"),
      headers,
    });
    expect(good.status).toBe(201);
    expect(await countClients("Corrected")).toBe(1);
  });

  it("lets concurrent replays make one client: each waits for the first and gets its answer", async () => {
    const from = nextAddress();
    const key = crypto.randomUUID();
    const headers = { "Idempotency-Key": key };
    const body = intake("Concurrent");
    const answers = await Promise.all(
      Array.from(
        { length: 6 },
        () => call<Created>(app, "POST", "/api/clients", { from, body, headers }),
      ),
    );
    const created = answers.filter((a) => a.status === 201);
    // A replay that outwaited the first request's transaction would get a 409; none writes.
    for (const a of answers.filter((a) => a.status !== 201)) {
      expect(a.status).toBe(409);
      expect((a.body as unknown as { message: string }).message).toBe(STILL_RUNNING_MESSAGE);
    }
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const a of created) expect(a.body).toEqual(created[0].body);
    expect(await countClients("Concurrent")).toBe(1);
  });

  it("forgets a key after 24 hours: the same key then makes a new client, and old keys are swept", async () => {
    const from = nextAddress();
    const key = crypto.randomUUID();
    const headers = { "Idempotency-Key": key };
    const body = intake("Expired");
    const first = await call<Created>(app, "POST", "/api/clients", { from, body, headers });
    expect(first.status).toBe(201);
    const other = crypto.randomUUID();
    expect(
      (await call(app, "POST", "/api/clients", {
        from,
        body: intake("Expired2"),
        headers: { "Idempotency-Key": other },
      })).status,
    ).toBe(201);
    // (More than the sweep's ten minutes apart, so the later call sweeps.)
    offsetMs = IDEMPOTENCY_TTL_MS - 20 * 60_000;
    try {
      const within = await call<Created>(app, "POST", "/api/clients", { from, body, headers });
      expect(within.body).toEqual(first.body);
      expect(await countClients("Expired")).toBe(1);
      offsetMs = IDEMPOTENCY_TTL_MS + 60_000;
      const later = await call<Created>(app, "POST", "/api/clients", { from, body, headers });
      expect(later.status).toBe(201);
      expect(later.headers.get("idempotent-replayed")).toBeNull();
      expect(later.body.client.id).not.toBe(first.body.client.id);
      expect(await countClients("Expired")).toBe(2);
      // The sweep took the other expired key too; the renewed one is kept.
      expect(await keyRow(other)).toBeUndefined();
      expect(JSON.parse(keptAnswerText((await keyRow(key))!))).toEqual(later.body);
    } finally {
      offsetMs = 0;
    }
  });

  it("runs as before without the header", async () => {
    const from = nextAddress();
    const body = intake("NoKey");
    expect((await call(app, "POST", "/api/clients", { from, body })).status).toBe(201);
    expect((await call(app, "POST", "/api/clients", { from, body })).status).toBe(201);
    expect(await countClients("NoKey")).toBe(2);
  });
});

describe("Idempotency-Key on POST /api/consent", () => {
  it("records one consent however often it is sent", async () => {
    const from = nextAddress();
    const created = await call<Created>(app, "POST", "/api/clients", {
      from,
      body: intake("Consent"),
    });
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const body = {
      clientId: created.body.client.id,
      type: "SMS",
      statement: "Texts OK",
      target: "555-300-4000",
      consentGiven: true,
    };
    const first = await call(app, "POST", "/api/consent", { from, body, headers });
    expect(first.status).toBe(201);
    const replay = await call(app, "POST", "/api/consent", { from, body, headers });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    const rows = await app.db.selectFrom("consentRecords").select("id")
      .where("clientId", "=", created.body.client.id).execute();
    expect(rows.length).toBe(1);
  });
});

describe("Idempotency-Key on the kiosk's writes", () => {
  it("answers a kiosk intake's replay with its client, not 'already submitted', and its consent once", async () => {
    const kiosk = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: maria.id });
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const body = intake("KioskIntake");
    const first = await call<Created>(app, "POST", "/api/clients", {
      cookie: kiosk,
      body,
      headers,
    });
    expect(first.status).toBe(201);
    const replay = await call<Created>(app, "POST", "/api/clients", {
      cookie: kiosk,
      body,
      headers,
    });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    // A new key is a new intake, which the kiosk's one write refuses.
    const second = await call(app, "POST", "/api/clients", {
      cookie: kiosk,
      body,
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    expect(second.status).toBe(403);
    expect(await countClients("KioskIntake")).toBe(1);

    const consentHeaders = { "Idempotency-Key": crypto.randomUUID() };
    const consent = {
      clientId: first.body.client.id,
      type: "EMAIL",
      statement: "Mail OK",
      target: "ida@example.com",
      consentGiven: true,
    };
    const c1 = await call(app, "POST", "/api/consent", {
      cookie: kiosk,
      body: consent,
      headers: consentHeaders,
    });
    const c2 = await call(app, "POST", "/api/consent", {
      cookie: kiosk,
      body: consent,
      headers: consentHeaders,
    });
    expect([c1.status, c2.status]).toEqual([201, 201]);
    expect(c2.body).toEqual(c1.body);
    const rows = await app.db.selectFrom("consentRecords").select("id")
      .where("clientId", "=", first.body.client.id).execute();
    expect(rows.length).toBe(1);
  });

  it("answers a replayed kiosk confirmation with the confirmed quote, accepted once", async () => {
    const { quoteId, optionIds } = await insertSavedQuote(app.db);
    const kiosk = await kioskCookieFor(app.db, {
      kind: "QUOTE",
      quoteId,
      handedOverBy: maria.id,
    });
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const body = {
      version: 1,
      options: [{ id: optionIds[0], isChosen: false }, { id: optionIds[1], isChosen: true }],
    };
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        call<TabletQuote>(app, "PUT", `/api/quotes/${quoteId}`, { cookie: kiosk, body, headers })
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const a of answers.filter((a) => a.status !== 200)) expect(a.status).toBe(409);
    for (const a of ok) expect(a.body).toEqual(ok[0].body);
    expect(ok[0].body.version).toBe(2);
    const later = await call<TabletQuote>(app, "PUT", `/api/quotes/${quoteId}`, {
      cookie: kiosk,
      body,
      headers,
    });
    expect(later.status).toBe(200);
    expect(later.body).toEqual(ok[0].body);
    const accepts = await app.db.selectFrom("auditLog").select("id")
      .where("entityId", "=", quoteId).where("action", "=", "quote.accept").execute();
    expect(accepts.length).toBe(1);
    const quote = await app.db.selectFrom("quotes").select(["status", "version"])
      .where("id", "=", quoteId).executeTakeFirstOrThrow();
    expect(quote).toEqual({ status: "ACCEPTED", version: 2 });
  });

  it("answers a staff tablet selection's replay from the store", async () => {
    const { quoteId, optionIds } = await insertSavedQuote(app.db);
    const cookie = await sessionCookieFor(app.db, maria.id);
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const body = {
      version: 1,
      options: [{ id: optionIds[0], isChosen: true }, { id: optionIds[1], isChosen: false }],
    };
    const first = await call(app, "PUT", `/api/quotes/${quoteId}`, { cookie, body, headers });
    expect(first.status).toBe(200);
    const replay = await call(app, "PUT", `/api/quotes/${quoteId}`, { cookie, body, headers });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    // Without the key the same body is a stale save.
    const again = await call(app, "PUT", `/api/quotes/${quoteId}`, { cookie, body });
    expect(again.status).toBe(409);
  });
});
