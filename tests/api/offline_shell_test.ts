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
import { insertSavedQuote, STAFF_ONLY } from "../helpers/quote_fixture.ts";
import type { TabletQuote } from "../../components/tablet/tablet_view.ts";
import { useTestApp } from "../helpers/suite.ts";

// What the tablets' service worker (static/sw.js) relies on from the server,
// and the staff tablet's client view (`?view=tablet`).

let app: TestApp;
let maria: TestUser;

useTestApp(async (started) => {
  ({ app } = started);
  maria = await createTestUser(app.db, { username: "maria_sw", firstName: "Maria" });
});

const html = { accept: "text/html" };

describe("the service worker", () => {
  it("is served as JavaScript, scoped to the whole site, checked for updates on each visit", async () => {
    const res = await fetch(`${app.baseUrl}/static/sw.js`);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(res.headers.get("service-worker-allowed")).toBe("/");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(text).toContain('self.addEventListener("fetch"');
  });

  it("is allowed by every page's CSP (worker-src 'self')", async () => {
    const res = await call(app, "GET", "/intake", { headers: html });
    expect(res.headers.get("content-security-policy")).toContain("worker-src 'self'");
  });

  it("may keep the signed-out and kiosk intake page, never a staff member's or the tablet's", async () => {
    const signedOut = await call(app, "GET", "/intake", { headers: html });
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers.get("x-offline-shell")).toBe("intake");
    const kiosk = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: maria.id });
    const kioskPage = await call(app, "GET", "/intake", { headers: html, cookie: kiosk });
    expect(kioskPage.headers.get("x-offline-shell")).toBe("intake");

    const staff = await sessionCookieFor(app.db, maria.id);
    const staffPage = await call(app, "GET", "/intake", { headers: html, cookie: staff });
    expect(staffPage.status).toBe(200);
    expect(staffPage.headers.get("x-offline-shell")).toBeNull();
    const { quoteId } = await insertSavedQuote(app.db);
    const tablet = await call(app, "GET", `/tablet/${quoteId}`, { headers: html, cookie: staff });
    expect(tablet.status).toBe(200);
    expect(tablet.headers.get("x-offline-shell")).toBeNull();
  });
});

describe("the staff tablet's client view (?view=tablet)", () => {
  it("reads and saves the quote as the tablet shows it, with no staff-only data", async () => {
    const { quoteId, optionIds } = await insertSavedQuote(app.db);
    const cookie = await sessionCookieFor(app.db, maria.id);
    const read = await call<TabletQuote>(app, "GET", `/api/quotes/${quoteId}?view=tablet`, {
      cookie,
    });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: quoteId, version: 1, blocker: null });
    expect(read.body.options.map((o) => o.id)).toEqual(optionIds);
    for (const secret of Object.values(STAFF_ONLY)) expect(read.text).not.toContain(secret);

    const saved = await call<TabletQuote>(app, "PUT", `/api/quotes/${quoteId}?view=tablet`, {
      cookie,
      body: {
        version: 1,
        options: [{ id: optionIds[0], isChosen: true }, { id: optionIds[1], isChosen: false }],
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.version).toBe(2);
    expect(saved.body.options.map((o) => o.isChosen)).toEqual([true, false]);
    for (const secret of Object.values(STAFF_ONLY)) expect(saved.text).not.toContain(secret);
  });

  it("stays staff only", async () => {
    const { quoteId } = await insertSavedQuote(app.db);
    const res = await call(app, "GET", `/api/quotes/${quoteId}?view=tablet`);
    expect(res.status).toBe(401);
  });
});
