// One engine: routing and the HTML of the pages, the same on either database.
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp, staffCookie: string, adminCookie: string;

useTestApp(async (started) => {
  ({ app } = started);
  const staff = await createTestUser(app.db, { firstName: "Maria" });
  const admin = await createTestUser(app.db, { role: "ADMIN", email: "boss@store.test" });
  staffCookie = await sessionCookieFor(app.db, staff.id);
  adminCookie = await sessionCookieFor(app.db, admin.id);
});

const page = (path: string, cookie?: string) =>
  call<string>(app, "GET", path, { cookie, headers: { accept: "text/html" } });

describe("routing rules for signed-out visitors", () => {
  for (
    const [path, returnTo] of [
      ["/dashboard", "%2Fdashboard"],
      ["/clients?filter=missing", "%2Fclients%3Ffilter%3Dmissing"],
      ["/quotes", "%2Fquotes"],
      ["/quote/abc", "%2Fquote%2Fabc"],
      ["/quote", "%2Fquote"],
      ["/admin/users", "%2Fadmin%2Fusers"],
      ["/print/abc", "%2Fprint%2Fabc"],
      ["/tablet/abc", "%2Ftablet%2Fabc"],
    ]
  ) {
    it(`${path} goes to /staff?returnTo=${returnTo}`, async () => {
      const res = await page(path);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`/staff?returnTo=${returnTo}`);
    });
  }

  it("/ is a public landing with no JavaScript", async () => {
    const res = await page("/");
    expect(res.status).toBe(200);
    expect(res.text).toContain("Staff Sign In");
    expect(res.text).toContain('href="/intake"');
    expect(res.text).not.toContain("<script");
  });

  it("/staff shows the Staff Portal sign-in", async () => {
    const res = await page("/staff?returnTo=%2Fquotes");
    expect(res.status).toBe(200);
    expect(res.text).toContain("Staff Portal");
    expect(res.text).toContain("Need access? Contact your administrator for staff credentials.");
    // A plain form carrying returnTo, and no island (no React on this page).
    expect(res.text).toContain('action="/staff" method="post"');
    expect(res.text).toContain('name="returnTo" value="/quotes"');
    expect(res.text).not.toContain("data-island");
    expect(res.text).not.toContain('class="topbar"');
  });

  it("/staff drops a returnTo that would leave the site", async () => {
    const res = await page("/staff?returnTo=%2F%2Fevil.example");
    expect(res.text).not.toContain("evil.example");
  });

  it("an unknown path is a 404 page titled 404 Page Not Found", async () => {
    const res = await page("/no/such/page");
    expect(res.status).toBe(404);
    expect(res.text).toContain('<h1 class="card-title">404 Page Not Found</h1>');
    expect(res.text).toMatch(/<title>404 Page Not Found/);
  });

  it("an unknown API path is a JSON 404", async () => {
    const res = await call(app, "GET", "/api/nope");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/json");
  });
});

describe("routing rules for signed-in staff", () => {
  it("/staff goes to /dashboard", async () => {
    const res = await page("/staff", staffCookie);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard");
  });

  it("/ and /dashboard show the dashboard with the staff bar", async () => {
    for (const path of ["/", "/dashboard"]) {
      const res = await page(path, staffCookie);
      expect(res.status).toBe(200);
      expect(res.text).toContain("Staff Dashboard");
      expect(res.text).toContain("Manage clients, quotes, and measurements.");
      expect(res.text).toContain('class="topbar"');
      expect(res.text).toContain('data-testid="user-name">Maria<');
      expect(res.text).toContain('href="/api/staff/logout"');
    }
  });

  it("a 404 keeps the staff bar", async () => {
    const res = await page("/nowhere", staffCookie);
    expect(res.status).toBe(404);
    expect(res.text).toContain('class="topbar"');
  });

  it("shows Admin and Settings only to ADMIN and OWNER", async () => {
    const staff = await page("/dashboard", staffCookie);
    expect(staff.text).not.toContain('href="/admin"');
    expect(staff.text).not.toContain('href="/admin/settings"');
    const admin = await page("/dashboard", adminCookie);
    expect(admin.text).toContain('href="/admin"');
    expect(admin.text).toContain('href="/admin/settings"');
    // No first name: the e-mail stands in.
    expect(admin.text).toContain('data-testid="user-name">boss@store.test<');
  });
});

describe("/healthz", () => {
  it("reports the database", async () => {
    const res = await call(app, "GET", "/healthz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", database: "ok" });
  });
});
