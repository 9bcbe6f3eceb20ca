import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import {
  call,
  createTestUser,
  sessionCookieFor,
  type TestApp,
  type TestUser,
  waitUntil,
} from "../helpers/test_app.ts";
import { DESKTOP, expectCount, openSignedIn, screenshotPath } from "../helpers/browser.ts";
import { seriousA11yViolations } from "../helpers/axe.ts";
import { mailSettingsFor, type ReceivedMail, startSmtpServer } from "../helpers/smtp.ts";
import { FORGOT_PASSWORD_ANSWER, RESET_DONE } from "../../src/schemas/password_recovery.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let owner: TestUser;

useBrowserApp(async (started) => {
  ({ app, browser, smtp } = started);
  owner = await createTestUser(app.db, { role: "OWNER", firstName: "Olivia" });
  const res = await call(app, "PUT", "/api/admin/settings", {
    cookie: await sessionCookieFor(app.db, owner.id),
    body: mailSettingsFor(smtp, { fromEmail: "quotes@store.test" }),
  });
  expect(res.status).toBe(200);
}, { smtp: true });

/** Page errors, less the browser's note of each refused call (the tests make some on purpose). */
const unexpected = (problems: string[]) =>
  problems.filter((p) => !p.startsWith("console: Failed to load resource"));
const toast = (page: Page) => page.locator(".toast");
const expectToast = (page: Page, text: string) =>
  toast(page).getByText(text, { exact: true }).waitFor();

async function shoot(page: Page, name: string) {
  const path = screenshotPath(name);
  if (path) await page.screenshot({ path, fullPage: true });
}

async function signedOutPage() {
  const context = await browser.newContext({ viewport: DESKTOP, baseURL: app.baseUrl });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  return { page, problems, close: () => context.close() };
}

function linkIn(mail: ReceivedMail): string {
  const body = mail.raw.replace(/=\r?\n/g, "").replace(
    /=([0-9A-F]{2})/g,
    (_, hex) => String.fromCharCode(parseInt(hex, 16)),
  );
  return body.match(/https?:\/\/[^\s"<>]+\/reset-password\?token=[\w-]+/)![0];
}

async function mailTo(address: string, count = 1): Promise<ReceivedMail> {
  await waitUntil(
    () => smtp.received.filter((m) => m.to.includes(address)).length >= count,
    `mail reaches ${address}`,
  );
  return smtp.received.filter((m) => m.to.includes(address)).at(-1)!;
}

describe("forgotten password in the browser", () => {
  it("Forgot your password? → Check Your Email → the mailed link → a new password that signs in", async () => {
    const user = await createTestUser(app.db, { email: "rosa@store.test", firstName: "Rosa" });
    const { page, problems, close } = await signedOutPage();
    try {
      await page.goto("/staff");
      await page.waitForSelector("html[data-hydrated=true]");
      await page.getByRole("link", { name: "Forgot your password?" }).click();
      await page.waitForURL(`${app.baseUrl}/forgot-password`);
      await page.waitForSelector("html[data-hydrated=true]");
      expect(await seriousA11yViolations(page)).toEqual([]);

      await page.getByRole("button", { name: "Send Reset Instructions" }).click();
      await page.locator(".field-error", { hasText: "Please enter your email address" }).waitFor();
      await page.getByLabel("Email").fill("rosa@store.test");
      await page.getByRole("button", { name: "Send Reset Instructions" }).click();
      await page.getByRole("heading", { name: "Check Your Email" }).waitFor();
      await page.getByText(FORGOT_PASSWORD_ANSWER).first().waitFor();
      await shoot(page, "forgot-password-sent");

      const link = linkIn(await mailTo("rosa@store.test"));
      await page.goto(link);
      await page.waitForSelector("html[data-hydrated=true]");
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Reset Password" }).click();
      await expectToast(page, "Please fill in all fields");
      await page.getByLabel("New Password", { exact: true }).fill("rosa-new-pass");
      await page.getByLabel("Confirm New Password").fill("rosa-other");
      await page.getByRole("button", { name: "Reset Password" }).click();
      await expectToast(page, "Passwords do not match");
      await page.getByLabel("New Password", { exact: true }).fill("abc");
      await page.getByLabel("Confirm New Password").fill("abc");
      await page.getByRole("button", { name: "Reset Password" }).click();
      await expectToast(page, "Password must be at least 6 characters long");
      await page.getByLabel("New Password", { exact: true }).fill("rosa-new-pass");
      await page.getByLabel("Confirm New Password").fill("rosa-new-pass");
      await page.getByRole("button", { name: "Reset Password" }).click();
      await expectToast(page, RESET_DONE);
      await shoot(page, "reset-password-done");

      // The same link a second time says it was used.
      await page.goto(link);
      await page.waitForSelector("html[data-hydrated=true]");
      await page.getByLabel("New Password", { exact: true }).fill("rosa-third-pass");
      await page.getByLabel("Confirm New Password").fill("rosa-third-pass");
      await page.getByRole("button", { name: "Reset Password" }).click();
      await expectToast(
        page,
        "This password reset link has already been used. Please request a new one.",
      );

      await page.goto("/staff");
      await page.waitForSelector("html[data-hydrated=true]");
      await page.getByLabel("Username").fill(user.username);
      await page.getByLabel("Password", { exact: true }).fill("rosa-new-pass");
      await page.getByRole("button", { name: "Sign In" }).click();
      await page.waitForURL(`${app.baseUrl}/dashboard`);
      expect(unexpected(problems)).toEqual([]);
    } finally {
      await close();
    }
  });

  it("without a token says No reset token found and goes to /", async () => {
    const { page, close } = await signedOutPage();
    try {
      await page.goto("/reset-password");
      await page.getByText("No reset token found").first().waitFor();
      await page.waitForURL(`${app.baseUrl}/`);
    } finally {
      await close();
    }
  });
});

describe("Change My Password", () => {
  it("is in every role's Menu; an optician's wrong current password is refused, a right one ends the other sessions", async () => {
    const optician = await createTestUser(app.db, { firstName: "Otto" });
    const cookie = await sessionCookieFor(app.db, optician.id);
    const elsewhere = await sessionCookieFor(app.db, optician.id);
    const { page, problems, close } = await openSignedIn(browser, app.baseUrl, cookie);
    try {
      await page.goto("/dashboard");
      await page.locator("summary", { hasText: "Menu" }).click();
      await page.getByRole("link", { name: "Change My Password" }).click();
      await page.waitForURL(`${app.baseUrl}/account/password`);
      await page.waitForSelector("html[data-hydrated=true]");
      expect(await seriousA11yViolations(page)).toEqual([]);

      await page.getByRole("button", { name: "Change Password" }).click();
      await expectToast(page, "Please fill all fields and ensure new passwords match.");
      await page.getByLabel("Current Password").fill("not-my-password");
      await page.getByLabel("New Password", { exact: true }).fill("otto-new-pass");
      await page.getByLabel("Confirm New Password").fill("otto-new-pass");
      await page.getByRole("button", { name: "Change Password" }).click();
      await expectToast(page, "Failed to change password. Please check your current password.");
      await page.locator(".field-error", { hasText: "The current password is not correct" })
        .waitFor();
      expect((await call(app, "GET", "/api/auth/user", { cookie: elsewhere })).status).toBe(200);

      await page.getByLabel("Current Password").fill(optician.password);
      await page.getByRole("button", { name: "Change Password" }).click();
      await expectToast(page, "Your password has been changed.");
      await shoot(page, "change-my-password");
      expect((await call(app, "GET", "/api/auth/user", { cookie: elsewhere })).status).toBe(401);
      expect((await call(app, "GET", "/api/auth/user", { cookie })).status).toBe(200);
      const login = await call(app, "POST", "/api/staff/login", {
        body: { username: optician.username, password: "otto-new-pass" },
      });
      expect(login.status).toBe(200);
      expect(unexpected(problems)).toEqual([]);
    } finally {
      await close();
    }
  });

  it("tells an owner who signs in through the provider where to change it", async () => {
    const ext = await createTestUser(app.db, { role: "OWNER", external: true });
    const { page, close } = await openSignedIn(
      browser,
      app.baseUrl,
      await sessionCookieFor(app.db, ext.id),
    );
    try {
      await page.goto("/account/password");
      await page.getByText("You sign in with Owner Login").waitFor();
      await expectCount(page.getByLabel("Current Password"), 0);
    } finally {
      await close();
    }
  });
});

describe("Send Reset Email in user management", () => {
  it("mails the user a link and says so", async () => {
    const staff = await createTestUser(app.db, {
      email: "sam@store.test",
      username: "sam_reset",
    });
    const { page, problems, close } = await openSignedIn(
      browser,
      app.baseUrl,
      await sessionCookieFor(app.db, owner.id),
    );
    try {
      await page.goto("/admin/users");
      await page.waitForSelector("html[data-hydrated=true]");
      await page.locator("tbody tr", { hasText: "sam_reset" })
        .getByRole("button", { name: "Send Reset Email" }).click();
      await expectToast(page, "Password reset email sent to sam@store.test.");
      expect(linkIn(await mailTo("sam@store.test"))).toContain("/reset-password?token=");
      // A user without an address: the server's reason, not a bare failure.
      await page.locator("tbody tr", { hasText: owner.username })
        .getByRole("button", { name: "Send Reset Email" }).click();
      await expectToast(page, "This user has no e-mail address. Add one or reset the password.");
      expect(unexpected(problems)).toEqual([]);
      expect(staff.username).toBe("sam_reset");
    } finally {
      await close();
    }
  });
});
