// Online acceptance over HTTP: the app with a mail server and a signed-in optician, and
// the calls that open a quote, e-mail its link and read its history.
import { expect } from "expect";
import { call, capturingLogger, type TestApp, waitUntil } from "../helpers/test_app.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import { onlineLinkIn, storeWithMail } from "../helpers/online_link.ts";
import type { HistoryEntry } from "../../src/audit/describe.ts";
import type { SmtpServer } from "../helpers/smtp.ts";
import { useTestApp } from "../helpers/suite.ts";

/** The text of a PDF, as pdftotext reads it. */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const out = await new Deno.Command("pdftotext", {
    args: ["-", "-"],
    stdin: "piped",
    stdout: "piped",
  })
    .spawn();
  const writer = out.stdin.getWriter();
  await writer.write(pdf);
  await writer.close();
  return new TextDecoder().decode((await out.output()).stdout);
}

export let app: TestApp;
export let smtp: SmtpServer;
export let staff: string;

export const log = capturingLogger();

export const OPTICIAN_EMAIL = "optician@northside.test";

let addressCounter = 10;

/** A fresh loopback address per test, so the per-address limit is one test's own. */
export const nextAddress = () => `127.0.0.${addressCounter++}`;

// A 1×1 PNG, as a signature pad would send (smaller, but a real PNG).
export const PNG_1x1 = "data:image/png;base64," +
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** A saved, e-mailable quote of the optician, expiring in ten days. */
export async function openQuote() {
  const q = await insertSavedQuote(app.db, {
    expiresAt: new Date(Date.now() + 10 * 86_400_000),
    firstName: `Client${addressCounter}`,
  });
  const creator = await app.db.selectFrom("users").select("id").where("email", "=", OPTICIAN_EMAIL)
    .executeTakeFirstOrThrow();
  await app.db.updateTable("quotes").set({ createdBy: creator.id }).where("id", "=", q.quoteId)
    .execute();
  return q;
}

let mailCounter = 0;

/** E-mails the quote through the API and returns the link the client received. */
export async function sendLink(quoteId: string): Promise<string> {
  const to = `client${mailCounter++}@example.com`;
  const res = await call(app, "POST", `/api/quotes/${quoteId}/email`, {
    cookie: staff,
    body: { email: to, note: "" },
  });
  expect(res.status).toBe(200);
  await waitUntil(() => onlineLinkIn(smtp.received, to) !== undefined, "the link's mail arrives");
  return onlineLinkIn(smtp.received, to)!;
}

export const page = (path: string) =>
  call<string>(app, "GET", path, { headers: { accept: "text/html" } });

export const acceptBody = (optionIds: string[], over: Record<string, unknown> = {}) => ({
  chosenOptionIds: optionIds,
  signerName: "Jane Doe",
  signaturePng: PNG_1x1,
  typedSignature: false,
  termsAccepted: true,
  ...over,
});

export async function history(quoteId: string) {
  const res = await call<HistoryEntry[]>(app, "GET", `/api/quotes/${quoteId}/history`, {
    cookie: staff,
  });
  return res.body.map((e) => e.summary);
}

/** Starts the app for the calling test file (before its tests, closed after them). */
export function useOnlineAcceptanceApp(): void {
  useTestApp(async (started) => {
    ({ app, smtp } = started);
    staff = await storeWithMail(app, smtp, OPTICIAN_EMAIL);
  }, { env: { LOG_REQUESTS: "1" }, logger: log.logger, smtp: true });
}
