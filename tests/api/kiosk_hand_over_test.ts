// The kiosk API: handing a tablet to a client, taking it back, and its expiry.
import { describe, it } from "node:test";
import { expect } from "expect";
import {
  call,
  createTestUser,
  kioskCookieFor,
  sessionCookieFor,
  startTestApp,
} from "../helpers/test_app.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { hashToken } from "../../src/auth/session.ts";
import { claimKioskWrite, KIOSK_TTL_MS } from "../../src/kiosk/kiosk_session.ts";
import { admin, app, auditActions, cookieValue, handOverQuote, html } from "./kiosk_fixture.ts";
import { maria, setCookie, useKioskApp } from "./kiosk_fixture.ts";

useKioskApp();

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
