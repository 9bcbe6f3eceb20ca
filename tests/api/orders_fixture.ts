// Orders over HTTP against a real database: the app on a clock the tests move, with a
// mail server, signed-in owner, admin and staff, store hours and one lab, and the calls
// that make and step orders.
import { expect } from "expect";
import { call, createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import { mailSettingsFor } from "../helpers/smtp.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import type { LabView, OrderBundle } from "../../src/orders/views.ts";
import type { SmtpServer } from "../helpers/smtp.ts";
import { useTestApp } from "../helpers/suite.ts";

export let app: TestApp;
export let smtp: SmtpServer;
export let owner: string;
export let admin: string;
export let staff: string;
export let lab: LabView;

// The app's clock: Friday 2026-11-27 10:00 in Chicago; tests move it.
export let now = new Date("2026-11-27T16:00:00Z");

/** Moves the app's clock. */
export function setNow(date: Date) {
  now = date;
}

export async function finalizedQuote(init: Parameters<typeof insertSavedQuote>[1] = {}) {
  const q = await insertSavedQuote(app.db, { status: "FINALIZED", ...init });
  await app.db.updateTable("quoteOptions").set({ isChosen: true }).where("quoteId", "=", q.quoteId)
    .execute();
  return q;
}

/** The owner's save of some settings, as the Settings screen sends it. */
export const putSettings = (body: Record<string, unknown>) =>
  call<Record<string, unknown> & { errors?: Record<string, string> }>(
    app,
    "PUT",
    "/api/admin/settings",
    { cookie: owner, body },
  );

export async function order(quoteId: string, body: Record<string, unknown> = {}) {
  return await call<OrderBundle>(app, "POST", `/api/quotes/${quoteId}/order`, {
    cookie: staff,
    body: { labId: lab.id, ...body },
  });
}

export async function step(
  o: OrderBundle,
  index: number,
  to: string,
  extra: Record<string, unknown> = {},
  cookie = staff,
) {
  const job = o.jobs[index];
  return await call<OrderBundle & { message?: string }>(app, "POST", `/api/jobs/${job.id}/step`, {
    cookie,
    body: { to, version: job.version, ...extra },
  });
}

/** Starts the app for the calling test file (before its tests, closed after them). */
export function useOrdersApp(): void {
  useTestApp(async (started) => {
    ({ app, smtp } = started);
    owner = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "OWNER" })).id);
    admin = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "ADMIN" })).id);
    staff = await sessionCookieFor(app.db, (await createTestUser(app.db)).id);
    expect(
      (await call(app, "PUT", "/api/admin/settings", {
        cookie: owner,
        body: mailSettingsFor(smtp, { fromEmail: "store@store.test" }),
      })).status,
    ).toBe(200);
    // Open Monday to Friday, 09:00–18:00 in Chicago.
    await app.db.updateTable("settings").set({
      openingDays: "1,2,3,4,5",
      timeZone: "America/Chicago",
    }).execute();
    const res = await call<LabView>(app, "POST", "/api/admin/labs", {
      cookie: admin,
      body: { name: "Essilor Dallas", email: "orders@lab.test", turnaroundDays: 3 },
    });
    expect(res.status).toBe(201);
    lab = res.body;
  }, { env: { PDF_TIMEOUT_MS: "180000" }, clock: () => now, smtp: true });
}
