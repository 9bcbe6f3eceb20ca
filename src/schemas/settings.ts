import * as z from "zod";
import { multilineText, safeText } from "./text.ts";
import { isCalendarDate } from "./calendar_date.ts";

/** An optional text: empty is null. */
export const text = (max: number, multiline = false) =>
  safeText({ multiline, trim: true }).max(max, `Must be at most ${max} characters`).nullish()
    .transform((v) => v || null);
/** An optional e-mail address: empty is null. */
export const email = safeText({ trim: true }).max(254).nullish().transform((v) => v || null)
  .pipe(z.email("Please enter a valid email address").nullable());

/** Expiration days: a number from 1 to 365; anything unreadable falls back to 30. */
const expirationDays = z.union([z.number(), safeText()]).transform((v) => {
  const n = typeof v === "number" ? v : Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : 30;
}).pipe(
  z.number().int().min(1, "Expiration days must be at least 1").max(
    365,
    "Expiration days must be at most 365",
  ),
);

const OPENING_DAYS_MESSAGE = "Opening days must be weekdays from 0 (Sunday) to 6 (Saturday)";
const CLOSED_DATES_MESSAGE = "Closed dates must be real days written as YYYY-MM-DD";
/** As many closed dates as a store keeps (a year's holidays, several times over). */
export const MAX_CLOSED_DATES = 100;

const clockTime = (label: string) =>
  safeText({ trim: true }).regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, `${label} must be like 09:00`);

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone !== "";
  } catch {
    return false;
  }
}

const wholeNumber = (label: string, min: number, max: number) =>
  z.union([z.number(), safeText()]).transform((v) => Number(String(v).trim() || NaN)).pipe(
    z.number({ error: `${label} must be a whole number from ${min} to ${max}` }).int(
      `${label} must be a whole number from ${min} to ${max}`,
    ).min(min, `${label} must be a whole number from ${min} to ${max}`).max(
      max,
      `${label} must be a whole number from ${min} to ${max}`,
    ),
  );

/** The days a store opens, 0 = Sunday, kept as "1,2,3,4,5,6". */
export const openingDaysField = z.union([z.array(z.number()), safeText()], {
  error: OPENING_DAYS_MESSAGE,
})
  .transform((v, ctx) => {
    const parts = Array.isArray(v) ? v : v.split(",").filter((d) => d.trim() !== "");
    const days = parts.map((d) => Number(d));
    if (days.length === 0) {
      ctx.addIssue({ code: "custom", message: "Choose at least one opening day" });
      return z.NEVER;
    }
    if (days.some((d) => !Number.isInteger(d) || d < 0 || d > 6)) {
      ctx.addIssue({ code: "custom", message: OPENING_DAYS_MESSAGE });
      return z.NEVER;
    }
    return [...new Set(days)].sort().join(",");
  });

/** Days shut on an opening day: kept sorted, each once, as "2026-12-25,2027-01-01". */
export const closedDatesField = z.union([
  z.array(safeText().max(20)).max(1000),
  safeText().max(20_000),
], {
  error: CLOSED_DATES_MESSAGE,
}).transform((v, ctx) => {
  const dates = (Array.isArray(v) ? v : v.split(/[\s,]+/)).map((d) => d.trim())
    .filter((d) => d !== "");
  const wrong = dates.find((d) => !isCalendarDate(d));
  if (wrong !== undefined) {
    ctx.addIssue({
      code: "custom",
      message: `${CLOSED_DATES_MESSAGE} ("${wrong.slice(0, 20)}")`,
    });
    return z.NEVER;
  }
  const unique = [...new Set(dates)].sort();
  if (unique.length > MAX_CLOSED_DATES) {
    ctx.addIssue({
      code: "custom",
      message: `At most ${MAX_CLOSED_DATES} closed dates; remove past ones first`,
    });
    return z.NEVER;
  }
  return unique.join(",");
});

export const openingTimeField = clockTime("Opening time");
export const closingTimeField = clockTime("Closing time");
export const timeZoneField = safeText({ trim: true }).max(64).refine(isTimeZone, {
  message: "Time zone must be an IANA name like America/Chicago",
});

/** PUT /api/admin/settings: any subset of the fields; absent fields are left alone. */
export const settingsSchema = z.object({
  storeName: text(100),
  storePhone: text(40),
  storeEmail: email,
  storeAddress: text(300, true),
  storeWebsite: text(200),
  footerMessage: text(1000, true),
  quoteExpirationEnabled: z.boolean(),
  quoteExpirationDays: expirationDays,
  smsConsentText: text(2000, true),
  emailConsentText: text(2000, true),
  /** The terms a client ticks to accept a quote online (empty: the built-in text). */
  acceptanceTermsText: text(2000, true),
  emailSubject: text(200),
  emailBody: text(5000, true),
  smtpHost: text(253),
  smtpPort: z.union([z.number(), safeText()]).transform((v) => Number(v)).pipe(
    z.number().int().min(1, "Port must be 1–65535").max(65535, "Port must be 1–65535"),
  ),
  smtpUser: text(254),
  /**
   * The SMTP password in plain text, write-only: a non-empty value replaces
   * the stored one, "" or an absent field keeps it, null removes it. The spec
   * sends it under the name smtpPassEnc; both names are accepted.
   */
  smtpPassword: safeText().max(500).nullable(),
  smtpPassEnc: safeText().max(500).nullable(),
  smtpFromEmail: email,
  smtpFromName: text(100),
  /**
   * Off (the default): mail goes over TLS only, implicit on port 465 and
   * STARTTLS required on any other port. On: a relay on the store's own
   * network that speaks no TLS is allowed, and the password travels in clear.
   */
  smtpAllowInsecure: z.boolean(),
  /** Orders (migration 0022): the days the store opens, 0 = Sunday, as "1,2,3,4,5,6". */
  openingDays: openingDaysField,
  /**
   * Days shut on an opening day (migration 0028): a list, or one text of
   * dates separated by commas, spaces or lines; kept sorted, each once.
   */
  closedDates: closedDatesField,
  openingTime: openingTimeField,
  closingTime: closingTimeField,
  timeZone: timeZoneField,
  readyEmailSubject: text(200),
  readyEmailBody: text(5000, true),
  readyUndoMinutes: wholeNumber("Undo window", 0, 120),
  readyWaitingDays: wholeNumber("Ready and waiting days", 1, 365),
}).partial().refine(
  (s) => !s.openingTime || !s.closingTime || s.openingTime < s.closingTime,
  { message: "Closing time must be after opening time", path: ["closingTime"] },
);
export type SettingsInput = z.infer<typeof settingsSchema>;

export const testEmailSchema = z.object({
  email: safeText({ error: "Please enter an email address", trim: true })
    .min(1, "Please enter an email address").pipe(z.email("Please enter a valid email address")),
});

export const quoteEmailSchema = z.object({
  email: safeText({ error: "Please enter the client's email address", trim: true })
    .min(1, "Please enter the client's email address").max(254)
    .pipe(z.email("Please enter a valid email address")),
  note: multilineText().max(5000).optional().default(""),
});
