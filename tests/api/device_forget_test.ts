// What the server asks of a browser when a staff or kiosk session ends
// (Clear-Site-Data, and the cookie that makes the next page clear the app's
// stores), and that the pages the tablets' service worker may keep offline
// name no staff member: not the signed-in user, not the one who handed the
// tablet over, not the quote's optician.
import { describe, it } from "node:test";
import { createNamedStaff, STAFF_NAMES, staffNamesIn } from "../helpers/staff_names.ts";
import { expect } from "expect";
import {
  call,
  kioskCookieFor,
  sessionCookieFor,
  type TestApp,
  type TestUser,
} from "../helpers/test_app.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { useTestApp } from "../helpers/suite.ts";
import { type AssetManifest, readManifest } from "../../src/assets/manifest.ts";
import { FORGET_COOKIE } from "../../src/http/device_forget.ts";

let app: TestApp;
let staff: TestUser;
let manifest: AssetManifest;

useTestApp(async (started) => {
  ({ app } = started);
  manifest = await readManifest();
  staff = await createNamedStaff(app.db);
});

const html = { accept: "text/html" };
const forgetLine = (headers: Headers) =>
  headers.getSetCookie().find((line) => line.startsWith(`${FORGET_COOKIE}=`));

describe("sign-out", () => {
  for (const [path, home] of [["/api/staff/logout", "/staff"], ["/api/logout", "/"]]) {
    it(`${path} answers with Clear-Site-Data "cache" and asks the next page to clear the device`, async () => {
      const cookie = await sessionCookieFor(app.db, staff.id);
      const res = await call(app, "GET", path, {
        cookie,
        headers: { "sec-fetch-site": "same-origin", "sec-fetch-mode": "navigate" },
      });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(home);
      // "cache" only: "storage" would also delete an intake still waiting to be sent.
      expect(res.headers.get("clear-site-data")).toBe('"cache"');
      const line = forgetLine(res.headers);
      expect(line).toMatch(new RegExp(`^${FORGET_COOKIE}=1;`));
      expect(line).toMatch(/; Path=\//);
      expect(line).toMatch(/; Max-Age=\d+/);
      // The page's script deletes it once the device is cleared.
      expect(line).not.toMatch(/HttpOnly/i);
      expect((await call(app, "GET", "/api/auth/user", { cookie })).status).toBe(401);
    });
  }

  it("refused from another site: the session stays, and nothing is cleared", async () => {
    const cookie = await sessionCookieFor(app.db, staff.id);
    const res = await call(app, "GET", "/api/staff/logout", {
      cookie,
      headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("clear-site-data")).toBeNull();
    expect(forgetLine(res.headers)).toBeUndefined();
  });

  it("the next page carries the script that clears the app's stores; other pages do not", async () => {
    const forget = manifest.scripts.forget;
    expect(forget).toMatch(/^\/static\/build\/_forget-[0-9a-f]{12}\.js$/);
    for (const path of ["/staff", "/", "/intake"]) {
      const after = await call(app, "GET", path, {
        headers: html,
        cookie: `${FORGET_COOKIE}=1`,
      });
      expect([path, after.status]).toEqual([path, 200]);
      expect([path, after.text.includes(`src="${forget}"`)]).toEqual([path, true]);
      const plain = await call(app, "GET", path, { headers: html });
      expect([path, plain.text.includes(forget)]).toEqual([path, false]);
    }
  });
});

describe("the end of a kiosk session", () => {
  it('POST /api/kiosk/return answers with Clear-Site-Data "cache", as the hand-over does', async () => {
    const kiosk = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: staff.id });
    const res = await call(app, "POST", "/api/kiosk/return", {
      cookie: kiosk,
      body: { username: staff.username, password: staff.password },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("clear-site-data")).toBe('"cache"');
  });
});

describe("the pages a tablet keeps offline", () => {
  it("the kiosk's intake shell names no staff; the kiosk's page itself, never kept, does", async () => {
    const kiosk = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: staff.id });
    const shell = await call(app, "GET", "/intake?shell=1", { headers: html, cookie: kiosk });
    expect(shell.status).toBe(200);
    expect(shell.headers.get("x-offline-shell")).toBe("intake");
    expect(shell.text).toContain('data-island="IntakeForm"');
    expect(staffNamesIn(shell.text)).toEqual([]);

    const page = await call(app, "GET", "/intake", { headers: html, cookie: kiosk });
    expect(page.headers.get("x-offline-shell")).toBeNull();
    expect(page.text).toContain(STAFF_NAMES.username);
  });

  it("the signed-out intake is kept as it is: it names no staff", async () => {
    for (const path of ["/intake", "/intake?shell=1"]) {
      const res = await call(app, "GET", path, { headers: html });
      expect([path, res.headers.get("x-offline-shell")]).toEqual([path, "intake"]);
      expect([path, staffNamesIn(res.text)]).toEqual([path, []]);
    }
  });

  it("a staff member's intake is never kept, shell or not", async () => {
    const cookie = await sessionCookieFor(app.db, staff.id);
    for (const path of ["/intake", "/intake?shell=1"]) {
      const res = await call(app, "GET", path, { headers: html, cookie });
      expect([path, res.status, res.headers.get("x-offline-shell")]).toEqual([path, 200, null]);
    }
  });

  it("the kiosk's tablet shell, and the kiosk's quote call, name no staff and no optician", async () => {
    const { quoteId } = await insertSavedQuote(app.db);
    const kiosk = await kioskCookieFor(app.db, { kind: "QUOTE", quoteId, handedOverBy: staff.id });
    const shell = await call(app, "GET", `/tablet/${quoteId}?shell=1`, {
      headers: html,
      cookie: kiosk,
    });
    expect(shell.status).toBe(200);
    expect(shell.headers.get("x-offline-shell")).toBe("tablet");
    expect(staffNamesIn(shell.text)).toEqual([]);
    // The quote the tablet keeps in IndexedDB while online is this call's answer.
    const quote = await call(app, "GET", "/api/kiosk/quote", { cookie: kiosk });
    expect(quote.status).toBe(200);
    expect(quote.text).toContain("Jane Doe");
    expect(staffNamesIn(quote.text)).toEqual([]);
  });
});
