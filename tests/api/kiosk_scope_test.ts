// The kiosk API: what a quote kiosk and an intake kiosk may and may not reach.
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, kioskCookieFor, sessionCookieFor } from "../helpers/test_app.ts";
import { insertSavedQuote, STAFF_ONLY } from "../helpers/quote_fixture.ts";
import type { TabletQuote } from "../../components/tablet/tablet_view.ts";
import { admin, app, auditActions, expectKioskNotice, handOverQuote } from "./kiosk_fixture.ts";
import { html, maria, outOfScope, STAFF_PAGES, useKioskApp } from "./kiosk_fixture.ts";

useKioskApp();

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
    // Titled by the option's label, as the client sees them.
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
