// @ts-types="@types/nodemailer"
import nodemailer from "nodemailer";
import { Buffer } from "node:buffer";
import type { MailSettings } from "./mail_settings.ts";

/** The default of SMTP_TIMEOUT_MS. */
export const SMTP_TIMEOUT_MS = 10_000;

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  attachment?: { filename: string; content: Uint8Array };
}

/**
 * Sends one message over SMTP. Port 465 speaks TLS from the start; on other
 * ports STARTTLS is required, so the password never crosses the network in
 * clear, unless the admin allowed a local relay without TLS (then STARTTLS is
 * still used when offered). Timeouts are short so a dead server fails the
 * request quickly and the outbox retries later.
 */
export async function sendViaSmtp(
  settings: MailSettings,
  mail: OutgoingMail,
  /** For connecting and for the server's greeting each; the rest of a send may take twice it. */
  timeoutMs = SMTP_TIMEOUT_MS,
): Promise<string> {
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.port === 465,
    requireTLS: settings.port !== 465 && !settings.allowInsecure,
    tls: { minVersion: "TLSv1.2" },
    auth: settings.user ? { user: settings.user, pass: settings.password } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: 2 * timeoutMs,
  });
  try {
    const info: { messageId?: string } = await transport.sendMail({
      from: settings.fromName
        ? { name: settings.fromName, address: settings.fromEmail }
        : settings.fromEmail,
      to: mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      attachments: mail.attachment
        ? [{
          filename: mail.attachment.filename,
          content: Buffer.from(mail.attachment.content),
          contentType: "application/pdf",
        }]
        : [],
    });
    return String(info.messageId ?? "");
  } finally {
    transport.close();
  }
}
