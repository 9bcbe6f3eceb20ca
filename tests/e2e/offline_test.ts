import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, BrowserContext, Page } from "playwright-core";
import {
  createTestUser,
  kioskCookieFor,
  sessionCookieFor,
  type TestApp,
  type TestUser,
} from "../helpers/test_app.ts";
import { screenshotPath, TABLET_LANDSCAPE, TABLET_PORTRAIT } from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { waitUntil } from "../helpers/wait.ts";
import { insertSavedQuote, STAFF_ONLY } from "../helpers/quote_fixture.ts";
import { type AppProcess, startAppProcess } from "../helpers/process.ts";
import { createPersistentTestDatabase } from "../helpers/database.ts";
import { SAVED_ON_DEVICE } from "../../components/offline/messages.ts";
import type { DB } from "../../src/db/database.ts";
import { useBrowserApp } from "../helpers/suite.ts";

// Chromium's offline emulation (context.setOffline) stands for a store's
// Wi-Fi dropping; the app stays up, the browser just cannot reach it.

const SMS_TEXT = "We may text you about your glasses.";
const SUCCESS = "Client intake completed successfully!";

let app: TestApp;
let browser: Browser;
let maria: TestUser;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  await app.db.updateTable("settings").set({ smsConsentText: SMS_TEXT, emailConsentText: null })
    .where("id", "=", 1).execute();
  maria = await createTestUser(app.db, { username: "maria_off", firstName: "Maria" });
});

const submit = (page: Page) => page.getByRole("button", { name: "Submit Intake Form" });
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}\\*?$`));

async function newContext(baseURL: string, viewport = TABLET_PORTRAIT): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, baseURL, hasTouch: true });
  context.setDefaultTimeout(60_000);
  return context;
}

/** A page that records page errors (console errors of a failed fetch offline are expected). */
async function openPage(context: BrowserContext, path: string) {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(err.message));
  await page.goto(path);
  // Typed before hydration, a field's text is the DOM's, not the form's: the
  // form would then submit without it (a busy machine hydrates late).
  await page.waitForSelector("html[data-hydrated=true]");
  return { page, problems };
}

/** What the page keeps in IndexedDB under `id` (e.g. "draft:intake"), read as the app stores it. */
function kept(page: Page, id: string): Promise<unknown> {
  return page.evaluate((id) =>
    new Promise((resolve, reject) => {
      const open = indexedDB.open("lensdesk-device");
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains("kept")) return resolve(undefined);
        const get = db.transaction("kept").objectStore("kept").get(id);
        get.onsuccess = () => resolve(get.result?.value);
        get.onerror = () => reject(get.error);
      };
    }), id);
}

/** Waits until the service worker controls the page and keeps the tablet's offline shell. */
async function tabletShellKept(page: Page, what: string) {
  await waitUntil(
    () =>
      page.evaluate(async () =>
        !!navigator.serviceWorker.controller && !!(await caches.match("/tablet/offline-shell"))
      ),
    what,
  );
}

/** Waits until the device keeps the tablet's draft with `optionId` tapped; the draft's id. */
async function tapKept(page: Page, quoteId: string, optionId: string, what: string) {
  const draftId = `draft:tablet:${quoteId}`;
  await waitUntil(async () => {
    const draft = await kept(page, draftId) as { selected?: string[] } | undefined;
    return draft?.selected?.join() === optionId;
  }, what);
  return draftId;
}

async function countClients(db: DB, lastName: string) {
  const rows = await db.selectFrom("clients").select("id").where("lastName", "=", lastName)
    .execute();
  return rows.length;
}

async function consentsOf(db: DB, lastName: string) {
  return await db.selectFrom("consentRecords").innerJoin(
    "clients",
    "clients.id",
    "consentRecords.clientId",
  )
    .select(["consentRecords.consentType", "consentRecords.target"])
    .where("clients.lastName", "=", lastName).execute();
}

describe("the intake form through a Wi-Fi drop", () => {
  it("keeps what was typed offline: reloaded offline the form is whole, and back online it submits once", async () => {
    const { quoteId } = await insertSavedQuote(app.db);
    const context = await newContext(app.baseUrl);
    const { page, problems } = await openPage(context, "/intake");
    // The first visit starts the service worker, which keeps the page's shell.
    await waitUntil(
      () =>
        page.evaluate(async () =>
          !!navigator.serviceWorker.controller && !!(await caches.match("/intake"))
        ),
      "the service worker keeps the intake page",
    );
    await field(page, "First Name").fill("Olive");
    await context.setOffline(true);
    await field(page, "Last Name").fill("Offline");
    await field(page, "Mobile Phone").fill("555-222-3333");
    await page.getByRole("checkbox", { name: /Text messages \(SMS\)/ }).check();
    await waitUntil(async () => {
      const draft = await kept(page, "draft:intake") as Record<string, unknown> | undefined;
      return draft?.mobilePhone === "555-222-3333" && draft?.smsConsent === true;
    }, "the draft is kept on the device");
    // Reloaded (or the tab crashed and was reopened) with no connection: the
    // kept shell, the kept draft.
    const reloaded = await page.reload();
    expect(reloaded?.headers()["x-served-offline"]).toBe("1");
    await waitUntil(
      async () => (await field(page, "Mobile Phone").inputValue()) === "555-222-3333",
      "the form comes back as it was",
    );
    await expect(field(page, "First Name").inputValue()).resolves.toBe("Olive");
    await expect(field(page, "Last Name").inputValue()).resolves.toBe("Offline");
    await expect(page.getByRole("checkbox", { name: /Text messages \(SMS\)/ }).isChecked())
      .resolves.toBe(true);
    const shot = screenshotPath("offline-intake-reloaded-offline");
    if (shot) await page.screenshot({ path: shot });
    // Kept: the intake shell and the files it loads; never an API answer or
    // a page with a client on it.
    const keptUrls = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const req of await (await caches.open(name)).keys()) {
          urls.push(new URL(req.url).pathname);
        }
      }
      return urls;
    });
    expect(keptUrls).toContain("/intake");
    expect(keptUrls.filter((u) => u !== "/intake" && !u.startsWith("/static/"))).toEqual([]);
    // Any other page asked for offline: a plain offline page, nothing of the client's.
    const other = await context.newPage();
    const tablet = await other.goto(`/tablet/${quoteId}`);
    expect(tablet?.status()).toBe(503);
    await other.getByRole("heading", { name: "You are offline" }).waitFor();
    expect(await seriousA11yViolations(other)).toEqual([]);
    // Try again is a finger's size (its style allowed by the page's CSP, by hash).
    const again = (await other.getByRole("link", { name: "Try again" }).boundingBox())!;
    expect([again.width >= 44, again.height >= 44]).toEqual([true, true]);
    await other.close();

    await context.setOffline(false);
    await submit(page).click();
    await page.getByText(SUCCESS).waitFor();
    expect(await countClients(app.db, "Offline")).toBe(1);
    expect(await consentsOf(app.db, "Offline")).toEqual([
      { consentType: "SMS", target: "555-222-3333" },
    ]);
    // The server has it: nothing of it stays on the device.
    await waitUntil(async () => (await kept(page, "draft:intake")) === undefined, "draft removed");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("offline at Submit: kept on the tablet, sent when the connection is back, one client and one consent", async () => {
    const context = await newContext(app.baseUrl, TABLET_LANDSCAPE);
    const { page, problems } = await openPage(context, "/intake");
    await field(page, "First Name").fill("Quentin");
    await field(page, "Last Name").fill("Queued");
    await field(page, "Mobile Phone").fill("555-444-5555");
    await page.getByRole("checkbox", { name: /Text messages \(SMS\)/ }).check();
    await context.setOffline(true);
    await submit(page).click();
    const saved = page.getByRole("status").filter({ hasText: SAVED_ON_DEVICE });
    await saved.waitFor();
    const shot = screenshotPath("offline-intake-saved-on-device");
    if (shot) await page.screenshot({ path: shot, fullPage: true });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await expect(page.getByRole("button", { name: "Submitting..." }).isDisabled()).resolves.toBe(
      true,
    );
    const queued = await kept(page, "outbox:intake") as { client: { key: string } };
    expect(queued.client.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(await countClients(app.db, "Queued")).toBe(0);

    await context.setOffline(false);
    await page.getByText(SUCCESS).waitFor();
    expect(await countClients(app.db, "Queued")).toBe(1);
    expect(await consentsOf(app.db, "Queued")).toEqual([
      { consentType: "SMS", target: "555-444-5555" },
    ]);
    const key = await app.db.selectFrom("idempotencyKeys").select("status")
      .where("key", "=", queued.client.key).executeTakeFirst();
    expect(key?.status).toBe(201);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a kiosk's intake queued offline is sent once, and the kiosk's end clears the device", async () => {
    const context = await newContext(app.baseUrl);
    const kiosk = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: maria.id });
    await context.addCookies([{
      name: "lensdesk_kiosk",
      value: kiosk.split("=")[1],
      url: app.baseUrl,
    }]);
    const first = await openPage(context, "/intake");
    await field(first.page, "First Name").fill("Kira");
    await field(first.page, "Last Name").fill("KioskQueued");
    await context.setOffline(true);
    await submit(first.page).click();
    await first.page.getByRole("status").filter({ hasText: SAVED_ON_DEVICE }).waitFor();
    expect(first.problems).toEqual([]);
    // The tab closed while still queued, and opened again once the connection
    // is back: the queued intake is sent on load. (A page left open would
    // send it on the "online" event instead, racing a reload, so the test
    // closes it while offline.)
    await first.page.close();
    await context.setOffline(false);
    const { page, problems } = await openPage(context, "/intake");
    await page.getByRole("heading", { name: "Thank You!" }).waitFor();
    expect(await countClients(app.db, "KioskQueued")).toBe(1);
    // Staff take the tablet back: nothing the client typed stays on it.
    await page.getByLabel("Password").fill(maria.password);
    await page.getByRole("button", { name: "Return to Staff Work" }).click();
    await page.waitForURL(/\/quote\//);
    // The page staff land on clears the device (islands/_forget.ts).
    await page.waitForSelector("html[data-device-forgotten=true]");
    await expect(kept(page, "draft:intake:kiosk")).resolves.toBeUndefined();
    await expect(kept(page, "outbox:intake:kiosk")).resolves.toBeUndefined();
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("the tablet selection through a Wi-Fi drop", () => {
  it("a selection confirmed offline arrives once", async () => {
    const { quoteId } = await insertSavedQuote(app.db);
    const context = await newContext(app.baseUrl, TABLET_LANDSCAPE);
    await context.addCookies([{
      name: "lensdesk_session",
      value: (await sessionCookieFor(app.db, maria.id)).split("=")[1],
      url: app.baseUrl,
    }]);
    const { page, problems } = await openPage(context, `/tablet/${quoteId}`);
    const confirm = page.getByRole("button", { name: "Confirm Selection(s)" });
    await page.getByRole("checkbox").first().click();
    await context.setOffline(true);
    await confirm.click();
    await page.getByRole("status").filter({ hasText: SAVED_ON_DEVICE }).waitFor();
    const shot = screenshotPath("offline-tablet-saved-on-device");
    if (shot) await page.screenshot({ path: shot, fullPage: true });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.setOffline(false);
    await page.getByRole("heading", { name: "Thank You!" }).waitFor();
    const accepts = await app.db.selectFrom("auditLog").select("id")
      .where("entityId", "=", quoteId).where("action", "=", "quote.accept").execute();
    expect(accepts.length).toBe(1);
    const quote = await app.db.selectFrom("quotes").select(["status", "version"])
      .where("id", "=", quoteId).executeTakeFirstOrThrow();
    expect(quote).toEqual({ status: "ACCEPTED", version: 2 });
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("the tablet selection reloaded offline", () => {
  const option = (page: Page, title: string) =>
    page.getByRole("checkbox", { name: title, exact: true });

  it("comes back from the device with the option tapped; confirmed there, it arrives once and the device's copy goes", async () => {
    const { quoteId, optionIds } = await insertSavedQuote(app.db);
    const { quoteId: notKeptId } = await insertSavedQuote(app.db, { firstName: "Nokept" });
    const context = await newContext(app.baseUrl, TABLET_LANDSCAPE);
    await context.addCookies([{
      name: "lensdesk_session",
      value: (await sessionCookieFor(app.db, maria.id)).split("=")[1],
      url: app.baseUrl,
    }]);
    const { page, problems } = await openPage(context, `/tablet/${quoteId}`);
    // The first visit starts the service worker, which keeps the tablet's
    // offline shell (never the page with the client on it).
    await tabletShellKept(page, "the service worker keeps the tablet's shell");
    await option(page, "Sport Pair").click();
    const draftId = await tapKept(
      page,
      quoteId,
      optionIds[1],
      "the tap and the view are kept on the device",
    );
    // What the device keeps is the tablet's client view: nothing staff-only.
    const keptText = JSON.stringify(await kept(page, draftId));
    expect(keptText).toContain("Sport Pair");
    for (const secret of Object.values(STAFF_ONLY)) expect(keptText).not.toContain(secret);

    await context.setOffline(true);
    const reloaded = await page.reload();
    expect(reloaded?.headers()["x-served-offline"]).toBe("1");
    await page.getByText("For: Jane Doe").waitFor();
    await waitUntil(
      async () => (await option(page, "Sport Pair").getAttribute("aria-checked")) === "true",
      "the tapped option comes back",
    );
    await expect(option(page, "Everyday").getAttribute("aria-checked")).resolves.toBe("false");
    await expect(page.getByTestId("selection-count").textContent()).resolves.toBe(
      "1 option selected",
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Kept by the worker: the shell and the files it loads, never a page with a client on it.
    const keptUrls = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const req of await (await caches.open(name)).keys()) {
          urls.push(new URL(req.url).pathname);
        }
      }
      return urls;
    });
    expect(keptUrls).toContain("/tablet/offline-shell");
    expect(keptUrls.filter((u) => u !== "/tablet/offline-shell" && !u.startsWith("/static/")))
      .toEqual([]);

    await page.getByRole("button", { name: "Confirm Selection(s)" }).click();
    await page.getByRole("status").filter({ hasText: SAVED_ON_DEVICE }).waitFor();
    const shot = screenshotPath("offline-tablet-reloaded-offline-confirmed");
    if (shot) await page.screenshot({ path: shot, fullPage: true });
    expect(await seriousA11yViolations(page)).toEqual([]);
    const queued = await kept(page, `outbox:tablet:${quoteId}`) as { key: string };
    expect(queued.key).toMatch(/^[0-9a-f-]{36}$/);

    // A quote this device kept nothing of: the shell says the page needs the connection.
    const other = await context.newPage();
    other.on("pageerror", (err) => problems.push(err.message));
    const otherRes = await other.goto(`/tablet/${notKeptId}`);
    expect(otherRes?.headers()["x-served-offline"]).toBe("1");
    await other.getByRole("heading", { name: "This Page Needs the Connection" }).waitFor();
    await expect(other.getByText("Nokept").count()).resolves.toBe(0);
    const notKeptShot = screenshotPath("offline-tablet-not-kept");
    if (notKeptShot) await other.screenshot({ path: notKeptShot });
    expect(await seriousA11yViolations(other)).toEqual([]);
    await other.close();

    await context.setOffline(false);
    await page.getByRole("heading", { name: "Thank You!" }).waitFor();
    const accepts = await app.db.selectFrom("auditLog").select("id")
      .where("entityId", "=", quoteId).where("action", "=", "quote.accept").execute();
    expect(accepts.length).toBe(1);
    const quote = await app.db.selectFrom("quotes").select(["status", "version"])
      .where("id", "=", quoteId).executeTakeFirstOrThrow();
    expect(quote).toEqual({ status: "ACCEPTED", version: 2 });
    const chosen = await app.db.selectFrom("quoteOptions").select(["id", "isChosen"])
      .where("quoteId", "=", quoteId).orderBy("position").execute();
    expect(chosen).toEqual([
      { id: optionIds[0], isChosen: false },
      { id: optionIds[1], isChosen: true },
    ]);
    const key = await app.db.selectFrom("idempotencyKeys").select("status")
      .where("key", "=", queued.key).executeTakeFirst();
    expect(key?.status).toBe(200);
    // The server has it: nothing of the quote stays on the device.
    await waitUntil(
      async () =>
        (await kept(page, draftId)) === undefined &&
        (await kept(page, `outbox:tablet:${quoteId}`)) === undefined,
      "the device's copy is removed",
    );
    expect(problems).toEqual([]);
    await context.close();
  });
  it("as a kiosk: the kept shell is the kiosk's, and the kiosk's end removes the kept quote", async () => {
    const { quoteId, optionIds } = await insertSavedQuote(app.db);
    const context = await newContext(app.baseUrl);
    const kiosk = await kioskCookieFor(app.db, { kind: "QUOTE", quoteId, handedOverBy: maria.id });
    await context.addCookies([{
      name: "lensdesk_kiosk",
      value: kiosk.split("=")[1],
      url: app.baseUrl,
    }]);
    const { page, problems } = await openPage(context, `/tablet/${quoteId}`);
    await tabletShellKept(page, "the service worker keeps the kiosk's tablet shell");
    await option(page, "Everyday").click();
    const draftId = await tapKept(page, quoteId, optionIds[0], "the tap is kept on the device");

    await context.setOffline(true);
    const reloaded = await page.reload();
    expect(reloaded?.headers()["x-served-offline"]).toBe("1");
    await waitUntil(
      async () => (await option(page, "Everyday").getAttribute("aria-checked")) === "true",
      "the tapped option comes back",
    );
    // Still the kiosk's page: no way into staff screens but the return form.
    await expect(page.evaluate(() => document.body.classList.contains("kiosk"))).resolves.toBe(
      true,
    );
    await expect(page.getByRole("link").count()).resolves.toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Back online, staff take the tablet back before the client confirmed:
    // nothing of the quote stays on the device. The page is still the kept
    // shell, which names no staff member: staff type their username.
    await context.setOffline(false);
    await page.getByRole("button", { name: "Staff: return to staff work" }).click();
    await expect(page.getByLabel("Username").inputValue()).resolves.toBe("");
    await page.getByLabel("Username").fill(maria.username);
    await page.getByLabel("Password").fill(maria.password);
    await page.getByRole("button", { name: "Return to Staff Work" }).click();
    await page.waitForURL(/\/quote\//);
    await page.waitForSelector("html[data-device-forgotten=true]");
    await expect(kept(page, draftId)).resolves.toBeUndefined();
    const quote = await app.db.selectFrom("quotes").select(["status", "version"])
      .where("id", "=", quoteId).executeTakeFirstOrThrow();
    expect(quote).toEqual({ status: "ACTIVE", version: 1 });
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("the server killed mid-submit", () => {
  it("the replay after the restart makes no second client", async () => {
    const database = await createPersistentTestDatabase();
    // A fixed port, so the restarted server is the same origin for the page.
    const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (probe.addr as Deno.NetAddr).port;
    probe.close();
    const env = { ...database.env, PORT: String(port), LOG_REQUESTS: "0" };
    let server: AppProcess | undefined = await startAppProcess(env);
    const context = await newContext(server.baseUrl);
    try {
      const { page } = await openPage(context, "/intake");
      await field(page, "First Name").fill("Killian");
      await field(page, "Last Name").fill("Killed");
      let answered = false;
      await page.route("**/api/clients", async (route) => {
        // The server writes the client and answers; then it dies before the
        // answer reaches the tablet.
        const res = await route.fetch();
        expect(res.status()).toBe(201);
        answered = true;
        await server!.kill();
        await route.abort("connectionreset");
      });
      await submit(page).click();
      await page.getByRole("status").filter({ hasText: SAVED_ON_DEVICE }).waitFor();
      expect(answered).toBe(true);
      await page.unroute("**/api/clients");
      server = await startAppProcess(env);
      await page.getByText(SUCCESS).waitFor();
      await server.stop();
      server = undefined;
      const handle = await database.open();
      try {
        expect(await countClients(handle.db, "Killed")).toBe(1);
      } finally {
        await handle.close();
      }
    } finally {
      await context.close();
      await server?.kill();
      await database.drop();
    }
  });
});
