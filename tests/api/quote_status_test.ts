// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
// The quote API: status changes, what finalizing freezes, the tablet's selection,
// option measurements and the dashboard's calls.
import { describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import { call, createTestUser, sessionCookieFor, startTestApp } from "../helpers/test_app.ts";
import type { QuoteBundle, QuoteSummary, SaveResult } from "../../src/quotes/views.ts";
import { app, cookie, newQuote, twoOptions, useQuotesApp } from "./quotes_fixture.ts";

useQuotesApp();

describe("status changes", () => {
  it("close needs a reason, is refused twice, and makes the quote read-only", async () => {
    const bundle = await newQuote(true);
    const url = `/api/quotes/${bundle.quote.id}`;
    const blank = await call<{ message: string }>(app, "POST", `${url}/close`, {
      body: { reason: "   " },
      cookie,
    });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe("Please provide a reason for closing the quote.");
    const closed = await call<QuoteBundle>(app, "POST", `${url}/close`, {
      body: { reason: "Bought elsewhere" },
      cookie,
    });
    expect(closed.status).toBe(200);
    expect(closed.body.quote).toMatchObject({
      status: "CLOSED",
      isClosed: true,
      closureReason: "Bought elsewhere",
    });
    expect((await call(app, "POST", `${url}/close`, { body: { reason: "x" }, cookie })).status)
      .toBe(409);
    const save = await call<{ message: string }>(app, "PUT", url, {
      body: twoOptions(closed.body),
      cookie,
    });
    expect(save.status).toBe(409);
    expect(save.body.message).toMatch(/closed/);
    const audit = await app.db.selectFrom("auditLog").select("details")
      .where("action", "=", "quote.close").where("entityId", "=", bundle.quote.id)
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ reason: "Bought elsewhere" });
  });

  it("reactivate gives an expired quote a new expiry from the settings, and reopens a closed one", async () => {
    const bundle = await newQuote(true);
    const url = `/api/quotes/${bundle.quote.id}`;
    const saved = await call<SaveResult>(app, "PUT", url, { body: twoOptions(bundle), cookie });
    expect((await call(app, "POST", `${url}/reactivate`, { cookie })).status).toBe(409);
    await sql`update quotes set expires_at = now() - interval '2 days' where id = ${bundle.quote.id}`
      .execute(app.db);
    const expired = await call<QuoteBundle>(app, "GET", url, { cookie });
    expect(expired.body.quote.isExpired).toBe(true);
    await app.db.updateTable("settings").set({ quoteExpirationDays: 14 }).execute();
    const res = await call<QuoteBundle>(app, "POST", `${url}/reactivate`, { cookie });
    await app.db.updateTable("settings").set({ quoteExpirationDays: 30 }).execute();
    expect(res.status).toBe(200);
    expect(res.body.quote).toMatchObject({ isExpired: false, status: saved.body.quote.status });
    const days = (Date.parse(res.body.quote.expiresAt!) - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(14);
    await call(app, "POST", `${url}/close`, { body: { reason: "Oops" }, cookie });
    // A closed quote that was never saved goes back to DRAFT.
    const draft = await newQuote(true);
    await call(app, "POST", `/api/quotes/${draft.quote.id}/close`, {
      body: { reason: "x" },
      cookie,
    });
    const back = await call<QuoteBundle>(app, "POST", `/api/quotes/${draft.quote.id}/reactivate`, {
      cookie,
    });
    expect(back.body.quote.status).toBe("DRAFT");
    const reopened = await call<QuoteBundle>(app, "POST", `${url}/reactivate`, { cookie });
    expect(reopened.body.quote).toMatchObject({ status: "ACTIVE", closureReason: null });
  });

  it("finalize works from ACTIVE and freezes the quote; not from DRAFT", async () => {
    const bundle = await newQuote(true);
    const url = `/api/quotes/${bundle.quote.id}`;
    expect((await call(app, "POST", `${url}/finalize`, { cookie })).status).toBe(409);
    const saved = await call<SaveResult>(app, "PUT", url, { body: twoOptions(bundle), cookie });
    const fin = await call<QuoteBundle>(app, "POST", `${url}/finalize`, { cookie });
    expect(fin.body.quote.status).toBe("FINALIZED");
    const edit = await call(app, "PUT", url, { body: twoOptions(fin.body), cookie });
    expect(edit.status).toBe(409);
    expect(saved.body.quote.version + 1).toBe(fin.body.quote.version);
  });
});

describe("finalized is final", () => {
  /** A finalized quote; `measured: false` then marks the client's measurements incomplete. */
  async function finalized(measured = true) {
    const bundle = await newQuote(true);
    const url = `/api/quotes/${bundle.quote.id}`;
    await call(app, "PUT", url, { body: twoOptions(bundle), cookie });
    const fin = await call<QuoteBundle>(app, "POST", `${url}/finalize`, { cookie });
    expect(fin.body.quote.status).toBe("FINALIZED");
    if (!measured) {
      await call(app, "PUT", `/api/clients/${bundle.client.id}/measurements`, {
        body: { pdBinocular: "62", pdNear: "59", measurementsComplete: false },
        cookie,
      });
    }
    return { url, bundle: fin.body };
  }
  const roleCookie = async (role: "ADMIN" | "OWNER") =>
    sessionCookieFor(app.db, (await createTestUser(app.db, { role })).id);

  it("refuses close, reactivate, save, selection and SEG/OC with 409 for every role", async () => {
    const roles = [cookie, await roleCookie("ADMIN"), await roleCookie("OWNER")];
    const { url, bundle } = await finalized();
    // Even expired: reactivating must not be a way back to work.
    await sql`update quotes set expires_at = now() - interval '1 day' where id = ${bundle.quote.id}`
      .execute(app.db);
    const optionId = bundle.options[0].id;
    for (const who of roles) {
      const answers = [
        await call<{ message: string }>(app, "POST", `${url}/close`, {
          body: { reason: "Changed mind" },
          cookie: who,
        }),
        await call<{ message: string }>(app, "POST", `${url}/reactivate`, { cookie: who }),
        await call<{ message: string }>(app, "PUT", url, { body: twoOptions(bundle), cookie: who }),
        await call<{ message: string }>(app, "PUT", url, {
          body: {
            version: bundle.quote.version,
            options: bundle.options.map((o) => ({ id: o.id, isChosen: true })),
          },
          cookie: who,
        }),
        await call<{ message: string }>(app, "PUT", `/api/quote-options/${optionId}/measurements`, {
          body: { segOc: "30/30" },
          cookie: who,
        }),
      ];
      expect(answers.map((a) => a.status)).toEqual([409, 409, 409, 409, 409]);
      for (const a of answers) expect(a.body.message).toMatch(/finalized/);
      expect(answers[0].body.message).toBe(
        "This quote is finalized and can no longer be changed. Only an owner can reopen it.",
      );
    }
    const after = await call<QuoteBundle>(app, "GET", url, { cookie });
    expect(after.body.quote).toMatchObject({ status: "FINALIZED", version: bundle.quote.version });
    expect(after.body.options.map((o) => o.frameMeasurements.segOc)).toEqual(
      bundle.options.map((o) => o.frameMeasurements.segOc),
    );
  });

  it("only an owner may reopen it, with a reason, back to work; it is audited", async () => {
    const admin = await roleCookie("ADMIN");
    const owner = await roleCookie("OWNER");
    const { url, bundle } = await finalized(false);
    for (const who of [cookie, admin]) {
      const refused = await call<{ message: string }>(app, "POST", `${url}/reopen`, {
        body: { reason: "Client changed lenses" },
        cookie: who,
      });
      expect([refused.status, refused.body.message]).toEqual([
        403,
        "Only an owner can reopen a finalized quote.",
      ]);
    }
    expect((await call(app, "POST", `${url}/reopen`, { body: { reason: "x" } })).status).toBe(401);
    const blank = await call<{ message: string; errors: Record<string, string> }>(
      app,
      "POST",
      `${url}/reopen`,
      { body: { reason: "  " }, cookie: owner },
    );
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual({
      reason: "Please provide a reason for reopening the quote.",
    });
    const reopened = await call<QuoteBundle>(app, "POST", `${url}/reopen`, {
      body: { reason: "Client changed lenses before ordering" },
      cookie: owner,
    });
    expect(reopened.status).toBe(200);
    // Measurements incomplete: back to waiting for them.
    expect(reopened.body.quote).toMatchObject({
      status: "PENDING_MEASUREMENTS",
      version: bundle.quote.version + 1,
    });
    const audit = await app.db.selectFrom("auditLog").select(["details", "userId"])
      .where("action", "=", "quote.reopen").where("entityId", "=", bundle.quote.id)
      .executeTakeFirstOrThrow();
    expect(audit.details).toEqual({
      reason: "Client changed lenses before ordering",
      status: { from: "FINALIZED", to: "PENDING_MEASUREMENTS" },
    });
    // Back to work: staff can save again; reopening an open quote is refused.
    expect((await call(app, "PUT", url, { body: twoOptions(reopened.body), cookie })).status)
      .toBe(200);
    const again = await call<{ message: string }>(app, "POST", `${url}/reopen`, {
      body: { reason: "again" },
      cookie: owner,
    });
    expect([again.status, again.body.message]).toEqual([
      409,
      "Only a finalized quote can be reopened.",
    ]);
    const measured = await finalized(true);
    const active = await call<QuoteBundle>(app, "POST", `${measured.url}/reopen`, {
      body: { reason: "Typo in the frame SKU" },
      cookie: owner,
    });
    expect(active.body.quote.status).toBe("ACTIVE");
    expect(
      (await call(app, "POST", `/api/quotes/${crypto.randomUUID()}/reopen`, {
        body: { reason: "x" },
        cookie: owner,
      })).status,
    ).toBe(404);
  });
});

describe("the tablet's selection", () => {
  it("sets isChosen on the options and makes the quote ACCEPTED", async () => {
    const bundle = await newQuote(true);
    const url = `/api/quotes/${bundle.quote.id}`;
    const saved = (await call<SaveResult>(app, "PUT", url, { body: twoOptions(bundle), cookie }))
      .body;
    const none = await call(app, "PUT", url, {
      body: {
        version: saved.quote.version,
        options: saved.options.map((o) => ({ id: o.id, isChosen: false })),
      },
      cookie,
    });
    expect(none.status).toBe(400);
    const res = await call<QuoteBundle>(app, "PUT", url, {
      body: {
        version: saved.quote.version,
        options: [{ id: saved.options[0].id, isChosen: false }, {
          id: saved.options[1].id,
          isChosen: true,
        }],
      },
      cookie,
    });
    expect(res.status).toBe(200);
    expect(res.body.quote.status).toBe("ACCEPTED");
    expect(res.body.options.map((o) => o.isChosen)).toEqual([false, true]);
    // Items and prices are untouched by a selection.
    expect(res.body.options[1].subtotal).toBe(saved.options[1].subtotal);
    const stale = await call(app, "PUT", url, {
      body: {
        version: saved.quote.version,
        options: [{ id: saved.options[0].id, isChosen: true }],
      },
      cookie,
    });
    expect(stale.status).toBe(409);
    const version = res.body.quote.version;
    const foreign = await call(app, "PUT", url, {
      body: { version, options: [{ id: crypto.randomUUID(), isChosen: true }] },
      cookie,
    });
    expect(foreign.status).toBe(400);
    const partial = await call<{ message: string }>(app, "PUT", url, {
      body: { version, options: [{ id: saved.options[0].id, isChosen: true }] },
      cookie,
    });
    expect(partial.status).toBe(400);
    expect(partial.body.message).toBe("Send the choice for every option of the quote");
    const noVersion = await call(app, "PUT", url, {
      body: { options: saved.options.map((o) => ({ id: o.id, isChosen: true })) },
      cookie,
    });
    expect(noVersion.status).toBe(400);
  });
});

describe("PUT /api/quote-options/{id}/measurements", () => {
  it("stores SEG/OC for a saved option; unknown option 404; bad body 400", async () => {
    const bundle = await newQuote();
    const id = bundle.options[0].id;
    const res = await call(app, "PUT", `/api/quote-options/${id}/measurements`, {
      body: { segOc: " 21/23 " },
      cookie,
    });
    expect(res.status).toBe(200);
    const after = await call<QuoteBundle>(app, "GET", `/api/quotes/${bundle.quote.id}`, { cookie });
    expect(after.body.frameMeasurements[id]).toEqual({ segOc: "21/23" });
    expect(
      (await call(app, "PUT", `/api/quote-options/${crypto.randomUUID()}/measurements`, {
        body: { segOc: "1" },
        cookie,
      })).status,
    ).toBe(404);
    expect(
      (await call(app, "PUT", `/api/quote-options/${id}/measurements`, { body: {}, cookie }))
        .status,
    ).toBe(400);
    await call(app, "POST", `/api/quotes/${bundle.quote.id}/close`, {
      body: { reason: "Done" },
      cookie,
    });
    const closed = await call<{ message: string }>(
      app,
      "PUT",
      `/api/quote-options/${id}/measurements`,
      { body: { segOc: "99" }, cookie },
    );
    expect(closed.status).toBe(409);
    expect(closed.body.message).toMatch(/closed/);
  });
});

describe("dashboard calls", () => {
  it("stats, recent and expired quotes with totals", async () => {
    const dash = await startTestApp();
    try {
      const u = await createTestUser(dash.db);
      const c = await sessionCookieFor(dash.db, u.id);
      const client = await dash.db.insertInto("clients").values({
        firstName: "Dee",
        lastName: "Ash",
      })
        .returning("id").executeTakeFirstOrThrow();
      await sql`insert into clients (first_name, last_name, created_at)
        values ('Old', 'Timer', now() - interval '3 days')`.execute(dash.db);
      let made = 0;
      const make = async (
        status: string,
        expiresDays: number | null,
        options: Array<[string, string, string, boolean]>,
      ) => {
        const q = await dash.db.insertInto("quotes").values({
          clientId: client.id,
          status: status as "ACTIVE",
          closureReason: status === "CLOSED" ? "done" : null,
          expiresAt: expiresDays === null ? null : new Date(Date.now() + expiresDays * 86_400_000),
        }).returning("id").executeTakeFirstOrThrow();
        // Distinct update times: "recent" must not depend on ids when times tie.
        await sql`update quotes set updated_at = now() + make_interval(secs => ${++made})
          where id = ${q.id}`.execute(dash.db);
        for (const [i, [subtotal, shipping, adj, chosen]] of options.entries()) {
          await dash.db.insertInto("quoteOptions").values({
            quoteId: q.id,
            position: i,
            subtotal,
            shipping,
            adjustmentAmount: adj,
            isChosen: chosen,
          }).execute();
        }
        return q.id;
      };
      await make("ACTIVE", 10, [["100.00", "0", "0", false], ["500.00", "0", "0", false]]);
      await make("PENDING_MEASUREMENTS", 10, [["100.00", "0", "0", false]]);
      const expiredId = await make("ACTIVE", -1, [["100.00", "15.00", "-25.00", true], [
        "200.10",
        "0",
        "0",
        true,
      ]]);
      await make("CLOSED", -1, [["1.00", "0", "0", false]]);
      await make("DRAFT", 10, []);
      const stats = await call(dash, "GET", "/api/stats", { cookie: c });
      expect(stats.body).toEqual({ activeQuotes: 2, newClients: 1 });
      const recent = await call<QuoteSummary[]>(dash, "GET", "/api/quotes/recent", { cookie: c });
      expect(recent.body.length).toBe(5);
      expect(recent.body[0]).toMatchObject({
        clientName: "Dee Ash",
        status: "DRAFT",
        total: "0.00",
      });
      const expired = await call<QuoteSummary[]>(dash, "GET", "/api/quotes/expired", { cookie: c });
      expect(expired.body.map((q) => [q.id, q.total])).toEqual([[expiredId, "290.10"]]);
      expect(expired.headers.get("x-total-count")).toBe("1");
      for (let i = 0; i < 6; i++) await make("EMAILED", -2 - i, [["10.00", "0", "0", false]]);
      const many = await call<QuoteSummary[]>(dash, "GET", "/api/quotes/expired", { cookie: c });
      expect(many.body.length).toBe(5);
      expect(many.headers.get("x-total-count")).toBe("7");
      for (const path of ["/api/stats", "/api/quotes/recent", "/api/quotes/expired"]) {
        expect((await call(dash, "GET", path)).status).toBe(401);
      }
    } finally {
      await dash.close();
    }
  });
});
