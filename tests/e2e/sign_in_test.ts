import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import { DESKTOP, expectCount, screenshotPath, TABLET_PORTRAIT } from "../helpers/browser.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, owner: TestUser, staff: TestUser;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  owner = await createTestUser(app.db, {
    role: "OWNER",
    username: "owner",
    firstName: "Olivia",
  });
  staff = await createTestUser(app.db, { username: "maria", firstName: "Maria" });
});

/** A fresh page that fails the test on any CSP violation or page error. */
async function openPage(viewport = DESKTOP): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport, baseURL: app.baseUrl });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
  });
  return { page, problems };
}

async function openSignedIn(userId: string, path: string) {
  const { page, problems } = await openPage();
  const cookie = await sessionCookieFor(app.db, userId);
  await page.context().addCookies([{
    name: "lensdesk_session",
    value: cookie.split("=")[1],
    url: app.baseUrl,
  }]);
  await page.goto(path);
  return { page, problems };
}

async function hydrated(page: Page) {
  await page.waitForSelector("html[data-hydrated=true]");
}

describe("staff sign-in in a browser", () => {
  it("an owner signs in from /staff, gets the success toast and lands on the dashboard", async () => {
    const { page, problems } = await openPage();
    await page.goto("/staff");
    await hydrated(page);
    await expect(page.getByRole("heading", { name: "Staff Portal" }).isVisible()).resolves.toBe(
      true,
    );
    const shot = screenshotPath("staff-login-desktop");
    if (shot) await page.screenshot({ path: shot, fullPage: true });
    await page.getByLabel("Username").fill("owner");
    await page.getByLabel("Password", { exact: true }).fill(owner.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.getByText("Welcome back! Redirecting...").waitFor();
    await expect(page.getByText("Login Successful").isVisible()).resolves.toBe(true);
    await page.waitForURL(`${app.baseUrl}/dashboard`);
    await expect(page.getByTestId("user-name").textContent()).resolves.toBe("Olivia");
    await expect(page.getByRole("link", { name: "Admin" }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole("link", { name: "Settings" }).isVisible()).resolves.toBe(true);
    const dash = screenshotPath("dashboard-owner");
    if (dash) await page.screenshot({ path: dash, fullPage: true });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("returns to the page the visitor first asked for", async () => {
    const { page } = await openPage();
    await page.goto("/quotes?filter=expired");
    expect(page.url()).toBe(`${app.baseUrl}/staff?returnTo=%2Fquotes%3Ffilter%3Dexpired`);
    await hydrated(page);
    await page.getByLabel("Username").fill("maria");
    await page.getByLabel("Password", { exact: true }).fill(staff.password);
    await page.keyboard.press("Enter");
    await page.waitForURL(`${app.baseUrl}/quotes?filter=expired`);
    await page.context().close();
  });

  it("blank fields give Missing Information and make no call", async () => {
    const { page } = await openPage();
    let calls = 0;
    page.on("request", (req) => {
      if (req.url().endsWith("/api/staff/login")) calls++;
    });
    await page.goto("/staff");
    await hydrated(page);
    await page.getByLabel("Username").fill("maria");
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.getByText("Please enter both username and password").waitFor();
    await expect(page.getByText("Missing Information").isVisible()).resolves.toBe(true);
    expect(calls).toBe(0);
    await page.context().close();
  });

  it("a wrong password gives Login Failed with the server's message", async () => {
    const { page } = await openPage();
    await page.goto("/staff");
    await hydrated(page);
    await page.getByLabel("Username").fill("maria");
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.getByText("Invalid username or password").waitFor();
    await expect(page.getByText("Login Failed").isVisible()).resolves.toBe(true);
    // Nothing typed is lost; the button is usable again.
    await expect(page.getByLabel("Username").inputValue()).resolves.toBe("maria");
    await expect(page.getByRole("button", { name: "Sign In" }).isEnabled()).resolves.toBe(true);
    await page.context().close();
  });

  it("shows Signing In... while the call is running", async () => {
    const { page } = await openPage();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/staff/login", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/staff");
    await hydrated(page);
    await page.getByLabel("Username").fill("maria");
    await page.getByLabel("Password", { exact: true }).fill(staff.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    const busy = page.getByRole("button", { name: "Signing In..." });
    await busy.waitFor();
    await expect(busy.isDisabled()).resolves.toBe(true);
    release();
    await page.waitForURL(`${app.baseUrl}/dashboard`);
    await page.context().close();
  });

  it("the password can be shown and hidden", async () => {
    const { page } = await openPage();
    await page.goto("/staff");
    await hydrated(page);
    const password = page.getByLabel("Password", { exact: true });
    await expect(password.getAttribute("type")).resolves.toBe("password");
    await page.getByRole("button", { name: "Show password" }).click();
    await expect(password.getAttribute("type")).resolves.toBe("text");
    await page.getByRole("button", { name: "Hide password" }).click();
    await expect(password.getAttribute("type")).resolves.toBe("password");
    await page.context().close();
  });

  it("fits a 768×1024 tablet without horizontal scrolling", async () => {
    const { page } = await openPage(TABLET_PORTRAIT);
    await page.goto("/staff");
    await hydrated(page);
    const overflow = await page.evaluate(() =>
      document.documentElement.scrollWidth - globalThis.innerWidth
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const shot = screenshotPath("staff-login-tablet");
    if (shot) await page.screenshot({ path: shot, fullPage: true });
    await page.context().close();
  });
});

describe("staff chrome in a browser", () => {
  it("an optician sees no Admin or Settings, and logs out through the Menu", async () => {
    const { page, problems } = await openSignedIn(staff.id, "/dashboard");
    await expect(page.getByTestId("user-name").textContent()).resolves.toBe("Maria");
    await expectCount(page.getByRole("link", { name: "Admin" }), 0);
    await expectCount(page.getByRole("link", { name: "Settings" }), 0);
    const dashboard = page.getByRole("link", { name: "Dashboard" });
    await expect(dashboard.getAttribute("aria-current")).resolves.toBe("page");
    await page.getByText("Menu").click();
    await page.getByRole("link", { name: "Logout" }).click();
    await page.waitForURL(`${app.baseUrl}/staff`);
    await page.goto("/dashboard");
    expect(page.url()).toBe(`${app.baseUrl}/staff?returnTo=%2Fdashboard`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("the dashboard ships only the staff bar's search; an unknown path shows 404 Page Not Found", async () => {
    const { page } = await openSignedIn(staff.id, "/dashboard");
    await expectCount(page.locator("script[type=module]"), 1);
    await expect(
      page.locator("[data-island]").evaluateAll((els) =>
        els.map((e) => e.getAttribute("data-island"))
      ),
    ).resolves.toEqual(["SearchBox"]);
    const res = await page.goto("/no-such-screen");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "404 Page Not Found" }).isVisible()).resolves
      .toBe(true);
    await expect(page.getByTestId("user-name").isVisible()).resolves.toBe(true);
    await page.context().close();
  });

  it("the public landing leads to the staff sign-in", async () => {
    const { page } = await openPage(TABLET_PORTRAIT);
    await page.goto("/");
    const shot = screenshotPath("landing-tablet");
    if (shot) await page.screenshot({ path: shot, fullPage: true });
    await page.getByRole("link", { name: "Staff Sign In" }).click();
    await page.waitForURL(`${app.baseUrl}/staff`);
    await page.context().close();
  });
});
