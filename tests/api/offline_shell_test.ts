// One engine: the service worker and what it may keep, decided by headers.
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

  it("may keep the signed-out intake page and the kiosk's intake shell, never a staff member's or the tablet's", async () => {
    const signedOut = await call(app, "GET", "/intake", { headers: html });
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers.get("x-offline-shell")).toBe("intake");
    const kiosk = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: maria.id });
    // The kiosk's page names who handed the tablet over: its shell is kept instead.
    const kioskPage = await call(app, "GET", "/intake", { headers: html, cookie: kiosk });
    expect(kioskPage.headers.get("x-offline-shell")).toBeNull();
    const kioskShell = await call(app, "GET", "/intake?shell=1", { headers: html, cookie: kiosk });
    expect(kioskShell.headers.get("x-offline-shell")).toBe("intake");
    expect(kioskShell.text).not.toContain("maria_sw");

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

describe("the tablet's offline shell (/tablet/{id}?shell=1)", () => {
  /** The island's props as the page carries them. */
  function islandProps(page: string): Record<string, unknown> {
    const id = page.match(/data-island="TabletSelect" data-props="([^"]+)"/)?.[1];
    const json = page.match(new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`))
      ?.[1];
    return JSON.parse(json ?? "null");
  }

  it("may be kept, staff preview or kiosk: the page and the store's wording, no quote and no client", async () => {
    const { quoteId } = await insertSavedQuote(app.db, {
      firstName: "Shellington",
      options: [
        { label: "Walnut Everyday", sku: "SKU-WALNUT-1", price: "187.43" },
        { label: "Quartz Sport", sku: "SKU-QUARTZ-2", price: "151.29" },
      ],
    });
    const { quoteNumber } = await app.db.selectFrom("quotes").select("quoteNumber")
      .where("id", "=", quoteId).executeTakeFirstOrThrow();
    const clientData = [
      "Shellington",
      quoteNumber,
      "Walnut Everyday",
      "Quartz Sport",
      "Ray-Ban",
      "SKU-WALNUT-1",
      "187.43",
      "151.29",
      ...Object.values(STAFF_ONLY),
    ];
    const staff = await sessionCookieFor(app.db, maria.id);
    const kiosk = await kioskCookieFor(app.db, { kind: "QUOTE", quoteId, handedOverBy: maria.id });

    // The page itself has the client on it (so it is never kept).
    const full = await call(app, "GET", `/tablet/${quoteId}`, { headers: html, cookie: staff });
    expect(full.text).toContain("Shellington");
    expect(full.text).toContain("Walnut Everyday");

    for (const [who, cookie] of [["staff", staff], ["kiosk", kiosk]]) {
      const shell = await call(app, "GET", `/tablet/${quoteId}?shell=1`, {
        headers: html,
        cookie,
      });
      expect([who, shell.status]).toEqual([who, 200]);
      expect([who, shell.headers.get("x-offline-shell")]).toEqual([who, "tablet"]);
      expect(shell.headers.get("cache-control")).toBe("no-store");
      expect(shell.text).toContain('data-island="TabletSelect"');
      for (const word of clientData) expect([who, shell.text.includes(word)]).toEqual([who, false]);
      const props = islandProps(shell.text);
      expect(props.quote).toBeNull();
      expect(props.branding).toEqual({
        storeName: expect.any(String),
        logoUrl: expect.any(String),
      });
      if (who === "kiosk") {
        // A kiosk's, with no staff member's name: staff type theirs to return.
        expect(props.kiosk).toEqual({ staff: null, completed: false });
        expect(shell.text).not.toContain("maria_sw");
      } else expect(props.kiosk).toBeNull();
    }
  });

  it("is not given where the page is not: signed out, or a kiosk of another quote", async () => {
    const { quoteId } = await insertSavedQuote(app.db);
    const { quoteId: otherId } = await insertSavedQuote(app.db);
    const signedOut = await call(app, "GET", `/tablet/${quoteId}?shell=1`, { headers: html });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("x-offline-shell")).toBeNull();
    const kiosk = await kioskCookieFor(app.db, { kind: "QUOTE", quoteId, handedOverBy: maria.id });
    const other = await call(app, "GET", `/tablet/${otherId}?shell=1`, {
      headers: html,
      cookie: kiosk,
    });
    expect(other.status).toBe(403);
    expect(other.headers.get("x-offline-shell")).toBeNull();
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
