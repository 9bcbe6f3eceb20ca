// The mail tests' app: the real app on its own database with a loopback SMTP
// server, an owner and a staff member signed in, and the steps those tests
// share (the mail settings pointed at a port, a saved quote to send).
import { everydayAndSport } from "../helpers/quote_fixture.ts";
import { expect } from "expect";
import {
  call,
  capturingLogger,
  createTestUser,
  sessionCookieFor,
  type TestApp,
} from "../helpers/test_app.ts";
import { mailSettingsFor, type SmtpServer } from "../helpers/smtp.ts";
import type { CreatedClient } from "../../src/clients/views.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";
import { useTestApp } from "../helpers/suite.ts";

// Filled before the file's tests run (live bindings: read them inside tests).
export let app: TestApp, smtp: SmtpServer, owner: string, staff: string;
/** The app's log lines. */
export const log = capturingLogger();

/** The app of this test file, with a short mail-server timeout: a failed test e-mail is answered 2 s after it. */
export function useMailApp() {
  useTestApp(async (started) => {
    ({ app, smtp } = started);
    owner = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "OWNER" })).id);
    staff = await sessionCookieFor(app.db, (await createTestUser(app.db)).id);
    await app.db.updateTable("settings").set({ storeName: "Northside Eyewear" }).execute();
  }, { env: { SMTP_TIMEOUT_MS: "300" }, logger: log.logger, smtp: true });
}

/** The owner points the store's mail settings at `port` of the loopback server. */
export async function configure(port: number) {
  const res = await call(app, "PUT", "/api/admin/settings", {
    cookie: owner,
    body: mailSettingsFor(smtp, {
      port,
      fromEmail: "quotes@northside.test",
      fromName: "Northside Eyewear",
    }),
  });
  expect(res.status).toBe(200);
}

/** A new client's quote saved with two options and internal notes; its id. */
export async function savedQuote() {
  const created = await call<CreatedClient>(app, "POST", "/api/clients", {
    cookie: staff,
    body: { firstName: "Ana", lastName: "Ruiz", email: "ana@example.com" },
  });
  const bundle = (await call<QuoteBundle>(app, "GET", `/api/quotes/${created.body.quote.id}`, {
    cookie: staff,
  })).body;
  await call(app, "PUT", `/api/quotes/${bundle.quote.id}`, {
    cookie: staff,
    body: {
      version: bundle.quote.version,
      opticianName: "Maria",
      internalNotes: "INTERNAL-ONLY-4242",
      options: everydayAndSport(bundle.options[0].id),
    },
  });
  return bundle.quote.id;
}
