import { describe, it } from "node:test";
import { expect } from "expect";
import {
  call,
  type CallResult,
  createTestUser,
  kioskCookieFor,
  sessionCookieFor,
  startTestApp,
  type TestApp,
  type TestUser,
} from "../helpers/test_app.ts";
import { insertSavedQuote, STAFF_ONLY } from "../helpers/quote_fixture.ts";
import { hashToken } from "../../src/auth/session.ts";
import { claimKioskWrite, KIOSK_TTL_MS } from "../../src/kiosk/kiosk_session.ts";
import type { TabletQuote } from "../../components/tablet/tablet_view.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp, maria: TestUser, admin: TestUser;

useTestApp(async (started) => {
  ({ app } = started);
  maria = await createTestUser(app.db, { username: "maria", firstName: "Maria" });
  admin = await createTestUser(app.db, { username: "adele", role: "OWNER" });
});

/** The `name=value` of a Set-Cookie line for `name`, with its attributes. */
function setCookie(res: CallResult, name: string): string | undefined {
  return res.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

function cookieValue(line: string | undefined): string {
  const value = /^[^=]+=([^;]*)/.exec(line ?? "")?.[1];
  if (!value) throw new Error(`no cookie value in ${line}`);
  return value;
}

const html = { accept: "text/html" };

async function auditActions(entityId: string) {
  const rows = await app.db.selectFrom("auditLog").select(["action", "actor", "details"])
    .where("entityId", "=", entityId).orderBy("id").execute();
  return rows;
}

async function handOverQuote(quoteId: string, user = maria) {
  const staffCookie = await sessionCookieFor(app.db, user.id);
  const res = await call<{ location: string }>(app, "POST", "/api/kiosk/hand-over", {
    body: { kind: "QUOTE", quoteId },
    cookie: staffCookie,
  });
  expect(res.status).toBe(201);
  return {
    res,
    staffCookie,
    kiosk: `lensdesk_kiosk=${cookieValue(setCookie(res, "lensdesk_kiosk"))}`,
  };
}

describe("Hand to client (POST /api/kiosk/hand-over)", () => {
  it("swaps the browser from the staff session to a scoped, short-lived kiosk cookie", async () => {
    const { quoteId } = await insertSavedQuote(app.db);
    const started = Date.now();
    const { res, staffCookie, kiosk } = await handOverQuote(quoteId);
    expect(res.body).toEqual({ location: `/tablet/${quoteId}` });

    // Whatever staff pages the browser cached are dropped with the staff session.
    expect(res.headers.get("clear-site-data")).toBe('"cache"');
    const kioskLine = setCookie(res, "lensdesk_kiosk")!;
    expect(kioskLine).toMatch(/HttpOnly/i);
    expect(kioskLine).toMatch(/SameSite=Strict/i);
    expect(kioskLine).toMatch(/Path=\//);
    const expires = Date.parse(/Expires=([^;]+)/i.exec(kioskLine)![1]);
    expect(expires).toBeGreaterThan(started + KIOSK_TTL_MS - 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + KIOSK_TTL_MS + 1000);
    // Only the token's hash is stored, as for staff sessions.
    const token = kiosk.split("=")[1];
    expect(token.length).toBeGreaterThanOrEqual(26);
    const row = await app.db.selectFrom("kioskSessions").selectAll()
      .where("id", "=", hashToken(token)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: "QUOTE", quoteId, handedOverBy: maria.id, clientId: null });
    expect(
      await app.db.selectFrom("kioskSessions").select("id").where("id", "=", token)
        .executeTakeFirst(),
    ).toBeUndefined();

    // The staff session is ended, not parked: its cookie is cleared and it
    // no longer works from anywhere.
    expect(setCookie(res, "lensdesk_session")).toMatch(/Max-Age=0/);
    const staffToken = staffCookie.split("=")[1];
    expect(
      await app.db.selectFrom("sessions").select("id").where("id", "=", hashToken(staffToken))
        .executeTakeFirst(),
    ).toBeUndefined();
    expect((await call(app, "GET", "/api/auth/user", { cookie: staffCookie })).status).toBe(401);

    const audit = await auditActions(quoteId);
    expect(audit.map((a) => a.action)).toContain("kiosk.start");
    expect(audit.find((a) => a.action === "kiosk.start")!.actor).toBe("maria");
  });

  it("hands over a new intake", async () => {
    const staffCookie = await sessionCookieFor(app.db, maria.id);
    const res = await call(app, "POST", "/api/kiosk/hand-over", {
      body: { kind: "INTAKE" },
      cookie: staffCookie,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ location: "/intake" });
    const token = cookieValue(setCookie(res, "lensdesk_kiosk"));
    const row = await app.db.selectFrom("kioskSessions").selectAll()
      .where("id", "=", hashToken(token)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: "INTAKE", quoteId: null, handedOverBy: maria.id });
  });

  it("needs a staff session, and a quote the client can confirm", async () => {
    const anonymous = await call(app, "POST", "/api/kiosk/hand-over", { body: { kind: "INTAKE" } });
    expect(anonymous.status).toBe(401);

    const staffCookie = await sessionCookieFor(app.db, maria.id);
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ kind: "QUOTE", quoteId: crypto.randomUUID() }, 404, /Quote not found/],
      [{ kind: "QUOTE", quoteId: "not-a-uuid" }, 400, /quoteId/],
      [{ kind: "QUOTE" }, 400, /quoteId/],
      [{ kind: "ADMIN" }, 400, /kind/],
      [{}, 400, /kind/],
    ];
    for (const [body, status, message] of cases) {
      const res = await call<{ message: string }>(app, "POST", "/api/kiosk/hand-over", {
        body,
        cookie: staffCookie,
      });
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), status]);
      expect(res.body.message).toMatch(message);
    }
    const blocked: [Parameters<typeof insertSavedQuote>[1], RegExp][] = [
      [{ status: "CLOSED" }, /closed/],
      [{ status: "FINALIZED" }, /finalized/],
      [{ status: "DRAFT" }, /Save the quote/],
      [{ expiresAt: new Date(Date.now() - 60_000) }, /expired/],
    ];
    for (const [init, message] of blocked) {
      const { quoteId } = await insertSavedQuote(app.db, init);
      const res = await call<{ message: string }>(app, "POST", "/api/kiosk/hand-over", {
        body: { kind: "QUOTE", quoteId },
        cookie: staffCookie,
      });
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(message);
      expect(setCookie(res, "lensdesk_kiosk")).toBeUndefined();
    }
    // Refused hand-overs leave the staff member signed in.
    expect((await call(app, "GET", "/api/auth/user", { cookie: staffCookie })).status).toBe(200);
  });

  it("uses the __Host- prefix and Secure behind an https APP_URL", async () => {
    const secure = await startTestApp({ APP_URL: "https://store.example" });
    try {
      const user = await createTestUser(secure.db);
      const token = (await sessionCookieFor(secure.db, user.id)).split("=")[1];
      const res = await call(secure, "POST", "/api/kiosk/hand-over", {
        body: { kind: "INTAKE" },
        cookie: `__Host-lensdesk_session=${token}`,
      });
      expect(res.status).toBe(201);
      const line = setCookie(res, "__Host-lensdesk_kiosk")!;
      expect(line).toMatch(/Secure/);
      expect(line).toMatch(/SameSite=Strict/i);
      const kiosk = `__Host-lensdesk_kiosk=${cookieValue(line)}`;
      expect((await call(secure, "GET", "/api/heard-how-options", { cookie: kiosk })).status)
        .toBe(200);
      expect((await call(secure, "GET", "/api/clients", { cookie: kiosk })).status).toBe(403);
    } finally {
      await secure.close();
    }
  });
});

/** Every staff page and API a kiosk must not reach, as [method, path, body?]. */
function outOfScope(quoteId: string, otherQuoteId: string, otherOptionId: string) {
  return [
    ["GET", "/api/clients?limit=200"],
    ["GET", "/api/clients"],
    ["GET", "/api/clients/search?q=Jane"],
    ["GET", "/api/clients/missing-measurements"],
    ["GET", `/api/quotes/${quoteId}`],
    ["GET", `/api/quotes/${otherQuoteId}`],
    ["PUT", `/api/quotes/${otherQuoteId}`, {
      version: 1,
      options: [{ id: otherOptionId, isChosen: true }],
    }],
    ["GET", "/api/quotes"],
    ["GET", "/api/quotes/recent"],
    ["GET", "/api/stats"],
    ["GET", `/api/quotes/${quoteId}/pdf`],
    ["POST", `/api/quotes/${quoteId}/close`, { reason: "walked out" }],
    ["POST", `/api/quotes/${quoteId}/email`, { email: "a@b.test", note: "" }],
    ["POST", "/api/quotes", { clientId: crypto.randomUUID() }],
    ["GET", "/api/catalog/packages"],
    ["GET", "/api/search?q=Jane"],
    ["GET", "/api/auth/user"],
    ["PUT", "/api/auth/change-password", { currentPassword: "x", newPassword: "yyyyyyyy" }],
    ["POST", "/api/staff/login", { username: "maria", password: maria.password }],
    ["GET", "/api/staff/logout"],
    ["GET", "/api/logout"],
    ["POST", "/api/kiosk/hand-over", { kind: "INTAKE" }],
    ["GET", "/api/admin/users"],
    ["POST", "/api/admin/users/invite", {
      email: "x@y.test",
      firstName: "X",
      lastName: "Y",
      username: "intruder",
      password: "secret123",
      role: "OWNER",
    }],
    ["GET", "/api/admin/settings"],
    ["PUT", "/api/admin/settings", { storeName: "Pwned" }],
    ["GET", "/api/admin/oauth2-status"],
    ["POST", "/api/admin/packages", { name: "Free", price: 0 }],
    ["POST", "/api/email-banner/dismiss"],
  ] as const;
}

const STAFF_PAGES = [
  "/",
  "/dashboard",
  "/clients",
  "/quotes",
  "/admin",
  "/admin/users",
  "/admin/settings",
  "/staff",
  "/staff?returnTo=%2Fclients",
  "/forgot-password",
  "/no-such-page",
];

function expectKioskNotice(res: CallResult, home: string) {
  expect(res.status).toBe(403);
  expect(res.headers.get("content-type")).toContain("text/html");
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.text).toContain("This page is not available on this tablet");
  expect(res.text).toContain(`href="${home}"`);
  // No staff bar, no way into staff screens, no sign-in form.
  expect(res.text).not.toContain("topbar");
  expect(res.text).not.toContain("returnTo");
  expect(res.text).not.toContain('href="/"');
  expect(res.text).not.toContain('href="/staff');
  expect(res.text).not.toContain("Staff Portal");
}

describe("a quote kiosk", () => {
  it("may open its tablet page, its client copy and its client-safe quote, with no staff data", async () => {
    const { quoteId } = await insertSavedQuote(app.db);
    const { kiosk } = await handOverQuote(quoteId);

    const page = await call(app, "GET", `/tablet/${quoteId}`, { cookie: kiosk, headers: html });
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.text).toContain("Select Your Preferred Options");
    expect(page.text).toMatch(/<body class="kiosk[^"]*">/);
    expect(page.text).not.toContain("topbar");
    expect(page.text).not.toContain("skip-link");
    expect(page.text).not.toMatch(/href="\/(?!static|tablet|quote\/[^"]+\/client-print)/);

    const view = await call<TabletQuote>(app, "GET", "/api/kiosk/quote", { cookie: kiosk });
    expect(view.status).toBe(200);
    expect(view.body.id).toBe(quoteId);
    // Titled by the option's label, as the client sees them (issue 36).
    expect(view.body.options.map((o) => o.title)).toEqual(["Everyday", "Sport Pair"]);

    const print = await call(app, "GET", `/quote/${quoteId}/client-print`, {
      cookie: kiosk,
      headers: html,
    });
    expect(print.status).toBe(200);
    expect(print.text).toContain(`href="/tablet/${quoteId}"`);
    expect(print.text).not.toContain("Internal Copy");

    for (const res of [page, view]) {
      for (const secret of Object.values(STAFF_ONLY)) expect(res.text).not.toContain(secret);
      expect(res.text).not.toContain("internalNotes");
    }
    // The client copy: the client's own details, never the internal notes.
    expect(print.text).toContain("Jane Doe");
    expect(print.text).not.toContain(STAFF_ONLY.internalNotes);
  });

  it("is refused every other API with 403 and every other page with the kiosk notice", async () => {
    const { quoteId } = await insertSavedQuote(app.db);
    const other = await insertSavedQuote(app.db, { firstName: "Otto" });
    const { kiosk } = await handOverQuote(quoteId);

    for (const [method, path, body] of outOfScope(quoteId, other.quoteId, other.optionIds[0])) {
      const res = await call<{ message: string }>(app, method, path, { cookie: kiosk, body });
      expect([method, path, res.status]).toEqual([method, path, 403]);
      expect(res.body.message).toMatch(/client mode/);
      // Nothing a client should read: not another client, not the staff bundle.
      expect(res.text).not.toContain("Otto");
      expect(res.text).not.toContain(STAFF_ONLY.internalNotes);
    }
    for (
      const path of [
        ...STAFF_PAGES,
        "/intake",
        `/quote/${quoteId}`,
        `/print/${quoteId}`,
        `/print/${quoteId}?external=true`,
        `/tablet/${other.quoteId}`,
        `/quote/${other.quoteId}/client-print`,
        `/tablet/${quoteId.toUpperCase()}`,
        `/tablet/${quoteId}/`,
      ]
    ) {
      const res = await call(app, "GET", path, { cookie: kiosk, headers: html });
      expectKioskNotice(res, `/tablet/${quoteId}`);
      expect(res.text).not.toContain("Otto");
    }
    // Nothing was changed by the refused writes.
    const otherState = await app.db.selectFrom("quoteOptions").select("isChosen")
      .where("quoteId", "=", other.quoteId).execute();
    expect(otherState.every((o) => !o.isChosen)).toBe(true);
    const settings = await app.db.selectFrom("settings").select("storeName").executeTakeFirst();
    expect(settings?.storeName).not.toBe("Pwned");
    expect(
      await app.db.selectFrom("users").select("id").where("username", "=", "intruder")
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it("GET /api/kiosk/quote is the kiosk's alone: 403 for staff, 401 signed out", async () => {
    const staff = await sessionCookieFor(app.db, maria.id);
    expect((await call(app, "GET", "/api/kiosk/quote", { cookie: staff })).status).toBe(403);
    expect((await call(app, "GET", "/api/kiosk/quote")).status).toBe(401);
  });

  it("stays a kiosk even when a staff cookie is sent along", async () => {
    const { quoteId } = await insertSavedQuote(app.db);
    const { kiosk } = await handOverQuote(quoteId);
    const staff = await sessionCookieFor(app.db, admin.id);
    const res = await call(app, "GET", "/api/clients?limit=200", { cookie: `${staff}; ${kiosk}` });
    expect(res.status).toBe(403);
  });

  it("saves the selection once, answering with the client's view; then no more writes", async () => {
    const { quoteId, optionIds } = await insertSavedQuote(app.db);
    const { kiosk } = await handOverQuote(quoteId);
    const selection = {
      version: 1,
      options: [{ id: optionIds[0], isChosen: false }, { id: optionIds[1], isChosen: true }],
    };
    // Bad input is a 400 and does not use up the kiosk's one save.
    const bad = await call(app, "PUT", `/api/quotes/${quoteId}`, {
      cookie: kiosk,
      body: { version: 1, options: [{ id: optionIds[0], isChosen: false }] },
    });
    expect(bad.status).toBe(400);

    const saved = await call<TabletQuote>(app, "PUT", `/api/quotes/${quoteId}`, {
      cookie: kiosk,
      body: selection,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.options.map((o) => o.isChosen)).toEqual([false, true]);
    expect(saved.body.version).toBe(2);
    for (const secret of Object.values(STAFF_ONLY)) expect(saved.text).not.toContain(secret);
    const quote = await app.db.selectFrom("quotes").select("status").where("id", "=", quoteId)
      .executeTakeFirstOrThrow();
    expect(quote.status).toBe("ACCEPTED");
    const accept = (await auditActions(quoteId)).find((a) => a.action === "quote.accept")!;
    expect(accept.actor).toBe("kiosk (handed over by maria)");

    // Confirmed: further changes are refused, however they are sent.
    const again = await call<{ message: string }>(app, "PUT", `/api/quotes/${quoteId}`, {
      cookie: kiosk,
      body: { version: 2, options: [{ id: optionIds[0], isChosen: true }, selection.options[1]] },
    });
    expect(again.status).toBe(403);
    expect(again.body.message).toMatch(/already been confirmed/);
    const chosen = await app.db.selectFrom("quoteOptions").select("isChosen")
      .where("quoteId", "=", quoteId).orderBy("position").execute();
    expect(chosen.map((o) => o.isChosen)).toEqual([false, true]);

    // The page now opens on the thank-you, with the staff return form.
    const page = await call(app, "GET", `/tablet/${quoteId}`, { cookie: kiosk, headers: html });
    expect(page.status).toBe(200);
    expect(page.text).toContain('"completed":true');
    expect(page.text).toContain("Thank You!");
  });

  it("a refused save (stale version) leaves the one save for a retry", async () => {
    const { quoteId, optionIds } = await insertSavedQuote(app.db);
    const { kiosk } = await handOverQuote(quoteId);
    await app.db.updateTable("quotes").set({ version: 2 }).where("id", "=", quoteId).execute();
    const body = (version: number) => ({
      version,
      options: [{ id: optionIds[0], isChosen: true }, { id: optionIds[1], isChosen: false }],
    });
    const stale = await call(app, "PUT", `/api/quotes/${quoteId}`, {
      cookie: kiosk,
      body: body(1),
    });
    expect(stale.status).toBe(409);
    const retry = await call(app, "PUT", `/api/quotes/${quoteId}`, {
      cookie: kiosk,
      body: body(2),
    });
    expect(retry.status).toBe(200);
  });

  it("lets only one of two simultaneous confirmations through", async () => {
    const { quoteId, optionIds } = await insertSavedQuote(app.db);
    const { kiosk } = await handOverQuote(quoteId);
    const body = {
      version: 1,
      options: [{ id: optionIds[0], isChosen: true }, { id: optionIds[1], isChosen: true }],
    };
    const answers = await Promise.all(
      [1, 2].map(() => call(app, "PUT", `/api/quotes/${quoteId}`, { cookie: kiosk, body })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403]);
    const quote = await app.db.selectFrom("quotes").select("version").where("id", "=", quoteId)
      .executeTakeFirstOrThrow();
    expect(quote.version).toBe(2);
  });
});

describe("an intake kiosk", () => {
  async function intakeKiosk() {
    return await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: maria.id });
  }
  const client = { firstName: "Kim", lastName: "Kiosk", mobilePhone: "555-100-2000" };

  it("may read the form's choices and wording, and open /intake without staff chrome", async () => {
    const kiosk = await intakeKiosk();
    expect((await call(app, "GET", "/api/settings", { cookie: kiosk })).status).toBe(200);
    expect((await call(app, "GET", "/api/heard-how-options", { cookie: kiosk })).status).toBe(200);
    const page = await call(app, "GET", "/intake", { cookie: kiosk, headers: html });
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-island="IntakeForm"');
    expect(page.text).toMatch(/<body class="kiosk[^"]*">/);
    expect(page.text).not.toContain("topbar");
    expect(page.text).not.toContain("email-banner");
    expect(page.text).not.toContain('data-island="HandToClient"');
    expect(page.text).not.toMatch(/href="\/(?!static)/);
  });

  it("creates one client for the staff member who handed it over, then nothing more", async () => {
    const kiosk = await intakeKiosk();
    // Before there is a client there is nothing to record consent for.
    const early = await call(app, "POST", "/api/consent", {
      cookie: kiosk,
      body: {
        clientId: crypto.randomUUID(),
        type: "SMS",
        statement: "ok",
        target: "555-100-2000",
        consentGiven: true,
      },
    });
    expect(early.status).toBe(403);
    // Invalid input does not use up the intake.
    const invalid = await call(app, "POST", "/api/clients", {
      cookie: kiosk,
      body: { firstName: "", lastName: "" },
    });
    expect(invalid.status).toBe(400);

    const created = await call<{ client: { id: string }; quote: { id: string } }>(
      app,
      "POST",
      "/api/clients",
      { cookie: kiosk, body: { ...client, smsConsent: true } },
    );
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(["client", "quote"]);
    const quote = await app.db.selectFrom("quotes").select(["createdBy", "clientId"])
      .where("id", "=", created.body.quote.id).executeTakeFirstOrThrow();
    expect(quote).toEqual({ createdBy: maria.id, clientId: created.body.client.id });
    const audit = (await auditActions(created.body.client.id))[0];
    expect(audit.actor).toBe("kiosk (handed over by maria)");

    const second = await call<{ message: string }>(app, "POST", "/api/clients", {
      cookie: kiosk,
      body: { firstName: "Second", lastName: "Client" },
    });
    expect(second.status).toBe(403);
    expect(second.body.message).toMatch(/already been submitted/);
    expect(
      await app.db.selectFrom("clients").select("id").where("firstName", "=", "Second")
        .executeTakeFirst(),
    ).toBeUndefined();

    // Its consent records: for its own client, once per channel; no one else's.
    const consent = (clientId: string) => ({
      clientId,
      type: "SMS",
      statement: "We may text you.",
      target: "555-100-2000",
      consentGiven: true,
    });
    const own = await call(app, "POST", "/api/consent", {
      cookie: kiosk,
      body: consent(created.body.client.id),
    });
    expect(own.status).toBe(201);
    const twice = await call(app, "POST", "/api/consent", {
      cookie: kiosk,
      body: consent(created.body.client.id),
    });
    expect(twice.status).toBe(409);
    const other = await insertSavedQuote(app.db);
    const foreign = await call(app, "POST", "/api/consent", {
      cookie: kiosk,
      body: { ...consent(other.clientId), target: STAFF_ONLY.clientPhone },
    });
    expect(foreign.status).toBe(403);

    // What it created is not readable from the kiosk either.
    for (
      const path of [
        `/api/clients/${created.body.client.id}`,
        `/api/quotes/${created.body.quote.id}`,
        "/api/clients?limit=200",
      ]
    ) {
      expect((await call(app, "GET", path, { cookie: kiosk })).status).toBe(403);
    }
    const page = await call(app, "GET", "/intake", { cookie: kiosk, headers: html });
    expect(page.text).toContain('"completed":true');
  });

  it("lets only one of two simultaneous intakes through", async () => {
    const kiosk = await intakeKiosk();
    const answers = await Promise.all(
      ["Twin", "Twin"].map((firstName) =>
        call(app, "POST", "/api/clients", {
          cookie: kiosk,
          body: { firstName, lastName: "Race" },
        })
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 403]);
    const rows = await app.db.selectFrom("clients").select("id").where("lastName", "=", "Race")
      .execute();
    expect(rows.length).toBe(1);
  });

  it("is refused staff pages, other APIs and the tablet", async () => {
    const kiosk = await intakeKiosk();
    const other = await insertSavedQuote(app.db, { firstName: "Otto" });
    for (
      const [method, path, body] of outOfScope(other.quoteId, other.quoteId, other.optionIds[0])
    ) {
      const res = await call(app, method, path, { cookie: kiosk, body });
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
    expect((await call(app, "GET", "/api/kiosk/quote", { cookie: kiosk })).status).toBe(403);
    for (const path of [...STAFF_PAGES, `/tablet/${other.quoteId}`, `/quote/${other.quoteId}`]) {
      expectKioskNotice(
        await call(app, "GET", path, { cookie: kiosk, headers: html }),
        "/intake",
      );
    }
  });
});

describe("returning to staff (POST /api/kiosk/return)", () => {
  it("refuses a wrong password and keeps the kiosk; the right one gives a fresh staff session on the quote", async () => {
    const { quoteId } = await insertSavedQuote(app.db);
    const { kiosk } = await handOverQuote(quoteId);

    const wrong = await call<{ message: string }>(app, "POST", "/api/kiosk/return", {
      cookie: kiosk,
      body: { username: "maria", password: "not it" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe("Invalid username or password");
    expect(setCookie(wrong, "lensdesk_session")).toBeUndefined();
    expect((await call(app, "GET", "/api/clients", { cookie: kiosk })).status).toBe(403);
    const failed = await app.db.selectFrom("auditLog").select(["action", "details"])
      .where("entityId", "=", maria.id).where("action", "=", "auth.kiosk_return_failed").execute();
    expect(failed.length).toBe(1);

    const back = await call<{ returnTo: string }>(app, "POST", "/api/kiosk/return", {
      cookie: kiosk,
      body: { username: " Maria ", password: maria.password },
    });
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ returnTo: `/quote/${quoteId}` });
    expect(setCookie(back, "lensdesk_kiosk")).toMatch(/Max-Age=0/);
    const session = `lensdesk_session=${cookieValue(setCookie(back, "lensdesk_session"))}`;
    const me = await call<{ username: string }>(app, "GET", "/api/auth/user", { cookie: session });
    expect(me.body.username).toBe("maria");
    expect((await call(app, "GET", "/api/clients?limit=200", { cookie: session })).status)
      .toBe(200);

    // The kiosk is over: its cookie is now just an unknown one.
    expect(
      await app.db.selectFrom("kioskSessions").select("id")
        .where("id", "=", hashToken(kiosk.split("=")[1])).executeTakeFirst(),
    ).toBeUndefined();
    const stale = await call(app, "GET", `/tablet/${quoteId}`, { cookie: kiosk, headers: html });
    expect(stale.status).toBe(302);
    expect(stale.headers.get("location")).toMatch(/^\/staff\?returnTo=/);

    const logins = await app.db.selectFrom("auditLog").select(["details"])
      .where("entityId", "=", maria.id).where("action", "=", "auth.login").execute();
    expect(logins.some((l) => (l.details as { via?: string }).via === "kiosk")).toBe(true);
  });

  it("takes any staff member's username and password", async () => {
    const { quoteId } = await insertSavedQuote(app.db);
    const { kiosk } = await handOverQuote(quoteId);
    const back = await call<{ returnTo: string }>(app, "POST", "/api/kiosk/return", {
      cookie: kiosk,
      body: { username: admin.username, password: admin.password },
    });
    expect(back.status).toBe(200);
    expect(back.body.returnTo).toBe(`/quote/${quoteId}`);
    const session = `lensdesk_session=${cookieValue(setCookie(back, "lensdesk_session"))}`;
    const me = await call<{ username: string }>(app, "GET", "/api/auth/user", { cookie: session });
    expect(me.body.username).toBe(admin.username);
  });

  it("lands on the new client's quote after an intake, or on /intake when none was sent", async () => {
    const kiosk = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: maria.id });
    const created = await call<{ quote: { id: string } }>(app, "POST", "/api/clients", {
      cookie: kiosk,
      body: { firstName: "Lena", lastName: "Landing" },
    });
    const back = await call(app, "POST", "/api/kiosk/return", {
      cookie: kiosk,
      body: { username: "maria", password: maria.password },
    });
    expect(back.body).toEqual({ returnTo: `/quote/${created.body.quote.id}` });

    const unused = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: maria.id });
    const back2 = await call(app, "POST", "/api/kiosk/return", {
      cookie: unused,
      body: { username: "maria", password: maria.password },
    });
    expect(back2.body).toEqual({ returnTo: "/intake" });
  });

  it("is throttled with the staff sign-in's own counters, 429 with Retry-After", async () => {
    const victim = await createTestUser(app.db, { username: "kioskvictim" });
    const kiosk = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: victim.id });
    for (let i = 0; i < 5; i++) {
      const res = await call(app, "POST", "/api/kiosk/return", {
        cookie: kiosk,
        body: { username: "kioskvictim", password: `guess${i}` },
      });
      expect(res.status).toBe(401);
    }
    const locked = await call<{ message: string }>(app, "POST", "/api/kiosk/return", {
      cookie: kiosk,
      body: { username: "KioskVictim", password: victim.password },
    });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/^Too many failed sign-in attempts/);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(800);
    expect(setCookie(locked, "lensdesk_session")).toBeUndefined();
    // One set of counters: the guesses on the tablet lock the account at sign-in too.
    const login = await call(app, "POST", "/api/staff/login", {
      body: { username: "kioskvictim", password: victim.password },
    });
    expect(login.status).toBe(429);
  });

  it("after the kiosk has expired it is a plain sign-in that lands on the dashboard", async () => {
    const back = await call(app, "POST", "/api/kiosk/return", {
      body: { username: "maria", password: maria.password },
    });
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ returnTo: "/dashboard" });
    expect(setCookie(back, "lensdesk_session")).toMatch(/HttpOnly/i);
  });

  it("gives bad input a 400", async () => {
    const kiosk = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: maria.id });
    for (const body of [{}, { username: "maria" }, { username: "", password: "x" }, "nope"]) {
      const res = await call(app, "POST", "/api/kiosk/return", { cookie: kiosk, body });
      expect(res.status).toBe(400);
    }
  });
});

describe("kiosk expiry", () => {
  it("an expired kiosk can do nothing it could: the cookie is dropped, its row deleted", async () => {
    const { quoteId, optionIds } = await insertSavedQuote(app.db);
    const { kiosk } = await handOverQuote(quoteId);
    const id = hashToken(kiosk.split("=")[1]);
    await app.db.updateTable("kioskSessions").set({ expiresAt: new Date(Date.now() - 1000) })
      .where("id", "=", id).execute();

    const save = await call(app, "PUT", `/api/quotes/${quoteId}`, {
      cookie: kiosk,
      body: { version: 1, options: optionIds.map((o) => ({ id: o, isChosen: true })) },
    });
    expect(save.status).toBe(401);
    expect(setCookie(save, "lensdesk_kiosk")).toMatch(/Max-Age=0/);
    expect(
      await app.db.selectFrom("kioskSessions").select("id").where("id", "=", id)
        .executeTakeFirst(),
    ).toBeUndefined();
    expect((await call(app, "GET", "/api/kiosk/quote", { cookie: kiosk })).status).toBe(401);
    const page = await call(app, "GET", `/tablet/${quoteId}`, { cookie: kiosk, headers: html });
    expect(page.status).toBe(302);
    const quote = await app.db.selectFrom("quotes").select("status").where("id", "=", quoteId)
      .executeTakeFirstOrThrow();
    expect(quote.status).toBe("ACTIVE");
  });

  it("a kiosk cannot be claimed for a write once past its expiry, even mid-request", async () => {
    const kiosk = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: maria.id });
    const id = hashToken(kiosk.split("=")[1]);
    expect(await claimKioskWrite(app.db, id, new Date(Date.now() + KIOSK_TTL_MS + 1000))).toBe(
      false,
    );
    expect(await claimKioskWrite(app.db, id)).toBe(true);
    expect(await claimKioskWrite(app.db, id)).toBe(false);
  });
});
