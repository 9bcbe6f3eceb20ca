import type { DB } from "../db/database.ts";
import { diffFields, type FieldChange } from "../audit/describe.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import type { SettingsInput } from "../schemas/settings.ts";
import { encryptSecret } from "../mail/secret_box.ts";
import {
  DEFAULT_EMAIL_BODY,
  DEFAULT_EMAIL_SUBJECT,
  DEFAULT_SMTP_PORT,
} from "../mail/mail_settings.ts";
import { DEFAULT_FOOTER_MESSAGE } from "../quotes/quotes.ts";
import { READY_BODY_DEFAULT, READY_SUBJECT_DEFAULT } from "../mail/messages/ready_notice.tsx";

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
    acceptanceTermsText: s.acceptanceTermsText ?? "",
    emailSubject: s.emailSubject ?? DEFAULT_EMAIL_SUBJECT,
    emailBody: s.emailBody ?? DEFAULT_EMAIL_BODY,
    smtpHost: s.smtpHost ?? "",
    smtpPort: s.smtpPort ?? DEFAULT_SMTP_PORT,
    smtpUser: s.smtpUser ?? "",
    smtpPassEnc: "",
    smtpPasswordSet: !!s.smtpPassEnc,
    smtpFromEmail: s.smtpFromEmail ?? "",
    smtpFromName: s.smtpFromName ?? "",
    smtpAllowInsecure: s.smtpAllowInsecure,
    openingDays: s.openingDays,
    closedDates: s.closedDates,
    openingTime: s.openingTime,
    closingTime: s.closingTime,
    timeZone: s.timeZone,
    readyEmailSubject: s.readyEmailSubject ?? READY_SUBJECT_DEFAULT,
    readyEmailBody: s.readyEmailBody ?? READY_BODY_DEFAULT,
    readyUndoMinutes: s.readyUndoMinutes,
    readyWaitingDays: s.readyWaitingDays,
  };
}

const MAIL_FIELDS = [
  "smtpHost",
  "smtpPort",
  "smtpUser",
  "smtpFromEmail",
  "smtpAllowInsecure",
] as const;

type Destination = {
  smtpHost: string | null;
  smtpPort: number;
  smtpUser: string | null;
  smtpAllowInsecure: boolean;
};

/**
 * Does this save change where (or how) the stored password would be sent?
 * A new host, port or user, or allowing a relay without TLS: any of them
 * would hand the mailbox password to whoever runs that server, so the
 * password must be typed again by someone who knows it.
 */
export function changesPasswordDestination(
  current: Destination,
  change: Partial<Destination>,
): boolean {
  const host = (h: string | null | undefined) => (h ?? "").trim().toLowerCase();
  const user = (u: string | null | undefined) => (u ?? "").trim();
  return (change.smtpHost !== undefined && host(change.smtpHost) !== host(current.smtpHost)) ||
    (change.smtpPort !== undefined && change.smtpPort !== current.smtpPort) ||
    (change.smtpUser !== undefined && user(change.smtpUser) !== user(current.smtpUser)) ||
    (change.smtpAllowInsecure === true && !current.smtpAllowInsecure);
}

/** One settings field's change as the history records it; a secret only says it changed. */
export type SettingsChange = (FieldChange & { field: string }) | { field: string; secret: true };

/**
 * Saves the fields given and says what changed: each field old → new as the
 * settings screen shows them, the SMTP password only as "changed" (or
 * removed), never its value; recorded in the history in the same transaction.
 */
export async function updateAdminSettings(
  db: DB,
  secretKey: Uint8Array,
  input: SettingsInput,
  actor: AuditActor,
) {
  const { smtpPassword, smtpPassEnc, ...fields } = input;
  const password = smtpPassword !== undefined ? smtpPassword : smtpPassEnc;
  return await db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("settings")
      .select(["smtpHost", "smtpPort", "smtpUser", "smtpAllowInsecure", "smtpPassEnc"])
      .where("id", "=", 1).forUpdate().executeTakeFirstOrThrow();
    const before = await findAdminSettings(trx);
    const update: Record<string, unknown> = { ...fields, updatedAt: new Date() };
    let passwordDropped = false;
    if (password === null) update.smtpPassEnc = null;
    else if (password) update.smtpPassEnc = await encryptSecret(secretKey, password);
    else if (current.smtpPassEnc && changesPasswordDestination(current, fields)) {
      update.smtpPassEnc = null;
      passwordDropped = true;
    }
    // New server details have not been proven to work yet.
    if (password !== undefined && password !== "" || MAIL_FIELDS.some((f) => f in fields)) {
      update.smtpVerifiedAt = null;
      update.smtpLastError = null;
    }
    await trx.updateTable("settings").set(update).where("id", "=", 1).execute();
    const settings = await findAdminSettings(trx);
    const names = Object.keys(fields) as (keyof typeof fields & keyof typeof settings)[];
    const changes: SettingsChange[] = diffFields(before, settings, names);
    if (update.smtpPassEnc !== undefined && update.smtpPassEnc !== null) {
      changes.push({ field: "smtpPassword", secret: true });
    } else if (update.smtpPassEnc === null && before.smtpPasswordSet) {
      changes.push({ field: "smtpPassword", from: "(set)", to: null });
    }
    await recordAudit(trx, actor, "settings.update", "settings", "1", {
      changes,
      ...(passwordDropped ? { smtpPasswordDropped: true } : {}),
    });
    return { settings, passwordDropped };
  });
}
