// Histories over HTTP: the app with an optician, an admin and the owner signed in, and the
// calls that make clients and quotes and read their histories and the audit log.
import { expect } from "expect";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { call, createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import type { HistoryEntry } from "../../src/audit/describe.ts";
import type { AuditPage } from "../../src/audit/audit_log.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";
import type { CreatedClient } from "../../src/clients/views.ts";
import { useTestApp } from "../helpers/suite.ts";

export let app: TestApp, staff: TestUser, cookie: string, ownerCookie: string, adminCookie: string;

export async function newClient(init: Record<string, unknown> = {}) {
  const res = await call<CreatedClient>(app, "POST", "/api/clients", {
    body: { firstName: "Hana", lastName: "Story", email: "hana@example.com", ...init },
    cookie,
  });
  expect(res.status).toBe(201);
  return res.body;
}

export async function history(path: string): Promise<HistoryEntry[]> {
  const res = await call<HistoryEntry[]>(app, "GET", path, { cookie });
  expect(res.status).toBe(200);
  return res.body;
}

export const frame = (sku: string, price: string) => ({
  kind: "FRAME",
  name: "Frame",
  sku,
  unitPrice: price,
  qty: 1,
});

export async function bundle(id: string) {
  return (await call<QuoteBundle>(app, "GET", `/api/quotes/${id}`, { cookie })).body;
}

/** A measured client's quote saved with one frame: ACTIVE, ready for the tablet. */
export async function activeQuote(sku: string) {
  const { client, quote } = await newClient();
  await call(app, "PUT", `/api/clients/${client.id}/measurements`, {
    body: { pdBinocular: "62", pdNear: "60", measurementsComplete: true },
    cookie,
  });
  const b = await bundle(quote.id);
  await call(app, "PUT", `/api/quotes/${quote.id}`, {
    body: {
      version: b.quote.version,
      opticianName: "Maria",
      internalNotes: "",
      options: [{ id: b.options[0].id, items: [frame(sku, "100")] }],
    },
    cookie,
  });
  return quote;
}

/** The owner's audit log, newest first, for one kind. */
export async function audit(kind: string): Promise<HistoryEntry[]> {
  const res = await call<AuditPage>(app, "GET", `/api/admin/audit?kind=${kind}`, {
    cookie: ownerCookie,
  });
  expect(res.status).toBe(200);
  return res.body.entries;
}

export async function savedQuote(price = "100.00") {
  const { client, quote } = await newClient();
  await call(app, "PUT", `/api/clients/${client.id}/measurements`, {
    body: { pdBinocular: "62", pdNear: "60", measurementsComplete: true },
    cookie,
  });
  const b = await bundle(quote.id);
  const saved = await call(app, "PUT", `/api/quotes/${quote.id}`, {
    body: {
      version: b.quote.version,
      opticianName: "Maria",
      internalNotes: "",
      options: [{ id: b.options[0].id, label: "Everyday", items: [frame("A-1", price)] }],
    },
    cookie,
  });
  expect(saved.status).toBe(200);
  return { client, quote: await bundle(quote.id) };
}

/** Starts the app for the calling test file (before its tests, closed after them). */
export function useHistoryApp(): void {
  useTestApp(async (started) => {
    ({ app } = started);
    staff = await createTestUser(app.db, { username: "maria_h" });
    cookie = await sessionCookieFor(app.db, staff.id);
    ownerCookie = await sessionCookieFor(
      app.db,
      (await createTestUser(app.db, { role: "OWNER" })).id,
    );
    adminCookie = await sessionCookieFor(
      app.db,
      (await createTestUser(app.db, { role: "ADMIN" })).id,
    );
  });
}
