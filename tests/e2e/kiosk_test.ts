// "Hand to client" in a real browser: the optician's browser becomes a kiosk
// scoped to one quote's selection or one intake, shows no staff chrome, ends
// on the confirmation, and only a staff password brings the staff screens back.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { createTestUser, kioskCookieFor, sessionCookieFor } from "../helpers/test_app.ts";
import {
  expectCount,
  screenshotPath,
  smallTapTargets,
  TABLET_LANDSCAPE,
  TABLET_PORTRAIT,
} from "../helpers/browser.ts";
import { insertSavedQuote, STAFF_ONLY } from "../helpers/quote_fixture.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, maria: TestUser;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  // An owner: on staff screens she also gets the orange e-mail banner, which
  // must not follow the tablet into the client's hands.
  maria = await createTestUser(app.db, { username: "maria", firstName: "Maria", role: "OWNER" });
  await app.db.insertInto("heardHowOptions").values([
    { label: "Google", sortOrder: 1 },
    { label: "Friend or family", sortOrder: 2 },
  ]).execute();
});

/** A tablet-sized browser; signed in as `user` or holding `kioskCookie` when given. */
async function openBrowser(
  viewport: { width: number; height: number },
  init: { user?: TestUser; kioskCookie?: string } = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport, baseURL: app.baseUrl, hasTouch: true });
  const cookies = [];
  if (init.user) {
    const cookie = await sessionCookieFor(app.db, init.user.id);
    cookies.push({ name: "lensdesk_session", value: cookie.split("=")[1], url: app.baseUrl });
  }
  if (init.kioskCookie) {
    const [name, value] = init.kioskCookie.split("=");
    cookies.push({ name, value, url: app.baseUrl, sameSite: "Strict" as const });
  }
  await context.addCookies(cookies);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("response", (res) => {
    if (res.status() === 404) problems.push(`404: ${res.url()}`);
  });
  page.on("console", (msg) => {
    // Refused calls and pages are logged by the browser itself; those are the point here.
    // A JSON page typed into the address bar has no icon link: Chromium asks for /favicon.ico.
    if (
      msg.type() === "error" && !/status of (401|403)/.test(msg.text()) &&
      !msg.location().url.endsWith("/favicon.ico")
    ) {
      problems.push(`console: ${msg.text()} ${msg.location().url}`);
    }
  });
  return { context, page, problems };
}

async function hydrated(page: Page) {
  await page.waitForSelector("html[data-hydrated=true]");
}

async function shoot(page: Page, name: string) {
  const path = screenshotPath(`kiosk-${name}`);
  if (!path) return;
  await page.waitForTimeout(250);
  await page.screenshot({ path, fullPage: true });
}

async function cookieNames(context: BrowserContext): Promise<string[]> {
  return (await context.cookies()).map((c) => c.name).sort();
}

/** Links on the page that lead anywhere but `allowed` (and the stylesheet/scripts). */
async function linksOut(page: Page, allowed: string[]): Promise<string[]> {
  const hrefs = await page.locator("a[href]").evaluateAll((els) =>
    els.map((el) => el.getAttribute("href")!)
  );
  return hrefs.filter((href) => !allowed.includes(href));
}

async function handOver(page: Page) {
  await page.getByRole("button", { name: "Hand to Client" }).click();
  const dialog = page.getByRole("dialog", { name: "Hand to Client" });
  await dialog.waitFor();
  await dialog.getByRole("button", { name: "Hand to Client" }).click();
}

async function staffReturn(page: Page, username: string, password: string) {
  const form = page.getByRole("region", { name: "For staff" });
  await form.getByLabel("Username").fill(username);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Return to Staff Work" }).click();
}

/** What a typed address answers in this browser: its status and visible text. */
async function typed(page: Page, path: string) {
  const res = await page.goto(path);
  return { status: res?.status(), text: await page.locator("body").innerText() };
}

describe("Hand to client: a quote", () => {
  it("the client picks and confirms without staff chrome; only a staff password brings the builder back", async () => {
    const { quoteId, optionIds } = await insertSavedQuote(app.db, {
      options: [
        { label: "Everyday", sku: "RB5154-2000", price: "189.00" },
        { label: "Sport Pair", sku: "OK-9102", price: "150.00" },
        { label: "Reading", sku: "HB-77", price: "99.00" },
      ],
    });
    await insertSavedQuote(app.db, { firstName: "Otto" });
    const { context, page, problems } = await openBrowser(TABLET_LANDSCAPE, { user: maria });

    // The optician's client list, then the builder, with the staff bar and the banner.
    await page.goto("/clients");
    await page.getByText("Otto Doe").first().waitFor();
    await page.goto(`/quote/${quoteId}`);
    await hydrated(page);
    await expectCount(page.locator(".topbar"), 1);
    await expectCount(page.locator(".email-banner"), 1);
    // Only what is saved can be handed over: an edit disables it until undone or saved.
    const handButton = page.getByRole("button", { name: "Hand to Client" });
    await page.getByLabel("Option Label").fill("Everyday!");
    await expect(handButton.isDisabled()).resolves.toBe(true);
    await page.getByText("Save your changes before handing the quote to the client.").waitFor();
    await page.getByLabel("Option Label").fill("Everyday");
    await expect(handButton.isEnabled()).resolves.toBe(true);
    await handButton.click();
    await page.getByRole("dialog", { name: "Hand to Client" }).waitFor();
    await shoot(page, "builder-dialog");
    await page.getByRole("dialog").getByRole("button", { name: "Hand to Client" }).click();

    // The tablet page, as the client sees it: no staff bar, banner or links out.
    await page.waitForURL(`**/tablet/${quoteId}`);
    await hydrated(page);
    expect(await cookieNames(context)).toEqual(["lensdesk_kiosk"]);
    await page.getByRole("heading", { name: "Select Your Preferred Options" }).waitFor();
    await expectCount(page.locator(".topbar, .email-banner, .skip-link"), 0);
    expect(await linksOut(page, [])).toEqual([]);
    const html = await page.content();
    for (const secret of Object.values(STAFF_ONLY)) expect(html).not.toContain(secret);
    await shoot(page, "quote-landscape-start");

    // Back does not bring a staff page out of the browser's history or cache.
    await page.goBack();
    await page.getByRole("heading", { name: "This page is not available on this tablet" })
      .waitFor();
    await expect(page.locator("body").innerText()).resolves.not.toContain("Otto");
    await page.goForward();
    await page.waitForURL(`**/tablet/${quoteId}`);
    await hydrated(page);

    await page.getByRole("checkbox", { name: "Everyday" }).tap();
    await page.getByRole("checkbox", { name: "Reading" }).tap();
    await page.getByRole("button", { name: "Confirm Selection(s)" }).tap();
    await page.getByRole("heading", { name: "Thank You!" }).waitFor();
    await page.getByText("Please hand the tablet back to your optician.", { exact: false })
      .first().waitFor();
    const form = page.getByRole("region", { name: "For staff" });
    await expect(form.getByLabel("Username").inputValue()).resolves.toBe("maria");
    expect(await linksOut(page, [`/quote/${quoteId}/client-print`])).toEqual([]);
    await shoot(page, "quote-landscape-confirmed");
    const chosen = await app.db.selectFrom("quoteOptions").select(["id", "isChosen"])
      .where("quoteId", "=", quoteId).orderBy("position").execute();
    expect(chosen.filter((o) => o.isChosen).map((o) => o.id)).toEqual([
      optionIds[0],
      optionIds[2],
    ]);

    // Typed addresses: nothing of the store's data, no staff sign-in.
    const clients = await typed(page, "/api/clients?limit=200");
    expect(clients.status).toBe(403);
    expect(clients.text).not.toContain("Otto");
    expect(clients.text).toContain("client mode");
    const quoteJson = await typed(page, `/api/quotes/${quoteId}`);
    expect(quoteJson.status).toBe(403);
    expect(quoteJson.text).not.toContain(STAFF_ONLY.internalNotes);
    for (const path of ["/dashboard", `/quote/${quoteId}`, "/staff", "/"]) {
      const shown = await typed(page, path);
      expect([path, shown.status]).toEqual([path, 403]);
      expect(shown.text).toContain("This page is not available on this tablet");
      expect(shown.text).not.toContain("Staff Portal");
      await expectCount(page.locator(".topbar"), 0);
    }
    expect(await linksOut(page, [`/tablet/${quoteId}`])).toEqual([]);
    await shoot(page, "notice-landscape");

    // The client copy of this quote prints; its only ways out are back, and the
    // same copy of the client's chosen options alone.
    await page.goto(`/quote/${quoteId}/client-print?noprint=1`);
    await hydrated(page);
    await page.getByRole("heading", { name: "Your Quote" }).waitFor();
    expect(
      await linksOut(page, [`/tablet/${quoteId}`, `/quote/${quoteId}/client-print?chosen=only`]),
    ).toEqual([]);
    await page.getByRole("link", { name: "Back to your options" }).tap();

    // Back on the tablet: still confirmed, nothing more can be changed.
    await page.waitForURL(`**/tablet/${quoteId}`);
    await hydrated(page);
    await page.getByRole("heading", { name: "Thank You!" }).waitFor();
    await expect(page.getByRole("button", { name: "Confirm Selection(s)" }).count()).resolves
      .toBe(0);

    // The optician takes it back: a wrong password first.
    await staffReturn(page, "maria", "not my password");
    await page.getByRole("alert").filter({ hasText: "Invalid username or password" }).waitFor();
    await expect(
      page.getByRole("region", { name: "For staff" }).getByLabel("Password")
        .inputValue(),
    ).resolves.toBe("");
    expect(await cookieNames(context)).toEqual(["lensdesk_kiosk"]);

    await staffReturn(page, "maria", maria.password);
    await page.waitForURL(`**/quote/${quoteId}`);
    await hydrated(page);
    await page.getByRole("heading", { name: "Quote Builder" }).waitFor();
    await expect(page.getByTestId("user-name").textContent()).resolves.toBe("Maria");
    expect(await cookieNames(context)).toEqual(["lensdesk_session"]);
    const back = await typed(page, "/api/clients?limit=200");
    expect(back.status).toBe(200);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("Hand to client: an intake", () => {
  it("the client fills the form, gets the thank-you, and the password opens the new client's quote", async () => {
    const { context, page, problems } = await openBrowser(TABLET_PORTRAIT, { user: maria });
    await page.goto("/intake");
    await hydrated(page);
    // Signed in: the staff bar (as the spec has it) and the hand-over strip.
    await expectCount(page.locator(".topbar"), 1);
    await shoot(page, "intake-staff");
    await handOver(page);

    await page.waitForURL("**/intake");
    await page.waitForFunction(() => document.body.classList.contains("kiosk"));
    await hydrated(page);
    expect(await cookieNames(context)).toEqual(["lensdesk_kiosk"]);
    await expect(page.locator(".topbar, .email-banner, .skip-link, .intake-handover").count())
      .resolves.toBe(0);
    expect(await linksOut(page, [])).toEqual([]);
    await shoot(page, "intake-portrait-form");

    await page.getByLabel(/^First Name\*?$/).fill("Kim");
    await page.getByLabel(/^Last Name\*?$/).fill("Kiosk");
    await page.getByLabel(/^Mobile Phone$/).fill("555-100-2000");
    await page.getByText("Text messages (SMS)").tap();
    await page.getByText("Google", { exact: true }).tap();
    await page.getByRole("button", { name: "Submit Intake Form" }).tap();
    await page.getByRole("heading", { name: "Thank You!" }).waitFor();
    await page.getByText(
      "Thank you for completing the intake form! Please hand the tablet back to your optician.",
      { exact: true },
    ).waitFor();
    // The tablet stays on the thank-you: no staff builder with internal notes.
    expect(new URL(page.url()).pathname).toBe("/intake");
    await expectCount(page.getByRole("button", { name: "Submit Intake Form" }), 0);
    await shoot(page, "intake-portrait-thanks");

    const client = await app.db.selectFrom("clients").select(["id"]).where("firstName", "=", "Kim")
      .executeTakeFirstOrThrow();
    const quote = await app.db.selectFrom("quotes").select(["id", "createdBy"])
      .where("clientId", "=", client.id).executeTakeFirstOrThrow();
    expect(quote.createdBy).toBe(maria.id);
    const consents = await app.db.selectFrom("consentRecords").select("consentType")
      .where("clientId", "=", client.id).execute();
    expect(consents.map((c) => c.consentType)).toEqual(["SMS"]);

    const clients = await typed(page, "/api/clients?limit=200");
    expect(clients.status).toBe(403);
    expect(clients.text).not.toContain("Kim");
    const builder = await typed(page, `/quote/${quote.id}`);
    expect(builder.status).toBe(403);
    await page.goto("/intake");
    await hydrated(page);
    // Reopened, the intake stays done: the thank-you, not a fresh form.
    await page.getByRole("heading", { name: "Thank You!" }).waitFor();

    await staffReturn(page, "maria", maria.password);
    await page.waitForURL(`**/quote/${quote.id}`);
    await hydrated(page);
    await page.getByText("Managing quote for Kim Kiosk").waitFor();
    expect(await cookieNames(context)).toEqual(["lensdesk_session"]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("signed out, /intake is the public form as before: no staff bar, no hand-over", async () => {
    const { context, page } = await openBrowser(TABLET_PORTRAIT);
    const res = await page.goto("/intake");
    expect(res?.status()).toBe(200);
    await hydrated(page);
    await expectCount(page.locator(".topbar, .intake-handover"), 0);
    await expect(page.evaluate(() => document.body.classList.contains("kiosk"))).resolves.toBe(
      false,
    );
    await context.close();
  });
});

describe("the staff password on the tablet", () => {
  it("refuses wrong passwords and is throttled like the staff sign-in", async () => {
    const sam = await createTestUser(app.db, { username: "sam", firstName: "Sam" });
    const kioskCookie = await kioskCookieFor(app.db, { kind: "INTAKE", handedOverBy: sam.id });
    const { context, page } = await openBrowser(TABLET_LANDSCAPE, { kioskCookie });
    await page.goto("/intake");
    await hydrated(page);
    await page.getByRole("button", { name: "Staff: return to staff work" }).tap();
    const form = page.getByRole("region", { name: "For staff" });
    await expect(form.getByLabel("Password").evaluate((el) => el === document.activeElement))
      .resolves.toBe(true);
    await expect(form.getByLabel("Username").inputValue()).resolves.toBe("sam");
    for (let i = 0; i < 5; i++) {
      const answer = page.waitForResponse("**/api/kiosk/return");
      await staffReturn(page, "sam", `guess-${i}`);
      expect((await answer).status()).toBe(401);
      await form.getByRole("button", { name: "Return to Staff Work" }).waitFor();
    }
    const answer = page.waitForResponse("**/api/kiosk/return");
    await staffReturn(page, "sam", sam.password);
    expect((await answer).status()).toBe(429);
    await page.getByRole("alert").filter({ hasText: /Too many failed sign-in attempts/ })
      .waitFor();
    await shoot(page, "return-throttled");
    expect(await cookieNames(context)).toEqual(["lensdesk_kiosk"]);
    expect(new URL(page.url()).pathname).toBe("/intake");
    await context.close();
  });
});

describe("the kiosk pages on a tablet", () => {
  for (const viewport of [TABLET_LANDSCAPE, TABLET_PORTRAIT]) {
    const size = `${viewport.width}x${viewport.height}`;
    it(`at ${size}: every tap target is at least 44×44, the page fills the screen, no sideways scroll`, async () => {
      const { quoteId } = await insertSavedQuote(app.db, {
        options: [
          { label: "Everyday", sku: "RB5154-2000", price: "189.00" },
          { label: "Sport Pair", sku: "OK-9102", price: "150.00" },
        ],
      });
      const checks: Record<string, string[]> = {};
      async function measure(page: Page, name: string) {
        // Boxes are measured at rest, not halfway through a toast sliding in.
        await page.waitForFunction(() =>
          document.getAnimations().every((a) => a.playState !== "running")
        );
        checks[name] = await smallTapTargets(page);
        const layout = await page.evaluate(() => ({
          overflow: document.documentElement.scrollWidth - globalThis.innerWidth,
          mainHeight: document.querySelector("main")!.getBoundingClientRect().height,
          mainWidth: document.querySelector("main")!.getBoundingClientRect().width,
          viewport: [globalThis.innerWidth, globalThis.innerHeight],
        }));
        expect([name, layout.overflow]).toEqual([name, 0]);
        expect(layout.mainHeight).toBeGreaterThanOrEqual(layout.viewport[1]);
        expect(layout.mainWidth).toBeGreaterThanOrEqual(layout.viewport[0] - 1);
        await shoot(page, `${name}-${size}`);
      }

      // The tablet selection: cards, confirm, the staff button, then its form.
      const quoteKiosk = await kioskCookieFor(app.db, {
        kind: "QUOTE",
        quoteId,
        handedOverBy: maria.id,
      });
      const tablet = await openBrowser(viewport, { kioskCookie: quoteKiosk });
      await tablet.page.goto(`/tablet/${quoteId}`);
      await hydrated(tablet.page);
      await measure(tablet.page, "tablet");
      await tablet.page.getByRole("button", { name: "Staff: return to staff work" }).tap();
      await measure(tablet.page, "tablet-staff-open");
      await tablet.page.getByRole("checkbox", { name: "Sport Pair" }).tap();
      await tablet.page.getByRole("button", { name: "Confirm Selection(s)" }).tap();
      await tablet.page.getByRole("heading", { name: "Thank You!" }).waitFor();
      // The confirmation toast (and its close button) is on screen too.
      await tablet.page.locator(".toast").waitFor();
      await measure(tablet.page, "tablet-confirmed");
      await tablet.page.goto("/clients");
      await measure(tablet.page, "tablet-notice");
      await tablet.context.close();

      // The intake: every field, tick box and choice, the staff form, the thank-you.
      const intakeKiosk = await kioskCookieFor(app.db, {
        kind: "INTAKE",
        handedOverBy: maria.id,
      });
      const intake = await openBrowser(viewport, { kioskCookie: intakeKiosk });
      await intake.page.goto("/intake");
      await hydrated(intake.page);
      await intake.page.getByText("Other", { exact: true }).tap();
      await intake.page.getByRole("button", { name: "Staff: return to staff work" }).tap();
      await measure(intake.page, "intake");
      await intake.page.getByLabel(/^First Name\*?$/).fill("Tap");
      await intake.page.getByLabel(/^Last Name\*?$/).fill(`Target ${size}`);
      await intake.page.getByRole("button", { name: "Submit Intake Form" }).tap();
      await intake.page.getByRole("heading", { name: "Thank You!" }).waitFor();
      await intake.page.locator(".toast").waitFor();
      await measure(intake.page, "intake-thanks");
      await intake.context.close();

      expect(checks).toEqual({
        "tablet": [],
        "tablet-staff-open": [],
        "tablet-confirmed": [],
        "tablet-notice": [],
        "intake": [],
        "intake-thanks": [],
      });
    });
  }
});
