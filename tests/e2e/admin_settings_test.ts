import { beforeEach, describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../helpers/test_app.ts";
import { call, createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import {
  DESKTOP,
  expectCount,
  openSignedIn,
  screenshotPath,
  TABLET_PORTRAIT,
} from "../helpers/browser.ts";
import { startSmtpServer } from "../helpers/smtp.ts";
import { UNAUTHORIZED_SETTINGS_TEXT } from "../../routes/pages/admin_settings.tsx";
import { encryptSecret } from "../../src/mail/secret_box.ts";
import { useBrowserApp } from "../helpers/suite.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";

let app: TestApp;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let owner: string;
let admin: string;
let optician: string;

useBrowserApp(async (started) => {
  ({ app, browser, smtp } = started);
  const cookie = async (role: "OWNER" | "ADMIN" | "AUTHORIZED_USER") =>
    sessionCookieFor(app.db, (await createTestUser(app.db, { role })).id);
  [owner, admin, optician] = await Promise.all([
    cookie("OWNER"),
    cookie("ADMIN"),
    cookie("AUTHORIZED_USER"),
  ]);
  // A short mail-server timeout: a failed test e-mail is answered 2.5 s after it.
}, { env: { SMTP_TIMEOUT_MS: "500" }, smtp: true });
// Each test starts from untouched settings.
beforeEach(async () => {
  await app.db.updateTable("settings").set({
    storeName: null,
    storeEmail: null,
    smtpHost: null,
    smtpUser: null,
    smtpPassEnc: null,
    smtpFromEmail: null,
    smtpAllowInsecure: false,
    smtpVerifiedAt: null,
    smtpLastError: null,
    quoteExpirationEnabled: true,
    quoteExpirationDays: 30,
    closedDates: "",
  }).where("id", "=", 1).execute();
});

/** A signed-in page that records page errors, console errors and API calls. */
const open = (cookie: string, viewport = DESKTOP) =>
  openSignedIn(browser, app.baseUrl, cookie, viewport);

async function openSettings(cookie: string, viewport = DESKTOP) {
  const opened = await open(cookie, viewport);
  const res = await opened.page.goto("/admin/settings");
  expect(res?.status()).toBe(200);
  await opened.page.waitForSelector("html[data-hydrated=true]");
  return opened;
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const toast = (page: Page) => page.locator(".toast");

async function settingsRow() {
  return await app.db.selectFrom("settings").selectAll().where("id", "=", 1)
    .executeTakeFirstOrThrow();
}

async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage: true });
}

describe("Admin Settings", () => {
  it("an owner saves store and mail settings, sends a test e-mail and sets expiry", async () => {
    const { page, problems, close } = await openSettings(owner);
    try {
      await expect(page.getByRole("heading", { name: "Store Information" }).count()).resolves
        .toBe(1);
      await expect(page.locator(".settings-status").textContent()).resolves.toContain(
        "Not configured",
      );
      // Defaults the spec names are filled in.
      await expect(field(page, "SMTP Port").inputValue()).resolves.toBe("587");
      await expect(field(page, "Email Subject").inputValue()).resolves.toBe("Quote from {store}");
      await expect(field(page, "Email Body").inputValue()).resolves.toBe(
        "Please find your quote attached below.",
      );
      // Branding: the images in use (the built-in ones here) and an upload for each.
      await expect(page.getByRole("img", { name: "Current logo" }).getAttribute("src")).resolves
        .toBe("/static/logo.svg");
      await expect(page.getByRole("img", { name: "Current favicon" }).getAttribute("src"))
        .resolves.toBe("/static/favicon.svg");
      await expect(page.getByLabel("Choose logo file").getAttribute("accept")).resolves.toBe(
        "image/png,image/jpeg,image/gif,image/webp,image/svg+xml",
      );
      await expect(page.getByLabel("Choose favicon file").getAttribute("accept")).resolves.toBe(
        "image/x-icon,image/png,image/svg+xml",
      );

      await field(page, "Store Name").fill("Clear View Optical");
      await field(page, "Store Phone").fill("555-123-4567");
      await field(page, "Store Email").fill("hello@clearview.test");
      await field(page, "Store Address").fill("1 Lens Lane, Springfield");
      await field(page, "Website").fill("https://clearview.test");
      await field(page, "SMTP Host").fill("127.0.0.1");
      await field(page, "SMTP Port").fill(String(smtp.port));
      await field(page, "SMTP Username").fill(smtp.credentials.user);
      await field(page, "SMTP Password").fill(smtp.credentials.pass);
      await field(page, "From Email").fill("quotes@clearview.test");
      await field(page, "Sender Name").fill("Clear View");
      // The loopback test server speaks no TLS.
      await page.getByLabel("Local relay without TLS").check();
      await expectCount(page.getByText("You have unsaved changes."), 1);
      await shoot(page, "settings-owner-filled-desktop");

      await page.getByRole("button", { name: "Save Settings" }).click();
      await toast(page).getByText("Settings Updated", { exact: true }).waitFor();
      await expect(toast(page).textContent()).resolves.toContain(
        "Application settings have been updated successfully.",
      );
      let row = await settingsRow();
      expect(row).toMatchObject({
        storeName: "Clear View Optical",
        storePhone: "555-123-4567",
        storeEmail: "hello@clearview.test",
        storeAddress: "1 Lens Lane, Springfield",
        storeWebsite: "https://clearview.test",
        smtpHost: "127.0.0.1",
        smtpPort: smtp.port,
        smtpUser: smtp.credentials.user,
        smtpFromEmail: "quotes@clearview.test",
        smtpFromName: "Clear View",
        smtpAllowInsecure: true,
      });
      expect(row.smtpPassEnc).toMatch(/^v1:/);
      expect(row.smtpPassEnc).not.toContain(smtp.credentials.pass);
      // The password field empties and says one is stored; status is now unproven.
      await expect(field(page, "SMTP Password").inputValue()).resolves.toBe("");
      await page.getByText("A password is stored. Leave blank to keep it.").waitFor();
      await page.locator(".settings-status", { hasText: "Not verified yet" }).waitFor();

      // Test e-mail: the button waits for an address.
      const send = page.getByRole("button", { name: "Send Test Email" });
      await expect(send.isDisabled()).resolves.toBe(true);
      await field(page, "Send a test email to").fill("owner@clearview.test");
      await send.click();
      await toast(page).getByText("Test Email Sent", { exact: true }).waitFor();
      await expect(toast(page).textContent()).resolves.toContain(
        "Test email sent successfully! Check your inbox.",
      );
      expect(smtp.received.at(-1)?.to).toEqual(["owner@clearview.test"]);
      await page.locator(".settings-status", { hasText: "Working" }).waitFor();

      // Expiry off hides the days; back on with 45 days.
      const expires = page.getByRole("switch", { name: "Quotes expire" });
      await expires.uncheck();
      await expectCount(field(page, "Days until a quote expires"), 0);
      await page.getByRole("button", { name: "Save Settings" }).click();
      await waitFor(async () => (await settingsRow()).quoteExpirationEnabled === false);
      await expires.check();
      await field(page, "Days until a quote expires").fill("45");
      await page.getByRole("button", { name: "Save Settings" }).click();
      await waitFor(async () => (await settingsRow()).quoteExpirationDays === 45);
      row = await settingsRow();
      expect(row.quoteExpirationEnabled).toBe(true);
      // Saving other fields with a blank password field kept the stored one,
      // and left the proven mail settings proven.
      expect(row.smtpPassEnc).toMatch(/^v1:/);
      await expect(page.locator(".settings-status").textContent()).resolves.toContain("Working");
      await page.getByText("You have unsaved changes.").waitFor({ state: "detached" });
      await shoot(page, "settings-owner-saved-desktop");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("requires TLS until a local relay is allowed; changing the server drops the password", async () => {
    await app.db.updateTable("settings").set({
      smtpHost: "127.0.0.1",
      smtpPort: smtp.port,
      smtpUser: smtp.credentials.user,
      smtpPassEnc: await encryptSecret(app.config.secretKey, smtp.credentials.pass),
      smtpFromEmail: "quotes@clearview.test",
    }).where("id", "=", 1).execute();
    const { page, problems, close } = await openSettings(admin);
    const attempts = smtp.authAttempts.length;
    try {
      const box = page.getByLabel("Local relay without TLS");
      await expect(box.isChecked()).resolves.toBe(false);
      await page.getByText(
        "Off: mail is sent only over TLS (port 465, or STARTTLS on other ports).",
      )
        .waitFor();
      // The loopback server offers no TLS: the test fails, and says nothing about why.
      await field(page, "Send a test email to").fill("admin@clearview.test");
      await page.getByRole("button", { name: "Send Test Email" }).click();
      await toast(page).getByText("Test Email Failed", { exact: true }).waitFor();
      await page.locator(".settings-status", { hasText: "Error" }).waitFor();
      const detail = await page.locator(".settings-status-detail").textContent();
      expect(detail).toContain("could not be reached or did not accept the message");
      expect(detail).not.toContain(String(smtp.port));
      // Nothing was sent in clear, the password least of all.
      expect(smtp.authAttempts.length).toBe(attempts);

      // Ticking the box warns; saving it without the password drops the stored one.
      await box.check();
      const warning = page.getByText(
        "Warning: mail, and the SMTP password, will cross the network unencrypted.",
        { exact: false },
      );
      await warning.waitFor();
      await expect(page.locator(".settings-warning").isVisible()).resolves.toBe(true);
      await shoot(page, "settings-local-relay-warning");
      await page.getByRole("button", { name: "Save Settings" }).click();
      await toast(page).getByText(
        "The stored SMTP password was removed because the mail server settings changed: enter it again.",
        { exact: false },
      ).waitFor();
      await page.getByText("No password is stored.").waitFor();
      let row = await settingsRow();
      expect(row).toMatchObject({ smtpAllowInsecure: true, smtpPassEnc: null });

      // Typed again, the test e-mail goes through the relay.
      await page.getByRole("button", { name: "Dismiss notification" }).click();
      await field(page, "SMTP Password").fill(smtp.credentials.pass);
      await page.getByRole("button", { name: "Save Settings" }).click();
      await page.getByText("A password is stored.", { exact: false }).waitFor();
      row = await settingsRow();
      expect(row.smtpPassEnc).toMatch(/^v1:/);
      await page.getByRole("button", { name: "Send Test Email" }).click();
      await toast(page).getByText("Test Email Sent", { exact: true }).waitFor();
      expect(smtp.received.at(-1)?.to).toEqual(["admin@clearview.test"]);
      // The refused test e-mail (503) is logged by the browser itself; nothing else may be.
      expect(problems.filter((p) => !p.includes("status of 503"))).toEqual([]);
    } finally {
      await close();
    }
  });

  it("shows field messages and makes no call while the form is invalid", async () => {
    const { page, problems, apiCalls, close } = await openSettings(owner, TABLET_PORTRAIT);
    try {
      await field(page, "Days until a quote expires").fill("0");
      await field(page, "Store Email").fill("not-an-email");
      await page.getByRole("button", { name: "Save Settings" }).click();
      await page.getByText("Expiration days must be at least 1").waitFor();
      await page.getByText("Please enter a valid email address").waitFor();
      expect(apiCalls.filter((c) => c.startsWith("PUT"))).toEqual([]);
      await shoot(page, "settings-validation-tablet");
      // Fixing a field clears its message straight away.
      await field(page, "Days until a quote expires").fill("90");
      await page.getByText("Expiration days must be at least 1").waitFor({ state: "detached" });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("keeps the store's closed dates: picked, listed in order, removed, saved", async () => {
    // A holiday long past, from an earlier year.
    await app.db.updateTable("settings").set({ closedDates: "2020-01-01" }).execute();
    const { page, problems, apiCalls, close } = await openSettings(admin, TABLET_PORTRAIT);
    try {
      const list = page.getByRole("list", { name: "Closed dates" });
      const picker = field(page, "Closed Dates");
      await expect(list.getByRole("listitem").allTextContents()).resolves.toEqual([
        "Wed, Jan 1, 2020(past)Remove",
      ]);
      // Nothing picked: a message under the picker, nothing added.
      await page.getByRole("button", { name: "Add Date" }).click();
      await page.getByText("Choose a date to add").waitFor();
      await expect(picker.getAttribute("aria-invalid")).resolves.toBe("true");
      // Enter adds the picked day (it does not save the form); the list stays in date order.
      await picker.fill("2030-12-25");
      await picker.press("Enter");
      await list.getByText("Wed, Dec 25, 2030").waitFor();
      await picker.fill("2030-01-01");
      await page.getByRole("button", { name: "Add Date" }).click();
      await expect(list.getByRole("listitem").allTextContents()).resolves.toEqual([
        "Wed, Jan 1, 2020(past)Remove",
        "Tue, Jan 1, 2030Remove",
        "Wed, Dec 25, 2030Remove",
      ]);
      // The same day twice is listed once.
      await picker.fill("2030-12-25");
      await picker.press("Enter");
      await expectCount(list.getByRole("listitem"), 3);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await shoot(page, "settings-closed-dates-tablet");
      expect(apiCalls.filter((c) => c.startsWith("PUT"))).toEqual([]);

      await page.getByRole("button", { name: "Remove Past Dates (1)" }).click();
      await page.getByRole("button", { name: "Remove Tue, Jan 1, 2030" }).click();
      await expect(list.getByRole("listitem").allTextContents()).resolves.toEqual([
        "Wed, Dec 25, 2030Remove",
      ]);
      await page.getByRole("button", { name: "Save Settings" }).click();
      await toast(page).getByText("Settings Updated", { exact: true }).waitFor();
      expect((await settingsRow()).closedDates).toBe("2030-12-25");

      // Removing the last one shows the empty state, and saves as none.
      await page.getByRole("button", { name: "Remove Wed, Dec 25, 2030" }).click();
      await page.getByText("No closed dates.").waitFor();
      await page.getByRole("button", { name: "Save Settings" }).click();
      await waitFor(async () => (await settingsRow()).closedDates === "");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("turns other signed-in users away with a 403 and sends them home", async () => {
    const res = await call(app, "GET", "/admin/settings", { cookie: optician });
    expect(res.status).toBe(403);
    expect(res.text).toContain(UNAUTHORIZED_SETTINGS_TEXT);
    expect(res.text).not.toContain('data-island="SettingsForm"');

    const { page, close } = await open(optician);
    try {
      const res = await page.goto("/admin/settings");
      expect(res?.status()).toBe(403);
      await page.waitForURL((url) => url.pathname === "/" || url.pathname === "/dashboard", {
        timeout: 5000,
      });
      expect(["/", "/dashboard"]).toContain(new URL(page.url()).pathname);
      if (screenshotPath("settings-unauthorized")) {
        // Held on the message for the screenshot: a 204 for "/" leaves the page where it is.
        await page.route(
          (url) => url.pathname === "/" || url.pathname === "/dashboard",
          (route) => route.fulfill({ status: 204 }),
        );
        await page.goto("/admin/settings", { waitUntil: "load" }).catch(() => {});
        await page.waitForTimeout(800);
        await shoot(page, "settings-unauthorized");
      }
    } finally {
      await close();
    }
  });

  it("lets an admin open the page", async () => {
    const { page, problems, close } = await openSettings(admin, TABLET_PORTRAIT);
    try {
      await page.getByRole("heading", { name: "Admin Settings" }).waitFor();
      await page.getByRole("button", { name: "Save Settings" }).waitFor();
      await shoot(page, "settings-admin-tablet");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("Timed out waiting for the condition");
    await new Promise((r) => setTimeout(r, 50));
  }
}
