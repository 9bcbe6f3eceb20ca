import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import { generateHOTP } from "@oslojs/otp";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { call, cookieFrom, createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import { DESKTOP, openSignedIn, screenshotPath } from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { currentStep, TOTP_PERIOD_S } from "../../src/auth/totp.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, owner: TestUser;
/** How far the app's clock is ahead of the real one: moved on a step at a time by nextCode. */
let aheadMs = 0;
const appNow = () => Date.now() + aheadMs;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  owner = await createTestUser(app.db, { role: "OWNER", firstName: "Olivia" });
}, { clock: () => new Date(appNow()) });

const unexpected = (problems: string[]) =>
  problems.filter((p) => !p.startsWith("console: Failed to load resource"));

async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage: true });
}

/** The key an authenticator app would read, from the text under the QR code. */
async function keyOnPage(page: Page): Promise<Uint8Array> {
  const text = await page.getByTestId("totp-key").textContent();
  return decodeBase32IgnorePadding(text!.replace(/\s/g, ""));
}

/**
 * The code an app shows now, or for the next step when the current one was
 * already used (a code works once): what a person waiting for the next code does.
 */
async function nextCode(key: Uint8Array, userId: string): Promise<string> {
  const row = await app.db.selectFrom("users").select("totpLastStep").where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const last = row.totpLastStep === null ? -1n : BigInt(row.totpLastStep);
  // A code of this step was used already: an authenticator app would show the
  // next one only when its step begins (a code of a step still to come is not
  // what a person can type), so the app's clock moves on to the middle of the
  // next step, as the person's 30-second wait would, without the wait.
  if (currentStep(appNow()) <= last) {
    aheadMs += Number(last + 1n) * TOTP_PERIOD_S * 1000 + TOTP_PERIOD_S * 500 - appNow();
  }
  return generateHOTP(key, currentStep(appNow()), 6);
}

async function signInPage() {
  const context = await browser.newContext({ viewport: DESKTOP, baseURL: app.baseUrl });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  await page.goto("/staff");
  await page.waitForSelector("html[data-hydrated=true]");
  return { page, problems, close: () => context.close() };
}

async function typePassword(page: Page, user: TestUser) {
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  // A right password leads to the second-factor page: typing waits for its island.
  await page.waitForURL(`${app.baseUrl}/staff/two-factor`);
  await page.waitForSelector("html[data-hydrated=true]");
}

describe("two-factor sign-in", () => {
  let key: Uint8Array;
  let recoveryCodes: string[];

  it("an owner turns it on with the QR page's key and a code computed here", async () => {
    const { page, problems, close } = await openSignedIn(
      browser,
      app.baseUrl,
      await sessionCookieFor(app.db, owner.id),
    );
    try {
      await page.goto("/dashboard");
      await page.locator("summary", { hasText: "Menu" }).click();
      await page.getByRole("link", { name: "Two-Factor Sign-In" }).click();
      await page.waitForURL(`${app.baseUrl}/account/two-factor`);
      await page.waitForSelector("html[data-hydrated=true]");
      await page.getByRole("button", { name: "Set Up Two-Factor Sign-In" }).click();
      await page.getByRole("img", { name: /QR code/ }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      key = await keyOnPage(page);
      expect(key.length).toBe(20);
      await shoot(page, "two-factor-enrol");

      await page.getByLabel("6-digit code").fill("000000");
      await page.getByRole("button", { name: "Turn On" }).click();
      await page.getByText(/That code does not match/).waitFor();
      await page.getByLabel("6-digit code").fill(await nextCode(key, owner.id));
      await page.getByRole("button", { name: "Turn On" }).click();
      await page.getByRole("heading", { name: "Save Your Recovery Codes" }).waitFor();
      recoveryCodes = await page.getByTestId("recovery-codes").locator("code").allTextContents();
      expect(recoveryCodes.length).toBe(10);
      await page.getByRole("button", { name: "Done" }).click();
      await page.locator("strong", { hasText: "Two-factor sign-in is on." }).waitFor();
      expect(unexpected(problems)).toEqual([]);
    } finally {
      await close();
    }
    // Only hashes of the recovery codes are stored, and the secret only encrypted.
    const stored = await app.db.selectFrom("totpRecoveryCodes").select("id")
      .where("userId", "=", owner.id).execute();
    expect(stored.map((r) => r.id)).not.toContain(recoveryCodes[0]);
    const user = await app.db.selectFrom("users").select("totpSecretEnc")
      .where("id", "=", owner.id).executeTakeFirstOrThrow();
    expect(user.totpSecretEnc).not.toContain(
      (await import("@oslojs/encoding")).encodeBase32UpperCaseNoPadding(key),
    );
  });

  it("then asks for a code after the password; a used code is refused, the next one signs in", async () => {
    const { page, problems, close } = await signInPage();
    try {
      await typePassword(page, owner);
      await page.getByLabel("Authentication Code").waitFor();
      // The instruction is said once (the page's subtitle), not again above the field.
      expect(await page.getByText("Enter the 6-digit code from your authenticator app").count())
        .toBe(1);
      // The password alone gave no session.
      const cookies = await page.context().cookies();
      expect(cookies.some((c) => c.name === "lensdesk_session")).toBe(false);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await shoot(page, "two-factor-verify");

      // The code the enrolment used (its step is the last one used) does not work again.
      const row = await app.db.selectFrom("users").select("totpLastStep")
        .where("id", "=", owner.id).executeTakeFirstOrThrow();
      await page.getByLabel("Authentication Code").fill(
        generateHOTP(key, BigInt(row.totpLastStep!), 6),
      );
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByText(/That code is not right, or was already used/).waitFor();

      await page.getByLabel("Authentication Code").fill(await nextCode(key, owner.id));
      await page.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL(`${app.baseUrl}/dashboard`);
      expect(unexpected(problems)).toEqual([]);
    } finally {
      await close();
    }
  });

  it("takes a recovery code once", async () => {
    const { page, close } = await signInPage();
    try {
      await typePassword(page, owner);
      await page.getByLabel("Authentication Code").fill(recoveryCodes[0].toUpperCase());
      await page.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL(`${app.baseUrl}/dashboard`);
    } finally {
      await close();
    }
    const login = await call(app, "POST", "/api/staff/login", {
      body: { username: owner.username, password: owner.password },
    });
    expect(login.body).toEqual({ twoFactor: "verify" });
    const again = await call(app, "POST", "/api/auth/two-factor/verify", {
      body: { code: recoveryCodes[0] },
      cookie: cookieFrom(login, "lensdesk_2fa"),
    });
    expect(again.status).toBe(400);
  });

  it("replaces the authenticator only after the password and a current or recovery code", async () => {
    const { page, problems, close } = await openSignedIn(
      browser,
      app.baseUrl,
      await sessionCookieFor(app.db, owner.id),
    );
    try {
      await page.goto("/account/two-factor");
      await page.waitForSelector("html[data-hydrated=true]");
      await page.getByRole("button", { name: "Replace Authenticator" }).click();
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByText("Please enter your current password").waitFor();
      await page.getByLabel("Current password").fill("not my password");
      await page.getByLabel("Current code or a recovery code").fill(recoveryCodes[1]);
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByText("The current password is not correct").first().waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await shoot(page, "two-factor-replace");
      await page.getByLabel("Current password").fill(owner.password);
      await page.getByLabel("Current code or a recovery code").fill(recoveryCodes[1]);
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByRole("img", { name: /QR code/ }).waitFor();
      const newKey = await keyOnPage(page);
      expect(newKey).not.toEqual(key);
      await page.getByLabel("6-digit code").fill(await nextCode(newKey, owner.id));
      await page.getByRole("button", { name: "Turn On" }).click();
      await page.getByRole("heading", { name: "Save Your Recovery Codes" }).waitFor();
      const fresh = await page.getByTestId("recovery-codes").locator("code").allTextContents();
      await page.getByRole("button", { name: "Done" }).click();
      await page.getByText("10 recovery codes left.").waitFor();
      // The old codes are gone with the old key; the new ones are 26 characters of 128 bits.
      expect(fresh[0]).toMatch(/^([a-z2-7]{5}-){4}[a-z2-7]{6}$/);
      const login = await call(app, "POST", "/api/staff/login", {
        body: { username: owner.username, password: owner.password },
      });
      const old = await call(app, "POST", "/api/auth/two-factor/verify", {
        body: { code: recoveryCodes[2] },
        cookie: cookieFrom(login, "lensdesk_2fa"),
      });
      expect(old.status).toBe(400);
      key = newKey;
      recoveryCodes = fresh;
      // The 400s for the wrong password and the empty form are the expected console lines.
      expect(unexpected(problems).filter((p) => !p.includes("400"))).toEqual([]);
    } finally {
      await close();
    }
  });

  it("once the owner requires it, an admin without it enrols at sign-in before getting in", async () => {
    const ownerCookie = await sessionCookieFor(app.db, owner.id);
    const policy = await call(app, "PUT", "/api/admin/two-factor-policy", {
      cookie: ownerCookie,
      body: { required: true },
    });
    expect(policy.status).toBe(200);
    const admin = await createTestUser(app.db, { role: "ADMIN", firstName: "Adam" });
    const staff = await createTestUser(app.db);

    const { page, problems, close } = await signInPage();
    try {
      await typePassword(page, admin);
      await page.getByText("This store requires two-factor sign-in").waitFor();
      expect(await page.getByText("This store requires two-factor sign-in").count()).toBe(1);
      await page.getByRole("button", { name: "Set Up Two-Factor Sign-In" }).click();
      const adminKey = await keyOnPage(page);
      expect(await page.getByText(/Scan (this|the) QR code/).count()).toBe(1);
      await page.getByLabel("6-digit code").fill(await nextCode(adminKey, admin.id));
      await page.getByRole("button", { name: "Turn On" }).click();
      await page.getByRole("heading", { name: "Save Your Recovery Codes" }).waitFor();
      await page.getByRole("button", { name: "Continue" }).click();
      await page.waitForURL(`${app.baseUrl}/dashboard`);
      expect(unexpected(problems)).toEqual([]);
    } finally {
      await close();
    }
    // Staff are not asked.
    const staffLogin = await call(app, "POST", "/api/staff/login", {
      body: { username: staff.username, password: staff.password },
    });
    expect(staffLogin.status).toBe(200);
    expect(cookieFrom(staffLogin, "lensdesk_session")).toBeDefined();
    await call(app, "PUT", "/api/admin/two-factor-policy", {
      cookie: ownerCookie,
      body: { required: false },
    });
  });
});
