// The app, two staff members and the kiosk helpers that the kiosk API tests share:
// handing a tablet over, reading its cookies and its audit trail.
import { expect } from "expect";
import {
  call,
  type CallResult,
  createTestUser,
  sessionCookieFor,
  type TestApp,
  type TestUser,
} from "../helpers/test_app.ts";
import { useTestApp } from "../helpers/suite.ts";

export let app: TestApp, maria: TestUser, admin: TestUser;

/** The `name=value` of a Set-Cookie line for `name`, with its attributes. */
export function setCookie(res: CallResult, name: string): string | undefined {
  return res.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

export function cookieValue(line: string | undefined): string {
  const value = /^[^=]+=([^;]*)/.exec(line ?? "")?.[1];
  if (!value) throw new Error(`no cookie value in ${line}`);
  return value;
}

export const html = { accept: "text/html" };

export async function auditActions(entityId: string) {
  const rows = await app.db.selectFrom("auditLog").select(["action", "actor", "details"])
    .where("entityId", "=", entityId).orderBy("id").execute();
  return rows;
}

export async function handOverQuote(quoteId: string, user = maria) {
  const staffCookie = await sessionCookieFor(app.db, user.id);
  const res = await call<{ location: string }>(app, "POST", "/api/kiosk/hand-over", {
    body: { kind: "QUOTE", quoteId },
    cookie: staffCookie,
  });
  expect(res.status).toBe(201);
  return {
    res,
    staffCookie,
    kiosk: `lensdesk_kiosk=${cookieValue(setCookie(res, "lensdesk_kiosk"))}`,
  };
}

/** Every staff page and API a kiosk must not reach, as [method, path, body?]. */
export function outOfScope(quoteId: string, otherQuoteId: string, otherOptionId: string) {
  return [
    ["GET", "/api/clients?limit=200"],
    ["GET", "/api/clients"],
    ["GET", "/api/clients/search?q=Jane"],
    ["GET", "/api/clients/missing-measurements"],
    ["GET", `/api/quotes/${quoteId}`],
    ["GET", `/api/quotes/${otherQuoteId}`],
    ["PUT", `/api/quotes/${otherQuoteId}`, {
      version: 1,
      options: [{ id: otherOptionId, isChosen: true }],
    }],
    ["GET", "/api/quotes"],
    ["GET", "/api/quotes/recent"],
    ["GET", "/api/stats"],
    ["GET", `/api/quotes/${quoteId}/pdf`],
    ["POST", `/api/quotes/${quoteId}/close`, { reason: "walked out" }],
    ["POST", `/api/quotes/${quoteId}/email`, { email: "a@b.test", note: "" }],
    ["POST", "/api/quotes", { clientId: crypto.randomUUID() }],
    ["GET", "/api/catalog/packages"],
    ["GET", "/api/search?q=Jane"],
    ["GET", "/api/auth/user"],
    ["PUT", "/api/auth/change-password", { currentPassword: "x", newPassword: "yyyyyyyy" }],
    ["POST", "/api/staff/login", { username: "maria", password: maria.password }],
    ["GET", "/api/staff/logout"],
    ["GET", "/api/logout"],
    ["POST", "/api/kiosk/hand-over", { kind: "INTAKE" }],
    ["GET", "/api/admin/users"],
    ["POST", "/api/admin/users/invite", {
      email: "x@y.test",
      firstName: "X",
      lastName: "Y",
      username: "intruder",
      password: "secret123",
      role: "OWNER",
    }],
    ["GET", "/api/admin/settings"],
    ["PUT", "/api/admin/settings", { storeName: "Pwned" }],
    ["GET", "/api/admin/oauth2-status"],
    ["POST", "/api/admin/packages", { name: "Free", price: 0 }],
    ["POST", "/api/email-banner/dismiss"],
  ] as const;
}

export const STAFF_PAGES = [
  "/",
  "/dashboard",
  "/clients",
  "/quotes",
  "/admin",
  "/admin/users",
  "/admin/settings",
  "/staff",
  "/staff?returnTo=%2Fclients",
  "/forgot-password",
  "/no-such-page",
];

export function expectKioskNotice(res: CallResult, home: string) {
  expect(res.status).toBe(403);
  expect(res.headers.get("content-type")).toContain("text/html");
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.text).toContain("This page is not available on this tablet");
  expect(res.text).toContain(`href="${home}"`);
  // No staff bar, no way into staff screens, no sign-in form.
  expect(res.text).not.toContain("topbar");
  expect(res.text).not.toContain("returnTo");
  expect(res.text).not.toContain('href="/"');
  expect(res.text).not.toContain('href="/staff');
  expect(res.text).not.toContain("Staff Portal");
}

/** Starts the app for the calling test file (before its tests, closed after them). */
export function useKioskApp(): void {
  useTestApp(async (started) => {
    ({ app } = started);
    maria = await createTestUser(app.db, { username: "maria", firstName: "Maria" });
    admin = await createTestUser(app.db, { username: "adele", role: "OWNER" });
  });
}
