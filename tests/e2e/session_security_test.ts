import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser, Page } from "playwright-core";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import { DESKTOP, screenshotPath } from "../helpers/browser.ts";
import { UNAUTHORIZED_USERS_TEXT } from "../../routes/pages/admin_users.tsx";
import { UNAUTHORIZED_SETTINGS_TEXT } from "../../routes/pages/admin_settings.tsx";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, optician: TestUser;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  optician = await createTestUser(app.db, { username: "maria", firstName: "Maria" });
});

async function openPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, baseURL: app.baseUrl });
  return await context.newPage();
}

async function signInThroughForm(page: Page, user: TestUser) {
  await page.goto("/staff");
  await page.waitForSelector("html[data-hydrated=true]");
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${app.baseUrl}/dashboard`);
}

describe("after Logout", () => {
  it("Back does not show the client list: the page is asked for again and sends to sign-in", async () => {
    await app.db.insertInto("clients").values({ firstName: "Quentin", lastName: "Backbutton" })
      .execute();
    const page = await openPage();
    try {
      await signInThroughForm(page, optician);
      await page.getByRole("link", { name: "Clients", exact: true }).click();
      await page.waitForURL(`${app.baseUrl}/clients`);
      await page.getByText("Quentin Backbutton").first().waitFor();
      await page.getByText("Menu").click();
      await page.getByRole("link", { name: "Logout" }).click();
      await page.waitForURL(`${app.baseUrl}/staff`);
      await page.goBack();
      await page.waitForLoadState();
      await expect(page.content()).resolves.not.toContain("Backbutton");
      expect(page.url()).toBe(`${app.baseUrl}/staff?returnTo=%2Fclients`);
    } finally {
      await page.context().close();
    }
  });

  it("nor a client's details opened by ?id=", async () => {
    const client = await app.db.insertInto("clients")
      .values({ firstName: "Dora", lastName: "Detailback" })
      .returning("id").executeTakeFirstOrThrow();
    const page = await openPage();
    try {
      await signInThroughForm(page, optician);
      await page.goto(`/clients?id=${client.id}`);
      await page.getByRole("dialog", { name: "Dora Detailback" }).waitFor();
      // The details dialog is modal; the Logout link's address, typed, signs out the same way.
      await page.goto("/api/staff/logout");
      await page.waitForURL(`${app.baseUrl}/staff`);
      await page.goBack();
      await page.waitForLoadState();
      await expect(page.content()).resolves.not.toContain("Detailback");
      expect(page.url()).toBe(
        `${app.baseUrl}/staff?returnTo=${encodeURIComponent(`/clients?id=${client.id}`)}`,
      );
    } finally {
      await page.context().close();
    }
  });
});

describe("the refused-admin notice", () => {
  for (
    const [path, text] of [
      ["/admin/users", UNAUTHORIZED_USERS_TEXT],
      ["/admin/settings", UNAUTHORIZED_SETTINGS_TEXT],
    ]
  ) {
    it(`${path} shows "${text}" for half a second, then goes to /`, async () => {
      const page = await openPage();
      try {
        await page.context().addCookies([{
          name: "lensdesk_session",
          value: (await sessionCookieFor(app.db, optician.id)).split("=")[1],
          url: app.baseUrl,
        }]);
        // The page's timers run on a clock the test moves, so "still there at
        // 300 ms" does not depend on how loaded the machine is.
        await page.clock.install();
        await page.clock.pauseAt(Date.now() + 60_000);
        const res = await page.goto(path);
        expect(res?.status()).toBe(403);
        const notice = page.getByRole("alert");
        await expect(notice.textContent()).resolves.toBe(text);
        await expect(notice.isVisible()).resolves.toBe(true);
        const shot = screenshotPath(`unauthorized-${path.split("/").pop()}`);
        if (shot) await page.screenshot({ path: shot, fullPage: true });
        await page.clock.runFor(300);
        expect(new URL(page.url()).pathname).toBe(path);
        await expect(notice.isVisible()).resolves.toBe(true);
        await page.clock.runFor(200);
        await page.waitForURL(`${app.baseUrl}/`);
        await expect(page.getByRole("heading", { name: "Staff Dashboard" }).isVisible())
          .resolves.toBe(true);
      } finally {
        await page.context().close();
      }
    });
  }

  it("goes home on its own with the real clock too", async () => {
    const page = await openPage();
    try {
      await page.context().addCookies([{
        name: "lensdesk_session",
        value: (await sessionCookieFor(app.db, optician.id)).split("=")[1],
        url: app.baseUrl,
      }]);
      await page.goto("/admin/users");
      await page.waitForURL(`${app.baseUrl}/`);
    } finally {
      await page.context().close();
    }
  });
});

describe("the sign-in island", () => {
  it("stays on the site even if the sign-in answer names another one", async () => {
    const page = await openPage();
    try {
      let leftTheSite = false;
      await page.route("**://evil.example/**", (route) => {
        leftTheSite = true;
        return route.fulfill({ status: 200, body: "evil" });
      });
      // An answer tampered on the way: the island applies the same rule as the server.
      await page.route("**/api/staff/login", (route) =>
        route.fulfill({
          status: 200,
          contentType: "application/json",
          body: JSON.stringify({ returnTo: "/\t/evil.example" }),
        }));
      await page.goto("/staff");
      await page.waitForSelector("html[data-hydrated=true]");
      await page.getByLabel("Username").fill("maria");
      await page.getByLabel("Password", { exact: true }).fill("whatever");
      await page.getByRole("button", { name: "Sign In" }).click();
      // The fallback, /dashboard, sends this signed-out browser to sign in.
      await page.waitForURL(`${app.baseUrl}/staff?returnTo=%2Fdashboard`);
      expect(leftTheSite).toBe(false);
    } finally {
      await page.context().close();
    }
  });
});
