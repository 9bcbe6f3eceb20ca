// The staff sign-in as a plain HTML form: with JavaScript off it still signs
// in and lands on returnTo, re-renders with the message when refused, and
// keeps the returnTo and throttle rules of the JSON sign-in.
import { describe, it } from "node:test";
import { expect } from "expect";
import type { Browser } from "playwright-core";
import { createTestUser, type TestApp, type TestUser } from "../helpers/test_app.ts";
import { expectCount, screenshotPath, TABLET_PORTRAIT } from "../helpers/browser.ts";
import { HOSTILE_RETURN_TO } from "../helpers/hostile_return_to.ts";
import { useBrowserApp } from "../helpers/suite.ts";

let app: TestApp, browser: Browser, maria: TestUser;

useBrowserApp(async (started) => {
  ({ app, browser } = started);
  maria = await createTestUser(app.db, { username: "maria", firstName: "Maria" });
});

async function noScriptPage() {
  const context = await browser.newContext({
    viewport: TABLET_PORTRAIT,
    baseURL: app.baseUrl,
    javaScriptEnabled: false,
  });
  return { context, page: await context.newPage() };
}

/** POST /staff as a browser form would send it (same origin). */
function postForm(fields: Record<string, string>) {
  return fetch(`${app.baseUrl}/staff`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      accept: "text/html",
      origin: app.baseUrl,
    },
    body: new URLSearchParams(fields),
  });
}

describe("staff sign-in without JavaScript", () => {
  it("signs in and lands on the page first asked for", async () => {
    const { context, page } = await noScriptPage();
    await page.goto("/quotes?filter=expired");
    expect(page.url()).toBe(`${app.baseUrl}/staff?returnTo=%2Fquotes%3Ffilter%3Dexpired`);
    // The show/hide toggle needs a script: it is not offered without one.
    await expectCount(page.getByRole("button", { name: "Show password" }), 0);
    await page.getByLabel("Username").fill("maria");
    await page.getByLabel("Password", { exact: true }).fill(maria.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL(`${app.baseUrl}/quotes?filter=expired`);
    await expect(page.getByTestId("user-name").textContent()).resolves.toBe("Maria");
    await context.close();
  });

  it("a wrong password shows the page again with Login Failed, the username kept", async () => {
    const { context, page } = await noScriptPage();
    await page.goto("/staff?returnTo=%2Fclients");
    await page.getByLabel("Username").fill("maria");
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    const answer = page.waitForResponse((r) => r.request().method() === "POST");
    await page.getByRole("button", { name: "Sign In" }).click();
    expect((await answer).status()).toBe(401);
    const alert = page.getByRole("alert");
    await expect(alert.textContent()).resolves.toBe("Login Failed Invalid username or password");
    await expect(page.getByLabel("Username").inputValue()).resolves.toBe("maria");
    await expect(page.getByLabel("Password", { exact: true }).inputValue()).resolves.toBe("");
    const shot = screenshotPath("sign-in-no-js-failed");
    if (shot) await page.screenshot({ path: shot, fullPage: true });
    // The returnTo survives the failed attempt: the right password now goes there.
    await page.getByLabel("Password", { exact: true }).fill(maria.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL(`${app.baseUrl}/clients`);
    await context.close();
  });

  it("blank fields get Missing Information", async () => {
    const { context, page } = await noScriptPage();
    await page.goto("/staff");
    await page.getByLabel("Username").fill("maria");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toBe(
      "Missing Information Please enter both username and password",
    );
    expect(page.url()).toBe(`${app.baseUrl}/staff`);
    await context.close();
  });
});

describe("POST /staff", () => {
  it("never redirects off the site, whatever returnTo says", async () => {
    const user = await createTestUser(app.db, { username: "hostile" });
    for (const returnTo of HOSTILE_RETURN_TO) {
      const res = await postForm({ username: "hostile", password: user.password, returnTo });
      await res.body?.cancel();
      expect([returnTo, res.status, res.headers.get("location")]).toEqual([
        returnTo,
        303,
        "/dashboard",
      ]);
    }
  });

  it("sets the session cookie on success and refuses another site's post", async () => {
    const user = await createTestUser(app.db, { username: "cookie" });
    const ok = await postForm({ username: "cookie", password: user.password });
    await ok.body?.cancel();
    expect(ok.status).toBe(303);
    expect(ok.headers.get("set-cookie")).toMatch(/lensdesk_session=/);
    const crossSite = await fetch(`${app.baseUrl}/staff`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://evil.example",
      },
      body: new URLSearchParams({ username: "cookie", password: user.password }),
    });
    await crossSite.body?.cancel();
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get("set-cookie")).toBeNull();
  });

  it("is held by the same password throttle as the JSON sign-in", async () => {
    const user = await createTestUser(app.db, { username: "throttled" });
    for (let i = 0; i < 5; i++) {
      const res = await postForm({ username: "throttled", password: `guess-${i}` });
      expect([i, res.status]).toEqual([i, 401]);
      await res.body?.cancel();
    }
    // Even the right password waits now, on the form as on the API.
    const res = await postForm({ username: "throttled", password: user.password });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(res.headers.get("set-cookie") ?? "").not.toMatch(/lensdesk_session=/);
    expect(await res.text()).toContain("Too many failed sign-in attempts");
    const api = await fetch(`${app.baseUrl}/api/staff/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "throttled", password: user.password }),
    });
    expect(api.status).toBe(429);
    await api.body?.cancel();
  });
});
