// Reading the online link out of a quote e-mail as a mail server received it
// (quoted-printable soft breaks undone), for the API and browser tests.
import { mailSettingsFor, type ReceivedMail, type SmtpServer } from "./smtp.ts";
import { call, createTestUser, sessionCookieFor, type TestApp } from "./test_app.ts";

/** The raw message with quoted-printable soft line breaks and `=3D` undone. */
export function unfoldQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=3D/gi, "=");
}

/** The `/q/{token}` path of the newest mail to `to` that carries one. */
export function onlineLinkIn(mails: ReceivedMail[], to: string): string | undefined {
  for (const mail of [...mails].reverse()) {
    if (!mail.to.includes(to)) continue;
    const found = unfoldQuotedPrintable(mail.raw).match(/\/q\/([A-Za-z0-9_-]{43})/);
    if (found) return found[0];
  }
  return undefined;
}

/**
 * The store both online-acceptance test files start from: an owner whose
 * e-mail hears of acceptances, and mail sent through the loopback server.
 * Returns the owner's session cookie.
 */
export async function storeWithMail(
  app: TestApp,
  smtp: SmtpServer,
  ownerEmail: string,
): Promise<string> {
  const owner = await createTestUser(app.db, { role: "OWNER" });
  await app.db.updateTable("users").set({ email: ownerEmail }).where("id", "=", owner.id)
    .execute();
  const cookie = await sessionCookieFor(app.db, owner.id);
  const res = await call(app, "PUT", "/api/admin/settings", {
    cookie,
    body: {
      ...mailSettingsFor(smtp, { fromEmail: "quotes@northside.test" }),
      storeName: "Northside Eyewear",
      storePhone: "(555) 222-3333",
      storeEmail: "hello@northside.test",
    },
  });
  if (res.status !== 200) throw new Error(`settings refused: ${JSON.stringify(res.body)}`);
  return cookie;
}
