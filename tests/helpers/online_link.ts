// Reading the online link out of a quote e-mail as a mail server received it
// (quoted-printable soft breaks undone), for the API and browser tests.
import type { ReceivedMail } from "./smtp.ts";

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
