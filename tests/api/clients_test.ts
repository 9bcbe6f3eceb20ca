// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import type { TestApp } from "../helpers/test_app.ts";
import { call, createTestUser, sessionCookieFor, startTestApp } from "../helpers/test_app.ts";
import type { ClientDetail, ClientSummary, CreatedClient } from "../../src/clients/views.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp, cookie: string, staffId: string, walkInId: string;

useTestApp(async (started) => {
  ({ app } = started);
  const staff = await createTestUser(app.db, { firstName: "Maria" });
  staffId = staff.id;
  cookie = await sessionCookieFor(app.db, staff.id);
  const options = await app.db.insertInto("heardHowOptions").values([
    { label: "Walk-in", sortOrder: 2 },
    { label: "Google", sortOrder: 1 },
    { label: "Old flyer", sortOrder: 0, active: false },
  ]).returning(["id", "label"]).execute();
  walkInId = options.find((o) => o.label === "Walk-in")!.id;
});

const countRows = async (table: "clients" | "quotes" | "consentRecords") =>
  Number(
    (await app.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow()).n,
  );

async function createClient(body: Record<string, unknown>, asStaff = true) {
  const res = await call<CreatedClient>(app, "POST", "/api/clients", {
    body,
    cookie: asStaff ? cookie : undefined,
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body;
}

describe("public intake calls", () => {
  it("GET /api/settings gives the consent wording, defaulting to built-in text", async () => {
    const res = await call<{ smsConsentText: string; emailConsentText: string }>(
      app,
      "GET",
      "/api/settings",
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["emailConsentText", "smsConsentText"]);
    expect(res.body.smsConsentText).toContain("Lensdesk Optical");
    await app.db.updateTable("settings").set({ smsConsentText: "Texts OK from us." }).execute();
    const custom = await call<{ smsConsentText: string }>(app, "GET", "/api/settings");
    expect(custom.body.smsConsentText).toBe("Texts OK from us.");
    await app.db.updateTable("settings").set({ smsConsentText: null }).execute();
  });

  it("GET /api/heard-how-options lists active options in order", async () => {
    const res = await call(app, "GET", "/api/heard-how-options");
    expect(res.status).toBe(200);
    expect((res.body as unknown as Array<{ label: string }>).map((o) => o.label)).toEqual([
      "Google",
      "Walk-in",
    ]);
  });

  it("POST /api/clients signed out creates client, measurements and a DRAFT quote, answering ids only", async () => {
    const res = await call<CreatedClient>(app, "POST", "/api/clients", {
      body: {
        firstName: " Ana ",
        lastName: "Ruiz",
        email: "ana@example.com",
        mobilePhone: "(555) 010-2030",
        dob: "1988-04-02",
        state: "tx",
        heardHowId: walkInId,
        smsConsent: true,
      },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["client", "quote"]);
    expect(Object.keys(res.body.client)).toEqual(["id"]);
    expect(Object.keys(res.body.quote)).toEqual(["id"]);
    const client = await app.db.selectFrom("clients").selectAll()
      .where("id", "=", res.body.client.id).executeTakeFirstOrThrow();
    expect(client).toMatchObject({
      firstName: "Ana",
      state: "TX",
      heardHowId: walkInId,
      smsConsent: true,
      emailConsent: false,
    });
    expect(client.consentDate).not.toBeNull();
    const m = await app.db.selectFrom("clientMeasurements").selectAll()
      .where("clientId", "=", client.id).executeTakeFirstOrThrow();
    expect(m.measurementsComplete).toBe(false);
    const quote = await app.db.selectFrom("quotes").selectAll()
      .where("id", "=", res.body.quote.id).executeTakeFirstOrThrow();
    expect(quote).toMatchObject({ clientId: client.id, status: "DRAFT", createdBy: null });
    expect(quote.quoteNumber).toMatch(/^Q-\d{6}$/);
    const days = (quote.expiresAt!.getTime() - quote.createdAt.getTime()) / 86_400_000;
    expect(days).toBe(30);
    const options = await app.db.selectFrom("quoteOptions").select("position")
      .where("quoteId", "=", quote.id).execute();
    expect(options).toEqual([{ position: 0 }]);
  });

  it("keeps the Other answer and its text (heardHowId reads back as 'other')", async () => {
    const { client } = await createClient(
      { firstName: "Bo", lastName: "Lee", heardHowId: "other", heardHowText: "Radio ad" },
      false,
    );
    const res = await call<ClientDetail>(app, "GET", `/api/clients/${client.id}`, { cookie });
    expect(res.body).toMatchObject({
      heardHowId: "other",
      heardHowText: "Radio ad",
      heardHow: "Other: Radio ad",
    });
  });

  it("follows the expiry settings", async () => {
    await app.db.updateTable("settings").set({ quoteExpirationDays: 10 }).execute();
    const ten = await createClient({ firstName: "A", lastName: "Ten" });
    await app.db.updateTable("settings").set({ quoteExpirationEnabled: false }).execute();
    const never = await createClient({ firstName: "A", lastName: "Never" });
    await app.db.updateTable("settings").set({
      quoteExpirationEnabled: true,
      quoteExpirationDays: 30,
    }).execute();
    const q = (id: string) =>
      app.db.selectFrom("quotes").select(["createdAt", "expiresAt"]).where("id", "=", id)
        .executeTakeFirstOrThrow();
    const a = await q(ten.quote.id);
    expect((a.expiresAt!.getTime() - a.createdAt.getTime()) / 86_400_000).toBe(10);
    expect((await q(never.quote.id)).expiresAt).toBeNull();
  });

  it("bad input gets a clear 400 and writes nothing", async () => {
    const before = await Promise.all([countRows("clients"), countRows("quotes")]);
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{}, { firstName: "First name is required", lastName: "Last name is required" }],
      [{ firstName: "  ", lastName: "\t" }, {
        firstName: "First name is required",
        lastName: "Last name is required",
      }],
      [{ firstName: "A", lastName: "B", email: "not-an-email" }, {
        email: "Please enter a valid email address",
      }],
      [{ firstName: 5, lastName: ["B"] }, {
        firstName: "First name is required",
        lastName: "Last name is required",
      }],
      [{ firstName: "A", lastName: "B", state: "Texas" }, { state: "Please choose a US state" }],
      [{ firstName: "A", lastName: "B", dob: "2999-01-01" }, {
        dob: "Please enter a valid date of birth",
      }],
      [{ firstName: "A", lastName: "B", dob: "1990-02-31" }, {
        dob: "Please enter a valid date of birth",
      }],
      [{ firstName: "A", lastName: "B", heardHowId: "drop table" }, {
        heardHowId: "Please choose an option from the list",
      }],
      [{ firstName: "A", lastName: "B", heardHowId: crypto.randomUUID() }, {
        heardHowId: "Please choose an option from the list",
      }],
      [{ firstName: "A", lastName: "B", smsConsent: "yes" }, {}],
    ];
    for (const [body, errors] of cases) {
      const res = await call<{ message: string; errors: Record<string, string> }>(
        app,
        "POST",
        "/api/clients",
        { body, cookie },
      );
      expect(res.status).toBe(400);
      expect(res.body.message.length).toBeGreaterThan(0);
      expect(res.body.errors).toMatchObject(errors);
    }
    expect(await Promise.all([countRows("clients"), countRows("quotes")])).toEqual(before);
  });

  it("limits signed-out intake submissions per address, not staff", async () => {
    const limited = await startTestApp();
    try {
      for (let i = 0; i < 20; i++) {
        const res = await call(limited, "POST", "/api/clients", {
          body: { firstName: "Flood", lastName: String(i) },
        });
        expect(res.status).toBe(201);
      }
      const refused = await call<{ message: string }>(limited, "POST", "/api/clients", {
        body: { firstName: "Flood", lastName: "21" },
      });
      expect(refused.status).toBe(429);
      expect(refused.body.message).toBe(
        "Too many intake forms from this device. Please ask your optician for help.",
      );
      const staff = await createTestUser(limited.db);
      const ok = await call(limited, "POST", "/api/clients", {
        body: { firstName: "Staff", lastName: "Add" },
        cookie: await sessionCookieFor(limited.db, staff.id),
      });
      expect(ok.status).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

describe("POST /api/consent", () => {
  it("records a signed-out intake's consents once per channel for the client's own contact", async () => {
    const { client } = await createClient(
      { firstName: "Cy", lastName: "Park", email: "cy@example.com", homePhone: "555-010-9999" },
      false,
    );
    const sms = await call(app, "POST", "/api/consent", {
      body: {
        clientId: client.id,
        type: "SMS",
        statement: "Texts OK",
        target: "555-010-9999",
        consentGiven: true,
      },
    });
    expect(sms.status).toBe(201);
    // The spec's other field names are accepted too.
    const email = await call(app, "POST", "/api/consent", {
      body: {
        clientId: client.id,
        consentType: "EMAIL",
        consentText: "Mail OK",
        target: "CY@example.com",
        consentGiven: true,
      },
    });
    expect(email.status).toBe(201);
    const again = await call(app, "POST", "/api/consent", {
      body: { clientId: client.id, type: "SMS", statement: "x", target: "5550109999" },
    });
    expect(again.status).toBe(409);
    const rows = await app.db.selectFrom("consentRecords")
      .select(["consentType", "statement", "target", "consentGiven"])
      .where("clientId", "=", client.id).orderBy("consentType").execute();
    expect(rows).toEqual([
      { consentType: "EMAIL", statement: "Mail OK", target: "CY@example.com", consentGiven: true },
      { consentType: "SMS", statement: "Texts OK", target: "555-010-9999", consentGiven: true },
    ]);
  });

  it("refuses a wrong target, an unknown client and a stale intake with one same answer", async () => {
    const { client } = await createClient({ firstName: "Di", lastName: "Ng", email: "di@x.co" });
    const wrong = await call<{ message: string }>(app, "POST", "/api/consent", {
      body: { clientId: client.id, type: "EMAIL", statement: "Mail OK", target: "evil@x.co" },
    });
    const refusal = {
      message: "The consent target must be the client's e-mail address",
      errors: { target: "The consent target must be the client's e-mail address" },
    };
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(refusal);
    // An id no client has answers exactly as a wrong target does: the public
    // call cannot tell anyone which client ids exist.
    const unknown = await call(app, "POST", "/api/consent", {
      body: { clientId: crypto.randomUUID(), type: "EMAIL", statement: "s", target: "a@b.co" },
    });
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(refusal);
    const unknownRight = await call(app, "POST", "/api/consent", {
      body: { clientId: crypto.randomUUID(), type: "EMAIL", statement: "s", target: "di@x.co" },
    });
    expect([unknownRight.status, unknownRight.body]).toEqual([400, refusal]);
    const missing = await call(app, "POST", "/api/consent", {
      body: { clientId: client.id, target: "di@x.co" },
    });
    expect(missing.status).toBe(400);
    await sql`update clients set created_at = now() - interval '1 hour' where id = ${client.id}`
      .execute(app.db);
    const late = await call(app, "POST", "/api/consent", {
      body: { clientId: client.id, type: "EMAIL", statement: "Mail OK", target: "di@x.co" },
    });
    expect([late.status, late.body]).toEqual([400, refusal]);
    const byStaff = await call(app, "POST", "/api/consent", {
      body: { clientId: client.id, type: "EMAIL", statement: "Mail OK", target: "di@x.co" },
      cookie,
    });
    expect(byStaff.status).toBe(201);
  });
});

describe("staff-only client calls", () => {
  it("answer 401 without a session", async () => {
    const id = crypto.randomUUID();
    const calls: Array<[string, string, unknown?]> = [
      ["GET", "/api/clients"],
      ["GET", "/api/clients/search?q=ana"],
      ["GET", "/api/clients/missing-measurements"],
      ["GET", `/api/clients/${id}`],
      ["PUT", `/api/clients/${id}`, { email: "a@b.co" }],
      ["DELETE", `/api/clients/${id}`],
      ["PUT", `/api/clients/${id}/measurements`, {
        pdBinocular: "62",
        pdNear: "60",
        measurementsComplete: true,
      }],
      ["POST", "/api/quotes", { clientId: id }],
    ];
    for (const [method, path, body] of calls) {
      const res = await call<{ message: string }>(app, method, path, { body });
      expect([method, path, res.status]).toEqual([method, path, 401]);
      expect(res.body.message).toContain("Unauthorized");
    }
  });
});

describe("listing and searching clients", () => {
  let listApp: TestApp;
  let listCookie: string;
  before(async () => {
    listApp = await startTestApp();
    const u = await createTestUser(listApp.db);
    listCookie = await sessionCookieFor(listApp.db, u.id);
    const base = Date.now() - 100 * 60_000;
    const people = [
      ["Ana", "Ruiz", "ana.ruiz@example.com", "(555) 010-2030", null],
      ["Ben", "Okafor", "ben@example.com", null, "555.010.4455"],
      ["Carla", "Ruiz-Mendez", null, "555-777-0000", null],
      ["Dana", "Smith", "dsmith@example.com", null, null],
    ] as const;
    for (const [i, [firstName, lastName, email, mobilePhone, homePhone]] of people.entries()) {
      const c = await listApp.db.insertInto("clients").values({
        firstName,
        lastName,
        email,
        mobilePhone,
        homePhone,
        createdAt: new Date(base + i * 60_000),
      }).returning("id").executeTakeFirstOrThrow();
      const measurement = [
        { pdBinocular: "62", pdNear: "59", measurementsComplete: true },
        { pdBinocular: "61", pdNear: "0", measurementsComplete: false },
        { pdBinocular: "0", pdNear: "0", measurementsComplete: false },
        null,
      ][i];
      if (measurement) {
        await listApp.db.insertInto("clientMeasurements").values({ clientId: c.id, ...measurement })
          .execute();
      }
    }
  });
  after(() => listApp.close());

  const list = (path: string) =>
    call<ClientSummary[]>(listApp, "GET", path, { cookie: listCookie });
  const names = (rows: ClientSummary[]) => rows.map((r) => r.firstName);

  it("lists newest first with the measurement status", async () => {
    const res = await list("/api/clients");
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(["Dana", "Carla", "Ben", "Ana"]);
    expect(res.body.map((r) => r.measurementStatus)).toEqual([
      "NONE",
      "NONE",
      "PENDING",
      "COMPLETE",
    ]);
    expect(res.body[0].createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("pages with limit and offset, and rejects nonsense paging", async () => {
    expect(names((await list("/api/clients?limit=2")).body)).toEqual(["Dana", "Carla"]);
    expect(names((await list("/api/clients?limit=2&offset=2")).body)).toEqual(["Ben", "Ana"]);
    expect((await list("/api/clients?limit=0")).status).toBe(400);
    expect((await list("/api/clients?offset=-1")).status).toBe(400);
    expect((await list("/api/clients?limit=abc")).status).toBe(400);
  });

  it("filters clients whose measurements are missing", async () => {
    expect(names((await list("/api/clients/missing-measurements")).body)).toEqual([
      "Dana",
      "Carla",
      "Ben",
    ]);
    expect(names((await list("/api/clients?filter=missing")).body)).toEqual([
      "Dana",
      "Carla",
      "Ben",
    ]);
  });

  it("searches by name, e-mail and phone digits, every word having to match", async () => {
    expect(names((await list("/api/clients/search?q=ruiz")).body)).toEqual(["Ana", "Carla"]);
    expect(names((await list("/api/clients/search?q=ana%20ruiz")).body)).toEqual(["Ana"]);
    expect(names((await list("/api/clients/search?q=DSMITH%40")).body)).toEqual(["Dana"]);
    expect(names((await list("/api/clients/search?q=5550102030")).body)).toEqual(["Ana"]);
    expect(names((await list("/api/clients/search?q=010-44")).body)).toEqual(["Ben"]);
    expect(names((await list("/api/clients/search?q=%25")).body)).toEqual([]);
    expect(names((await list("/api/clients/search?q=")).body).length).toBe(4);
  });
});

describe("one client", () => {
  it("GET /api/clients/{id} gives contact, consent, measurements and quotes; unknown is 404", async () => {
    const { client, quote } = await createClient({
      firstName: "Eve",
      lastName: "Stone",
      dob: "1975-12-31",
      heardHowId: walkInId,
      emailConsent: true,
      email: "eve@example.com",
    });
    const res = await call<ClientDetail>(app, "GET", `/api/clients/${client.id}`, { cookie });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: client.id,
      firstName: "Eve",
      dob: "1975-12-31",
      heardHow: "Walk-in",
      emailConsent: true,
      smsConsent: false,
      measurementStatus: "NONE",
      measurements: { pdBinocular: "0", pdNear: "0", measurementsComplete: false, extras: {} },
    });
    expect(res.body.consentDate).toMatch(/^\d{4}-/);
    expect(res.body.quotes.map((q) => [q.id, q.status])).toEqual([[quote.id, "DRAFT"]]);
    expect((await call(app, "GET", `/api/clients/${crypto.randomUUID()}`, { cookie })).status)
      .toBe(404);
    expect((await call(app, "GET", "/api/clients/not-a-uuid", { cookie })).status).toBe(404);
  });

  it("PUT /api/clients/{id} edits the fields, or the e-mail alone", async () => {
    const { client } = await createClient({ firstName: "Fay", lastName: "Wu", city: "Austin" });
    const full = await call<ClientDetail>(app, "PUT", `/api/clients/${client.id}`, {
      body: { firstName: "Faye", lastName: "Wu", city: "Dallas", state: "TX", zip: "75001" },
      cookie,
    });
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ firstName: "Faye", city: "Dallas", state: "TX" });
    const email = await call<ClientDetail>(app, "PUT", `/api/clients/${client.id}`, {
      body: { email: "faye@example.com" },
      cookie,
    });
    expect(email.body).toMatchObject({
      firstName: "Faye",
      city: "Dallas",
      email: "faye@example.com",
    });
    const bad = await call(app, "PUT", `/api/clients/${client.id}`, {
      body: { firstName: "", lastName: "Wu" },
      cookie,
    });
    expect(bad.status).toBe(400);
    const badEmail = await call(app, "PUT", `/api/clients/${client.id}`, {
      body: { email: "nope" },
      cookie,
    });
    expect(badEmail.status).toBe(400);
    const after = await call<ClientDetail>(app, "GET", `/api/clients/${client.id}`, { cookie });
    expect(after.body).toMatchObject({ firstName: "Faye", email: "faye@example.com" });
    const unknown = await call(app, "PUT", `/api/clients/${crypto.randomUUID()}`, {
      body: { email: "a@b.co" },
      cookie,
    });
    expect(unknown.status).toBe(404);
  });

  it("PUT measurements stores PDs, refuses impossible ones, and completes waiting quotes", async () => {
    const { client, quote } = await createClient({ firstName: "Gil", lastName: "Ray" });
    const second = await call<{ id: string }>(app, "POST", "/api/quotes", {
      body: { clientId: client.id },
      cookie,
    });
    await app.db.updateTable("quotes").set({ status: "PENDING_MEASUREMENTS" })
      .where("id", "=", quote.id).execute();
    const url = `/api/clients/${client.id}/measurements`;
    for (const bad of ["abc", "-1", "95", "62.55", "9O"]) {
      const res = await call<{ errors: Record<string, string> }>(app, "PUT", url, {
        body: { pdBinocular: bad, pdNear: "60", measurementsComplete: true },
        cookie,
      });
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(res.body.errors.pdBinocular).toMatch(/between 0 and 90/);
    }
    expect((await call(app, "PUT", url, { body: { pdBinocular: "62" }, cookie })).status).toBe(400);
    let status = await app.db.selectFrom("quotes").select("status").where("id", "=", quote.id)
      .executeTakeFirstOrThrow();
    expect(status.status).toBe("PENDING_MEASUREMENTS");

    const partial = await call(app, "PUT", url, {
      body: { pdBinocular: "62.5", pdNear: 60, measurementsComplete: false },
      cookie,
    });
    expect(partial.body).toEqual({
      pdBinocular: "62.5",
      pdNear: "60",
      measurementsComplete: false,
      extras: {},
    });
    status = await app.db.selectFrom("quotes").select("status").where("id", "=", quote.id)
      .executeTakeFirstOrThrow();
    expect(status.status).toBe("PENDING_MEASUREMENTS");

    const done = await call(app, "PUT", url, {
      body: { pdBinocular: "63", pdNear: "60.5", measurementsComplete: true },
      cookie,
    });
    expect(done.status).toBe(200);
    const quotes = await app.db.selectFrom("quotes").select(["id", "status", "version"])
      .where("clientId", "=", client.id).execute();
    const byId = Object.fromEntries(quotes.map((q) => [q.id, q]));
    expect(byId[quote.id]).toMatchObject({ status: "ACTIVE", version: 2 });
    expect(byId[second.body.id]).toMatchObject({ status: "DRAFT", version: 1 });
    const detail = await call<ClientDetail>(app, "GET", `/api/clients/${client.id}`, { cookie });
    expect(detail.body.measurementStatus).toBe("COMPLETE");
    const unknown = await call(app, "PUT", `/api/clients/${crypto.randomUUID()}/measurements`, {
      body: { pdBinocular: "62", pdNear: "60", measurementsComplete: true },
      cookie,
    });
    expect(unknown.status).toBe(404);
  });

  it("POST /api/quotes makes a numbered DRAFT for the client", async () => {
    const { client } = await createClient({ firstName: "Hal", lastName: "Ito" });
    const res = await call<{ id: string; quoteNumber: string }>(app, "POST", "/api/quotes", {
      body: { clientId: client.id },
      cookie,
    });
    expect(res.status).toBe(201);
    expect(res.body.quoteNumber).toMatch(/^Q-\d{6}$/);
    const row = await app.db.selectFrom("quotes").select(["status", "createdBy", "clientId"])
      .where("id", "=", res.body.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "DRAFT", createdBy: staffId, clientId: client.id });
    expect(
      (await call(app, "POST", "/api/quotes", { body: { clientId: crypto.randomUUID() }, cookie }))
        .status,
    ).toBe(404);
    expect((await call(app, "POST", "/api/quotes", { body: { clientId: "x" }, cookie })).status)
      .toBe(400);
  });

  it("DELETE removes the client with everything it owns and records who did it", async () => {
    const { client, quote } = await createClient({
      firstName: "Ivy",
      lastName: "Gone",
      email: "ivy@example.com",
      emailConsent: true,
    });
    await call(app, "POST", "/api/consent", {
      body: { clientId: client.id, type: "EMAIL", statement: "ok", target: "ivy@example.com" },
      cookie,
    });
    const res = await call(app, "DELETE", `/api/clients/${client.id}`, { cookie });
    expect(res.status).toBe(200);
    for (
      const [table, column] of [
        ["clients", "id"],
        ["quotes", "clientId"],
        ["clientMeasurements", "clientId"],
        ["consentRecords", "clientId"],
      ] as const
    ) {
      // deno-lint-ignore no-explicit-any
      const rows = await (app.db.selectFrom(table) as any).select(column)
        .where(column, "=", client.id).execute();
      expect([table, rows.length]).toEqual([table, 0]);
    }
    const options = await app.db.selectFrom("quoteOptions").select("id")
      .where("quoteId", "=", quote.id).execute();
    expect(options).toEqual([]);
    const audit = await app.db.selectFrom("auditLog").selectAll()
      .where("action", "=", "client.delete").where("entityId", "=", client.id)
      .executeTakeFirstOrThrow();
    expect(audit.userId).toBe(staffId);
    expect(audit.details).toMatchObject({ name: "Ivy Gone" });
    expect((await call(app, "DELETE", `/api/clients/${client.id}`, { cookie })).status).toBe(404);
  });
});
