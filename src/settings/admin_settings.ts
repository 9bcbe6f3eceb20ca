import type { DB } from "../db/database.ts";
import type { SettingsInput } from "../schemas/settings.ts";
import { encryptSecret } from "../mail/secret_box.ts";
import {
  DEFAULT_EMAIL_BODY,
  DEFAULT_EMAIL_SUBJECT,
  DEFAULT_SMTP_PORT,
} from "../mail/mail_settings.ts";
import { DEFAULT_FOOTER_MESSAGE } from "../quotes/quotes.ts";

/**
 * Settings as the admin screen reads them. The SMTP password never leaves
 * the server: smtpPassEnc is always blank and smtpPasswordSet says whether
 * one is stored.
 */
export async function findAdminSettings(db: DB) {
  const s = await db.selectFrom("settings").selectAll().where("id", "=", 1)
    .executeTakeFirstOrThrow();
  return {
    storeName: s.storeName ?? "",
    storePhone: s.storePhone ?? "",
    storeEmail: s.storeEmail ?? "",
    storeAddress: s.storeAddress ?? "",
    storeWebsite: s.storeWebsite ?? "",
    logoUrl: s.logoUrl ?? "",
    faviconUrl: s.faviconUrl ?? "",
    footerMessage: s.footerMessage ?? DEFAULT_FOOTER_MESSAGE,
    quoteExpirationEnabled: s.quoteExpirationEnabled,
    quoteExpirationDays: s.quoteExpirationDays,
    smsConsentText: s.smsConsentText ?? "",
    emailConsentText: s.emailConsentText ?? "",
    emailSubject: s.emailSubject ?? DEFAULT_EMAIL_SUBJECT,
    emailBody: s.emailBody ?? DEFAULT_EMAIL_BODY,
    smtpHost: s.smtpHost ?? "",
    smtpPort: s.smtpPort ?? DEFAULT_SMTP_PORT,
    smtpUser: s.smtpUser ?? "",
    smtpPassEnc: "",
    smtpPasswordSet: !!s.smtpPassEnc,
    smtpFromEmail: s.smtpFromEmail ?? "",
    smtpFromName: s.smtpFromName ?? "",
  };
}

const MAIL_FIELDS = ["smtpHost", "smtpPort", "smtpUser", "smtpFromEmail"] as const;

export async function updateAdminSettings(db: DB, secretKey: Uint8Array, input: SettingsInput) {
  const { smtpPassword, smtpPassEnc, ...fields } = input;
  const password = smtpPassword !== undefined ? smtpPassword : smtpPassEnc;
  const update: Record<string, unknown> = { ...fields, updatedAt: new Date() };
  if (password === null) update.smtpPassEnc = null;
  else if (password) update.smtpPassEnc = await encryptSecret(secretKey, password);
  // New server details have not been proven to work yet.
  if (password !== undefined && password !== "" || MAIL_FIELDS.some((f) => f in fields)) {
    update.smtpVerifiedAt = null;
    update.smtpLastError = null;
  }
  await db.updateTable("settings").set(update).where("id", "=", 1).execute();
  return findAdminSettings(db);
}
