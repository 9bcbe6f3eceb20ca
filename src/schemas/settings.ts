import { z } from "zod";

const text = (max: number) =>
  z.string().max(max, `Must be at most ${max} characters`).nullish().transform((v) =>
    v?.trim() ? v.trim() : null
  );
const email = z.string().trim().max(254).nullish().transform((v) => v || null)
  .pipe(z.email("Please enter a valid email address").nullable());

/** Expiration days: a number from 1 to 365; anything unreadable falls back to 30. */
const expirationDays = z.union([z.number(), z.string()]).transform((v) => {
  const n = typeof v === "number" ? v : Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : 30;
}).pipe(
  z.number().int().min(1, "Expiration days must be at least 1").max(
    365,
    "Expiration days must be at most 365",
  ),
);

/** PUT /api/admin/settings: any subset of the fields; absent fields are left alone. */
export const settingsSchema = z.object({
  storeName: text(100),
  storePhone: text(40),
  storeEmail: email,
  storeAddress: text(300),
  storeWebsite: text(200),
  footerMessage: text(1000),
  quoteExpirationEnabled: z.boolean(),
  quoteExpirationDays: expirationDays,
  smsConsentText: text(2000),
  emailConsentText: text(2000),
  emailSubject: text(200),
  emailBody: text(5000),
  smtpHost: text(253),
  smtpPort: z.union([z.number(), z.string()]).transform((v) => Number(v)).pipe(
    z.number().int().min(1, "Port must be 1–65535").max(65535, "Port must be 1–65535"),
  ),
  smtpUser: text(254),
  /**
   * The SMTP password in plain text, write-only: a non-empty value replaces
   * the stored one, "" or an absent field keeps it, null removes it. The spec
   * sends it under the name smtpPassEnc; both names are accepted.
   */
  smtpPassword: z.string().max(500).nullable(),
  smtpPassEnc: z.string().max(500).nullable(),
  smtpFromEmail: email,
  smtpFromName: text(100),
}).partial();
export type SettingsInput = z.infer<typeof settingsSchema>;

export const testEmailSchema = z.object({
  email: z.string({ error: "Please enter an email address" }).trim()
    .min(1, "Please enter an email address").pipe(z.email("Please enter a valid email address")),
});

export const quoteEmailSchema = z.object({
  email: z.string({ error: "Please enter the client's email address" }).trim()
    .min(1, "Please enter the client's email address").max(254)
    .pipe(z.email("Please enter a valid email address")),
  note: z.string().max(5000).optional().default(""),
});
