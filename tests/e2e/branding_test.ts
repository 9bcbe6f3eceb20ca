import { beforeEach, describe, it } from "node:test";
import { expect } from "expect";
import { Buffer } from "node:buffer";
import type { Browser, Page } from "playwright-core";
import { createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import { DESKTOP, expectCount, PHONE, screenshotPath } from "../helpers/browser.ts";
import { GIF, ICO, JPEG, padTo, PNG, setBrandingImage, svg } from "../helpers/images.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, admin: string;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  admin = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "ADMIN" })).id);
});
beforeEach(async () => {
  await app.db.updateTable("settings").set({ logoUrl: null, faviconUrl: null }).execute();
});

/** A page signed in (or not), recording every request and every script error. */
async function open(path: string, options: { signedIn?: boolean; viewport?: typeof DESKTOP } = {}) {
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    baseURL: app.baseUrl,
  });
  if (options.signedIn !== false) {
    await context.addCookies([{
      name: "lensdesk_session",
      value: admin.split("=")[1],
      url: app.baseUrl,
    }]);
  }
  const page = await context.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on("request", (req) => requests.push(new URL(req.url()).pathname));
  page.on("pageerror", (err) => problems.push(err.message));
  await page.goto(path);
  return { page, requests, problems, close: () => context.close() };
}

const toast = (page: Page) => page.locator(".toast");

/** A file for the browser's file picker. */
const file = (name: string, mimeType: string, bytes: Uint8Array) => ({
  name,
  mimeType,
  buffer: Buffer.from(bytes),
});

async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage: true });
}

async function insertQuote() {
  const client = await app.db.insertInto("clients").values({ firstName: "Rosa", lastName: "Park" })
    .returning("id").executeTakeFirstOrThrow();
  const quote = await app.db.insertInto("quotes").values({ clientId: client.id, status: "ACTIVE" })
    .returning("id").executeTakeFirstOrThrow();
  const option = await app.db.insertInto("quoteOptions").values({
    quoteId: quote.id,
    position: 0,
    isChosen: true,
    subtotal: "100.00",
  }).returning("id").executeTakeFirstOrThrow();
  await app.db.insertInto("optionItems").values({
    optionId: option.id,
    position: 0,
    kind: "FRAME",
    sku: "RB-1",
    unitPrice: "100.00",
  }).execute();
  return quote.id;
}

describe("branding upload on the settings screen", () => {
  it("checks the file before sending, previews it, shows progress and sets the logo", async () => {
    const { page, requests, problems, close } = await open("/admin/settings");
    await page.waitForSelector("html[data-hydrated=true]");
    const logoFile = page.getByLabel("Choose logo file");
    const sent = () => requests.filter((p) => p.startsWith("/api/objects/upload")).length;

    // Refused here, with the server's rules, before any call.
    await logoFile.setInputFiles(file("big.png", "image/png", padTo(PNG, 6 * 1024 * 1024)));
    await page.getByRole("alert").getByText("The logo must be at most 5 MB").waitFor();
    const html = new TextEncoder().encode("<!doctype html><p>not an image</p>");
    await logoFile.setInputFiles(file("logo.png", "image/png", html));
    await page.getByRole("alert").getByText("The logo must be a PNG, JPEG, GIF, WebP or SVG image")
      .waitFor();
    expect(sent()).toBe(0);

    // A good file: its preview, then the upload with its progress.
    await logoFile.setInputFiles(file("logo.svg", "image/svg+xml", svg("", "#2e7d32")));
    const preview = page.getByRole("img", { name: "New logo, not uploaded yet" });
    await preview.waitFor();
    await expect(preview.getAttribute("src")).resolves.toMatch(/^data:image\/svg\+xml;base64,/);
    let release!: () => void;
    const held = new Promise<void>((resolve) => release = resolve);
    await page.route("**/api/admin/logo", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Upload Logo" }).click();
    const progress = page.getByRole("progressbar", { name: "Uploading logo" });
    await progress.waitFor();
    await page.waitForFunction(() =>
      (document.querySelector("progress") as HTMLProgressElement | null)?.value === 100
    );
    await shoot(page, "settings-logo-uploading");
    release();
    await toast(page).getByText("Logo Updated", { exact: true }).waitFor();

    const { logoUrl } = await app.db.selectFrom("settings").select("logoUrl")
      .executeTakeFirstOrThrow();
    expect(logoUrl).toMatch(/^\/uploads\/[0-9a-f]{64}\.svg$/);
    await expect(page.getByRole("img", { name: "Current logo" }).getAttribute("src")).resolves
      .toBe(logoUrl);
    // The staff bar on this page shows it at once.
    await expect(page.locator("img.brand-logo").getAttribute("src")).resolves.toBe(logoUrl);
    expect(requests).toEqual(expect.arrayContaining(["/api/objects/upload", "/api/admin/logo"]));
    await shoot(page, "settings-logo-updated");
    expect(problems).toEqual([]);
    await close();
  });

  it("sets the favicon, refusing a wrong type before sending", async () => {
    const { page, problems, close } = await open("/admin/settings");
    await page.waitForSelector("html[data-hydrated=true]");
    const faviconFile = page.getByLabel("Choose favicon file");
    await faviconFile.setInputFiles(file("icon.jpg", "image/jpeg", JPEG));
    await page.getByRole("alert").getByText("The favicon must be an ICO, PNG or SVG image")
      .waitFor();
    await expectCount(page.getByRole("button", { name: "Upload Favicon" }), 0);

    await faviconFile.setInputFiles(file("favicon.ico", "image/x-icon", ICO));
    await page.getByRole("button", { name: "Upload Favicon" }).click();
    await toast(page).getByText("Favicon Updated", { exact: true }).waitFor();
    const { faviconUrl } = await app.db.selectFrom("settings").select("faviconUrl")
      .executeTakeFirstOrThrow();
    expect(faviconUrl).toMatch(/^\/uploads\/[0-9a-f]{64}\.ico$/);
    await expect(page.locator('link[rel="icon"]').getAttribute("href")).resolves.toBe(faviconUrl);
    expect(problems).toEqual([]);
    await close();
  });

  it("says Upload Failed when the server refuses", async () => {
    const { page, close } = await open("/admin/settings");
    await page.waitForSelector("html[data-hydrated=true]");
    await page.route(
      "**/api/admin/logo",
      (route) => route.fulfill({ status: 500, body: '{"message":"boom"}' }),
    );
    await page.getByLabel("Choose logo file").setInputFiles(file("logo.gif", "image/gif", GIF));
    await page.getByRole("button", { name: "Upload Logo" }).click();
    await toast(page).getByText("Upload Failed", { exact: true }).waitFor();
    await expect(toast(page).textContent()).resolves.toContain(
      "Failed to update logo. Please try again.",
    );
    expect(
      (await app.db.selectFrom("settings").select("logoUrl").executeTakeFirstOrThrow())
        .logoUrl,
    ).toBeNull();
    await close();
  });

  it("fits a phone", async () => {
    const { page, close } = await open("/admin/settings", { viewport: PHONE });
    await page.waitForSelector("html[data-hydrated=true]");
    await page.getByLabel("Choose logo file").setInputFiles(file("logo.png", "image/png", PNG));
    await page.getByRole("button", { name: "Upload Logo" }).waitFor();
    const overflow = await page.evaluate(() => {
      let widest = document.documentElement.scrollWidth;
      for (const el of Array.from(document.querySelectorAll(".settings-branding *"))) {
        widest = Math.max(widest, Math.ceil(el.getBoundingClientRect().right));
      }
      return widest - globalThis.innerWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByRole("heading", { name: "Branding" }).scrollIntoViewIfNeeded();
    const path = screenshotPath("settings-branding-phone");
    if (path) await page.screenshot({ path });
    await close();
  });
});

describe("the uploaded logo and favicon in use", () => {
  it("show on the staff bar, the landing, the sign-in page and both print copies", async () => {
    const logoUrl = await setBrandingImage(app, admin, "logo", svg("", "#6a1b9a"), "image/svg+xml");
    const faviconUrl = await setBrandingImage(app, admin, "favicon", ICO, "image/x-icon");
    const quoteId = await insertQuote();
    // Print pages show the logo's print copy (a PNG of print size), the rest the upload.
    const { logoPrintUrl } = await app.db.selectFrom("settings").select("logoPrintUrl")
      .executeTakeFirstOrThrow();
    expect(logoPrintUrl).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
    const places: Array<[string, boolean, string, string]> = [
      ["/dashboard", true, "img.brand-logo", logoUrl],
      ["/", false, "img.landing-logo", logoUrl],
      ["/staff", false, "img.auth-logo", logoUrl],
      [`/print/${quoteId}`, true, "#print-copy-client img.print-logo", logoPrintUrl!],
      [
        `/print/${quoteId}?copy=internal`,
        true,
        "#print-copy-internal img.print-logo",
        logoPrintUrl!,
      ],
    ];
    for (const [path, signedIn, selector, src] of places) {
      const { page, close } = await open(path, { signedIn });
      const img = page.locator(selector).first();
      await expect([path, await img.getAttribute("src")]).toEqual([path, src]);
      // Loaded and drawn, not a broken image.
      await page.waitForFunction(
        (sel) => (document.querySelector(sel) as HTMLImageElement | null)?.naturalWidth! > 0,
        selector,
      );
      await expect(page.locator('link[rel="icon"]').getAttribute("href")).resolves.toBe(faviconUrl);
      await shoot(page, `branding${path.replace(/[^a-z]+/g, "-")}`);
      await close();
    }
  });

  it("an SVG logo with a script runs no script, in the app or opened directly", async () => {
    // Were the script to run, it would mark the document and call home.
    const evil = svg(
      `<script>document.documentElement.setAttribute("data-pwned", "yes");` +
        `fetch("/pwned-by-script")</script>`,
    );
    const withHandler = new TextDecoder().decode(evil).replace(
      "<svg ",
      `<svg onload="this.setAttribute('data-onload', 'yes'); fetch('/pwned-by-onload')" `,
    );
    const logoUrl = await setBrandingImage(
      app,
      admin,
      "logo",
      new TextEncoder().encode(withHandler),
      "image/svg+xml",
    );

    // As an <img> in the app.
    const inApp = await open("/dashboard");
    await inApp.page.waitForFunction(() =>
      (document.querySelector("img.brand-logo") as HTMLImageElement).naturalWidth > 0
    );
    expect(inApp.requests.filter((p) => p.startsWith("/pwned"))).toEqual([]);
    expect(inApp.problems).toEqual([]);
    await inApp.close();

    // Opened on its own, as a document: sandboxed, no script source.
    const direct = await open(logoUrl, { signedIn: true });
    await direct.page.waitForLoadState("load");
    // Both would be set by now had either script run: the first while parsing, the other at load.
    await expect(direct.page.evaluate(() => document.documentElement.getAttribute("data-pwned")))
      .resolves.toBeNull();
    await expect(direct.page.evaluate(() => document.documentElement.getAttribute("data-onload")))
      .resolves.toBeNull();
    await expect(direct.page.evaluate(() => document.documentElement.localName)).resolves.toBe(
      "svg",
    );
    expect(direct.requests.filter((p) => p.startsWith("/pwned"))).toEqual([]);
    await direct.close();
  });
});
