import type { DB } from "../db/database.ts";
import { decryptSecret } from "./secret_box.ts";

export const DEFAULT_EMAIL_SUBJECT = "Quote from {store}";
export const DEFAULT_EMAIL_BODY = "Please find your quote attached below.";
export const DEFAULT_SMTP_PORT = 587;

export interface MailSettings {
  configured: boolean;
  host: string;
  port: number;
  user: string;
  /** Decrypted; "" when none is stored or it cannot be decrypted. */
  password: string;
  fromEmail: string;
  fromName: string;
  subjectTemplate: string;
  bodyTemplate: string;
  /** A relay without TLS is allowed (the admin ticked "local relay without TLS"). */
  allowInsecure: boolean;
  verifiedAt: Date | null;
  lastError: string | null;
}

export async function findMailSettings(db: DB, secretKey: Uint8Array): Promise<MailSettings> {
  const s = await db.selectFrom("settings").select([
    "storeName",
    "smtpHost",
    "smtpPort",
    "smtpUser",
    "smtpPassEnc",
    "smtpFromEmail",
    "smtpFromName",
    "emailSubject",
    "emailBody",
    "smtpAllowInsecure",
    "smtpVerifiedAt",
    "smtpLastError",
  ]).where("id", "=", 1).executeTakeFirstOrThrow();
  const host = s.smtpHost?.trim() ?? "";
  const fromEmail = (s.smtpFromEmail?.trim() || s.smtpUser?.trim()) ?? "";
  return {
    configured: !!host && !!fromEmail,
    host,
    port: s.smtpPort || DEFAULT_SMTP_PORT,
    user: s.smtpUser?.trim() ?? "",
    password: s.smtpPassEnc ? (await decryptSecret(secretKey, s.smtpPassEnc)) ?? "" : "",
    fromEmail,
    fromName: s.smtpFromName?.trim() || s.storeName?.trim() || "",
    subjectTemplate: s.emailSubject?.trim() || DEFAULT_EMAIL_SUBJECT,
    bodyTemplate: s.emailBody?.trim() || DEFAULT_EMAIL_BODY,
    allowInsecure: s.smtpAllowInsecure,
    verifiedAt: s.smtpVerifiedAt,
    lastError: s.smtpLastError,
  };
}

export interface EmailStatus {
  configured: boolean;
  working: boolean;
  email: string | null;
  status: string;
}

/**
 * The spec's "Gmail OAuth2" status, served by the SMTP settings: configured
 * when a server and sender are set, working when the last delivery or test
 * succeeded.
 */
export async function findEmailStatus(db: DB, secretKey: Uint8Array): Promise<EmailStatus> {
  const m = await findMailSettings(db, secretKey);
  if (!m.configured) {
    return { configured: false, working: false, email: null, status: "not_configured" };
  }
  const working = !!m.verifiedAt && !m.lastError;
  return {
    configured: true,
    working,
    email: m.fromEmail,
    status: m.lastError ? `error: ${m.lastError}` : working ? "working" : "unverified",
  };
}

/**
 * What a person is told when mail fails, whatever the reason: refused
 * connection, timeout, TLS or sign-in. Telling those apart would let an admin
 * use the test e-mail to probe hosts and ports of the store's network; the
 * detail goes to the server log instead.
 */
export const MAIL_FAILURE =
  "The mail server could not be reached or did not accept the message. Check the server, " +
  "port, username, password and TLS settings; the server log has the details.";

/** Remembers whether the last delivery attempt or test worked (never why not: see MAIL_FAILURE). */
export async function recordMailOutcome(db: DB, outcome: "sent" | "failed") {
  await db.updateTable("settings").set(
    outcome === "sent"
      ? { smtpVerifiedAt: new Date(), smtpLastError: null }
      : { smtpLastError: MAIL_FAILURE },
  ).where("id", "=", 1).execute();
}

/** Cheap check for the banner: is a server and sender set? (No decryption.) */
export async function isMailConfigured(db: DB): Promise<boolean> {
  const s = await db.selectFrom("settings").select(["smtpHost", "smtpFromEmail", "smtpUser"])
    .where("id", "=", 1).executeTakeFirstOrThrow();
  return !!s.smtpHost?.trim() && !!(s.smtpFromEmail?.trim() || s.smtpUser?.trim());
}
