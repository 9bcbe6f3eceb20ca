// What a store tablet or a staff browser keeps of the clients it showed
// (IndexedDB, the service worker's Cache Storage, web storage), and that
// sign-out, the hand-over and the end of a kiosk session take it away again,
// all but an intake still waiting for the connection. Also: the offline pages
// the service worker keeps carry no staff member's name.
import { describe, it } from "node:test";
import { createNamedStaff, STAFF_NAMES, staffNamesIn } from "../helpers/staff_names.ts";
import { expect } from "expect";
import type { Browser, BrowserContext, Page } from "playwright-core";
import {
  kioskCookieFor,
  sessionCookieFor,
  type TestApp,
  type TestUser,
} from "../helpers/test_app.ts";
import { screenshotPath, TABLET_LANDSCAPE } from "../helpers/browser.ts";
import { waitUntil } from "../helpers/wait.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { useBrowserApp } from "../helpers/suite.ts";
import { SAVED_ON_DEVICE } from "../../components/offline/messages.ts";
import { KIOSK_WORK_WAITING } from "../../islands/KioskReturn.tsx";
import type { DB } from "../../src/db/database.ts";

let app: TestApp;
let browser: Browser;
let staff: TestUser;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  staff = await createNamedStaff(app.db, "OWNER");
});

async function newContext(init: { signedIn?: boolean; kioskCookie?: string } = {}) {
  const context = await browser.newContext({
    viewport: TABLET_LANDSCAPE,
    baseURL: app.baseUrl,
    hasTouch: true,
  });
  context.setDefaultTimeout(30_000);
  if (init.signedIn) {
    const cookie = await sessionCookieFor(app.db, staff.id);
    await context.addCookies([
      { name: "lensdesk_session", value: cookie.split("=")[1], url: app.baseUrl },
    ]);
  }
  if (init.kioskCookie) {
    const [name, value] = init.kioskCookie.split("=");
    await context.addCookies([{ name, value, url: app.baseUrl }]);
  }
  return context;
}

/** A page that records page errors; hydrated when it has islands. */
async function open(context: BrowserContext, path: string, problems: string[] = []) {
  const page = await context.newPage();
  page.on("pageerror", (err) => problems.push(`${path}: ${err.message}`));
  await page.goto(path);
  if (await page.locator("[data-island]").count()) {
    await page.waitForSelector("html[data-hydrated=true]");
  }
  return page;
}

interface DeviceContents {
  /** "database/store" → its entries. */
  indexedDB: Record<string, { key: string; value: unknown }[]>;
  /** Cache name → the addresses kept in it. */
  caches: Record<string, string[]>;
  localStorage: Record<string, string | null>;
  sessionStorage: Record<string, string | null>;
}

/** Everything this origin keeps in the browser, as a page of it lists it. */
function deviceContents(page: Page): Promise<DeviceContents> {
  return page.evaluate(async () => {
    const idb: Record<string, { key: string; value: unknown }[]> = {};
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(info.name!);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        idb[`${info.name}/${store}`] = await new Promise((resolve, reject) => {
          const tx = db.transaction(store);
          const keys = tx.objectStore(store).getAllKeys();
          const values = tx.objectStore(store).getAll();
          tx.oncomplete = () =>
            resolve(keys.result.map((key, i) => ({ key: String(key), value: values.result[i] })));
          tx.onerror = () => reject(tx.error);
        });
      }
      db.close();
    }
    const cached: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      cached[name] = (await (await caches.open(name)).keys()).map((req) => {
        const url = new URL(req.url);
        return url.pathname + url.search;
      });
    }
    const web = (storage: Storage) =>
      Object.fromEntries(
        Array.from({ length: storage.length }, (_, i) => storage.key(i)!)
          .map((key) => [key, storage.getItem(key)]),
      );
    return {
      indexedDB: idb,
      caches: cached,
      localStorage: web(localStorage),
      sessionStorage: web(sessionStorage),
    };
  });
}

/**
 * Ends a tab that is offline with work queued as a tab that dies does: its
 * renderer is crashed, then the page closed. A plain close lets the renderer
 * run on for a moment once its DevTools session is gone, and with it the
 * context's offline emulation: the page heard "online" and its resend reached
 * the server (a navigation away does the same, every time).
 */
async function endOffline(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const crashed = page.waitForEvent("crash");
  // Never answered: the renderer that would answer is gone.
  void cdp.send("Page.crash").catch(() => {});
  await crashed;
  await page.close();
}

const keptEntries = (contents: DeviceContents) => Object.values(contents.indexedDB).flat();
const keptKeys = (contents: DeviceContents) => keptEntries(contents).map((e) => e.key).sort();
const cachedPaths = (contents: DeviceContents) => Object.values(contents.caches).flat();

/** The text of every page and JSON answer in Cache Storage, by address. */
function cachedTexts(page: Page): Promise<Record<string, string>> {
  return page.evaluate(async () => {
    const texts: Record<string, string> = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys()) {
        const res = await cache.match(req);
        const type = res?.headers.get("content-type") ?? "";
        if (res && /html|json/.test(type)) texts[new URL(req.url).pathname] = await res.text();
      }
    }
    return texts;
  });
}

/** Waits until the service worker controls the page and keeps `path`. */
async function shellKept(page: Page, path: string) {
  await waitUntil(
    () =>
      page.evaluate(
        async (path) => !!navigator.serviceWorker.controller && !!(await caches.match(path)),
        path,
      ),
    `the service worker keeps ${path}`,
  );
}

async function keptHas(page: Page, key: string) {
  await waitUntil(
    async () => keptKeys(await deviceContents(page)).includes(key),
    `${key} is kept on the device`,
  );
}

/** The staff bar's Logout, then the sign-in page with the device cleared. */
async function signOutFromStaffBar(page: Page) {
  await page.getByText("Menu").click();
  const answer = page.waitForResponse("**/api/staff/logout");
  await page.getByRole("link", { name: "Logout" }).click();
  const headers = await (await answer).allHeaders();
  await page.waitForURL(`${app.baseUrl}/staff`);
  await page.waitForSelector("html[data-device-forgotten=true]");
  return headers;
}

async function staffTakeBack(page: Page) {
  const form = page.getByRole("region", { name: "For staff" });
  if (!await form.count()) {
    await page.getByRole("button", { name: "Staff: return to staff work" }).click();
  }
  await form.getByLabel("Username").fill(staff.username);
  await form.getByLabel("Password").fill(staff.password);
  await form.getByRole("button", { name: "Return to Staff Work" }).click();
}

async function expectNoStaffReturn(page: Page) {
  await expect(page.getByRole("button", { name: "Staff: return to staff work" }).count())
    .resolves.toBe(0);
  await expect(page.getByRole("region", { name: "For staff" }).count()).resolves.toBe(0);
}

const EMPTY = { indexedDB: [], caches: [], localStorage: {}, sessionStorage: {} };
const summary = (contents: DeviceContents) => ({
  indexedDB: keptEntries(contents),
  caches: cachedPaths(contents),
  localStorage: contents.localStorage,
  sessionStorage: contents.sessionStorage,
});

async function clientsNamed(db: DB, lastName: string) {
  return (await db.selectFrom("clients").select("id").where("lastName", "=", lastName).execute())
    .length;
}

describe("sign-out", () => {
  it("takes the client's quote off the device: IndexedDB, Cache Storage, web storage; Back shows none of it", async () => {
    const { quoteId } = await insertSavedQuote(app.db, { firstName: "Philippa" });
    const problems: string[] = [];
    const context = await newContext({ signedIn: true });
    // The staff member opens a client's quote, previews it on the tablet page
    // (the device keeps the client's view and the tablet's offline shell) and
    // starts an intake (its draft is kept).
    const page = await open(context, `/quote/${quoteId}`, problems);
    await page.getByText("Managing quote for Philippa Doe").waitFor();
    await page.goto(`/tablet/${quoteId}`);
    await page.waitForSelector("html[data-hydrated=true]");
    await shellKept(page, "/tablet/offline-shell");
    await page.getByRole("checkbox", { name: "Sport Pair", exact: true }).click();
    await keptHas(page, `draft:tablet:${quoteId}`);
    await page.goto("/intake");
    await page.waitForSelector("html[data-hydrated=true]");
    await page.getByLabel(/^First Name\*?$/).fill("Walkin");
    await keptHas(page, "draft:intake");
    // The app keeps nothing in web storage; a key there stands for anything
    // that would (a library's, a later version's), and goes all the same.
    await page.evaluate(() => {
      localStorage.setItem("lensdesk-last-client", "Philippa Doe");
      sessionStorage.setItem("lensdesk-last-quote", "Philippa Doe");
    });
    const before = await deviceContents(page);
    expect(keptKeys(before)).toEqual(["draft:intake", `draft:tablet:${quoteId}`]);
    expect(JSON.stringify(before.indexedDB)).toContain("Philippa Doe");
    expect(cachedPaths(before)).toContain("/tablet/offline-shell");

    await page.goto(`/quote/${quoteId}`);
    await page.waitForSelector("html[data-hydrated=true]");
    const said: string[] = [];
    page.on("console", (msg) => said.push(msg.text()));
    const headers = await signOutFromStaffBar(page);
    const after = await deviceContents(page);
    expect(summary(after)).toEqual(EMPTY);
    expect((await context.cookies()).map((c) => c.name)).toEqual([]);
    // Sent, and acted on by the browser (which says so in the console, once
    // it has cleared: on a busy machine after the page already moved on).
    expect(headers["clear-site-data"]).toBe('"cache"');
    await waitUntil(
      () => said.some((text) => /^Clear-Site-Data header on '.*\/api\/staff\/logout'/.test(text)),
      "the browser said it acted on Clear-Site-Data",
      10_000,
    );

    // Back asks the server again, which sends it to sign in.
    await page.goBack();
    await page.waitForURL(`**/staff?returnTo=*`);
    await expect(page.content()).resolves.not.toContain("Philippa");
    // Offline, the device has nothing of the quote to show either.
    await context.setOffline(true);
    const offline = await page.goto(`/tablet/${quoteId}`);
    expect(offline?.status()).toBe(503);
    await page.getByRole("heading", { name: "You are offline" }).waitFor();
    await expect(page.content()).resolves.not.toContain("Philippa");
    const shot = screenshotPath("device-forgets-after-sign-out");
    if (shot) await page.screenshot({ path: shot });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("keeps an intake that is still waiting for the connection, which is then sent once", async () => {
    const problems: string[] = [];
    const context = await newContext({ signedIn: true });
    const page = await open(context, "/intake", problems);
    await page.getByLabel(/^First Name\*?$/).fill("Queenie");
    await page.getByLabel(/^Last Name\*?$/).fill("Survivesignout");
    await context.setOffline(true);
    await page.getByRole("button", { name: "Submit Intake Form" }).click();
    await page.getByRole("status").filter({ hasText: SAVED_ON_DEVICE }).waitFor();
    // The tab is closed with the intake still queued; the Wi-Fi comes back
    // and the staff member signs out in another tab.
    await endOffline(page);
    await context.setOffline(false);
    const other = await open(context, "/dashboard", problems);
    await signOutFromStaffBar(other);
    const after = await deviceContents(other);
    expect(keptKeys(after)).toEqual(["outbox:intake"]);
    expect(JSON.stringify(after.indexedDB)).toContain("Survivesignout");
    expect(cachedPaths(after)).toEqual([]);
    expect(await clientsNamed(app.db, "Survivesignout")).toBe(0);

    // The intake page opened again sends it: one client, and the device's copy goes.
    await other.goto("/intake");
    await other.getByText("Client intake completed successfully!").waitFor();
    expect(await clientsNamed(app.db, "Survivesignout")).toBe(1);
    // On to the new client's quote, which asks a signed-out browser to sign in.
    await other.waitForURL(/\/staff\?returnTo=%2Fquote%2F/);
    expect(keptKeys(await deviceContents(other))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("the hand-over and the end of a kiosk session", () => {
  it("a quote: what staff opened goes at the hand-over, the client's view when staff take the tablet back; the kept shell names no staff", async () => {
    const { quoteId } = await insertSavedQuote(app.db, { firstName: "Kassandra" });
    const { quoteId: previewedId } = await insertSavedQuote(app.db, { firstName: "Previewed" });
    const problems: string[] = [];
    const context = await newContext({ signedIn: true });
    // Staff preview another client's quote on the tablet page first.
    const page = await open(context, `/tablet/${previewedId}`, problems);
    await shellKept(page, "/tablet/offline-shell");
    await keptHas(page, `draft:tablet:${previewedId}`);

    await page.goto(`/quote/${quoteId}`);
    await page.waitForSelector("html[data-hydrated=true]");
    await page.getByRole("button", { name: "Hand to Client" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Hand to Client" }).click();
    await page.waitForURL(`**/tablet/${quoteId}`);
    await page.waitForSelector("html[data-hydrated=true]");
    await shellKept(page, "/tablet/offline-shell");
    // Nothing of the quote staff previewed is left for the client to open offline.
    await keptHas(page, `draft:tablet:${quoteId}`);
    expect(keptKeys(await deviceContents(page))).toEqual([`draft:tablet:${quoteId}`]);

    await page.getByRole("checkbox", { name: "Everyday", exact: true }).tap();
    // The kiosk's kept pages: no staff member's name, no optician's.
    const texts = await cachedTexts(page);
    expect(Object.keys(texts)).toEqual(["/tablet/offline-shell"]);
    for (const [path, text] of Object.entries(texts)) {
      expect([path, staffNamesIn(text)]).toEqual([path, []]);
    }
    const kept = await deviceContents(page);
    expect(staffNamesIn(JSON.stringify(kept.indexedDB))).toEqual([]);

    // Reloaded offline, the kept shell: staff type their own username to return.
    await context.setOffline(true);
    const reloaded = await page.reload();
    expect(reloaded?.headers()["x-served-offline"]).toBe("1");
    await page.getByText("For: Kassandra Doe").waitFor();
    expect(staffNamesIn(await page.content())).toEqual([]);
    await page.getByRole("button", { name: "Staff: return to staff work" }).click();
    const form = page.getByRole("region", { name: "For staff" });
    await expect(form.getByLabel("Username").inputValue()).resolves.toBe("");
    await expect(form.locator(".kiosk-staff-lead").textContent()).resolves.toBe(
      "Enter a staff password to return to work.",
    );

    await context.setOffline(false);
    await staffTakeBack(page);
    await page.waitForURL(`**/quote/${quoteId}`);
    await page.waitForSelector("html[data-device-forgotten=true]");
    expect(summary(await deviceContents(page))).toEqual(EMPTY);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("an intake: the kept form names no staff, and nothing the client typed stays once staff take the tablet back", async () => {
    const kioskCookie = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: staff.id });
    const problems: string[] = [];
    const context = await newContext({ kioskCookie });
    const page = await open(context, "/intake", problems);
    await shellKept(page, "/intake");
    await page.getByLabel(/^First Name\*?$/).fill("Typed");
    await page.getByLabel(/^Last Name\*?$/).fill("Notsubmitted");
    await keptHas(page, "draft:intake:kiosk");
    const texts = await cachedTexts(page);
    expect(Object.keys(texts)).toEqual(["/intake"]);
    expect(staffNamesIn(texts["/intake"])).toEqual([]);
    // The page itself, which is not kept, says who handed the tablet over.
    await page.getByRole("button", { name: "Staff: return to staff work" }).click();
    await page.getByText(`Handed over by ${STAFF_NAMES.firstName}.`).waitFor();

    await staffTakeBack(page);
    // The staff's own intake page, with the staff bar.
    await page.getByTestId("user-name").waitFor();
    await page.waitForSelector("html[data-hydrated=true][data-device-forgotten=true]");
    // Back on the staff's own intake page, which keeps its own blank draft:
    // nothing of the client's is left.
    const after = await deviceContents(page);
    expect(keptKeys(after).filter((key) => key !== "draft:intake")).toEqual([]);
    for (const typed of ["Typed", "Notsubmitted"]) {
      expect(JSON.stringify(after)).not.toContain(typed);
    }
    expect(summary({ ...after, indexedDB: {} })).toEqual(EMPTY);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("an intake still waiting for the connection keeps the kiosk session until it is sent: never lost", async () => {
    const kioskCookie = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: staff.id });
    const problems: string[] = [];
    const context = await newContext({ kioskCookie });
    const page = await open(context, "/intake", problems);
    await page.getByLabel(/^First Name\*?$/).fill("Kiosk");
    await page.getByLabel(/^Last Name\*?$/).fill("Queuedatreturn");
    await context.setOffline(true);
    await page.getByRole("button", { name: "Submit Intake Form" }).click();
    await page.getByRole("status").filter({ hasText: SAVED_ON_DEVICE }).waitFor();
    // It can only be sent while the kiosk session lasts: no way to end it here.
    await expectNoStaffReturn(page);
    await endOffline(page);
    // Nor on another page of the kiosk, back online: that page says why.
    await context.setOffline(false);
    const notice = await context.newPage();
    notice.on("pageerror", (err) => problems.push(`notice: ${err.message}`));
    expect((await notice.goto("/clients"))?.status()).toBe(403);
    await notice.waitForSelector("html[data-hydrated=true]");
    await notice.getByRole("status").filter({ hasText: KIOSK_WORK_WAITING }).waitFor();
    await expectNoStaffReturn(notice);
    expect(keptKeys(await deviceContents(notice))).toContain("outbox:intake:kiosk");
    expect(await clientsNamed(app.db, "Queuedatreturn")).toBe(0);

    // Back to the client's page: it is sent, and staff take the tablet back.
    await notice.getByRole("link", { name: "Back to the intake form" }).click();
    await notice.getByRole("heading", { name: "Thank You!" }).waitFor();
    expect(await clientsNamed(app.db, "Queuedatreturn")).toBe(1);
    // (The worker keeps the page's shell meanwhile; once it has, nothing more is written.)
    await shellKept(notice, "/intake");
    await staffTakeBack(notice);
    await notice.waitForURL(/\/quote\//);
    await notice.waitForSelector("html[data-device-forgotten=true]");
    expect(summary(await deviceContents(notice))).toEqual(EMPTY);
    expect(await clientsNamed(app.db, "Queuedatreturn")).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });
});
