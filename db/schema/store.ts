// The store and its machinery: settings, uploads, the mail outbox, the audit log, kiosk sessions,
// backups, rate limits and idempotency keys.
import type { ColumnType, Generated, RawBuilder } from "kysely";
import type { CreatedAt, Timestamp } from "./columns.ts";

export interface SettingsTable {
  id: ColumnType<number, never, never>;
  storeName: string | null;
  storePhone: string | null;
  storeEmail: string | null;
  storeAddress: string | null;
  storeWebsite: string | null;
  logoUrl: string | null;
  /** The uploaded logo's print copy (migration 0020); null for a built-in logo. */
  logoPrintUrl: string | null;
  faviconUrl: string | null;
  footerMessage: string | null;
  quoteExpirationEnabled: ColumnType<boolean, never, boolean>;
  quoteExpirationDays: ColumnType<number, never, number>;
  smsConsentText: string | null;
  emailConsentText: string | null;
  emailSubject: string | null;
  emailBody: string | null;
  smtpHost: string | null;
  smtpPort: ColumnType<number, never, number>;
  smtpUser: string | null;
  smtpPassEnc: string | null;
  smtpFromEmail: string | null;
  smtpFromName: string | null;
  /** Off: TLS is required (implicit on 465, STARTTLS otherwise). On: a local relay without TLS. */
  smtpAllowInsecure: ColumnType<boolean, never, boolean>;
  smtpVerifiedAt: Timestamp | null;
  smtpLastError: string | null;
  /** The owner's rule: admins and owners must sign in with a second factor. */
  requireTwoFactor: ColumnType<boolean, never, boolean>;
  /** The terms a client ticks before accepting a quote online (migration 0023). */
  acceptanceTermsText: ColumnType<string | null, never, string | null>;
  /** Migration 0022: opening days "1,2,3,4,5,6" (0 = Sunday), hours "09:00", IANA zone. */
  openingDays: ColumnType<string, never, string>;
  /** Migration 0028: days shut on an opening day, "2026-12-25,2027-01-01" (sorted, ≤ 100). */
  closedDates: ColumnType<string, never, string>;
  openingTime: ColumnType<string, never, string>;
  closingTime: ColumnType<string, never, string>;
  timeZone: ColumnType<string, never, string>;
  readyEmailSubject: string | null;
  readyEmailBody: string | null;
  readyUndoMinutes: ColumnType<number, never, number>;
  readyWaitingDays: ColumnType<number, never, number>;
  updatedAt: Timestamp;
}

export interface UploadedFilesTable {
  id: Generated<string>;
  uploadTokenHash: string;
  purpose: string;
  maxBytes: number;
  expiresAt: Timestamp;
  contentType: string | null;
  byteSize: number | null;
  data: Uint8Array | null;
  /** SHA-256 of `data` in hex; the file is served as /uploads/{hash}.{ext}. */
  contentHash: string | null;
  createdBy: string | null;
  createdAt: CreatedAt;
  completedAt: Timestamp | null;
}

export type OutboxKind =
  | "QUOTE"
  | "TEST"
  | "PASSWORD_RESET"
  | "SECURITY_NOTICE"
  | "STAFF_NOTICE"
  | "READY_NOTICE"
  | "WORK_ORDER";

export interface EmailOutboxTable {
  id: Generated<string>;
  quoteId: string | null;
  /** Migration 0022: the job a ready notice or work order is about. */
  jobId: ColumnType<string | null, string | null | undefined, string | null>;
  kind: ColumnType<OutboxKind, OutboxKind | undefined, never>;
  toAddress: string;
  subject: string;
  html: string;
  textBody: string;
  attachmentName: string | null;
  attachment: Uint8Array | null;
  status: ColumnType<
    "PENDING" | "SENT" | "FAILED",
    "PENDING" | undefined,
    "PENDING" | "SENT" | "FAILED"
  >;
  attempts: ColumnType<number, number | undefined, number>;
  nextAttemptAt: Timestamp;
  lastError: string | null;
  messageId: string | null;
  createdBy: string | null;
  createdAt: CreatedAt;
  sentAt: Timestamp | null;
}

export interface AuditLogTable {
  id: Generated<string>;
  at: CreatedAt;
  userId: string | null;
  actor: string;
  action: string;
  /** Generated: the action's part before the dot (client, quote, catalog, user, auth, settings). */
  kind: ColumnType<string, never, never>;
  entityType: string;
  entityId: string | null;
  details: ColumnType<Record<string, unknown>, RawBuilder<unknown> | undefined, never>;
  /** Migration 0038: the store the entry concerns; null is the chain's (clients, catalog, users). */
  storeId: ColumnType<string | null, string | RawBuilder<unknown> | null | undefined, never>;
}

export type KioskKind = "QUOTE" | "INTAKE";

export interface KioskSessionsTable {
  id: string;
  kind: KioskKind;
  /** QUOTE: the quote handed over; INTAKE: the quote created with the client, once submitted. */
  quoteId: string | null;
  /** INTAKE: the client the intake created, once submitted. */
  clientId: string | null;
  handedOverBy: string;
  /** Migration 0036: the store it belongs to (see db/schema/stores.ts). */
  storeId: ColumnType<string, string | undefined, string>;
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  /** Set when its one write starts (cleared again if that write fails): no more writes. */
  completedAt: Timestamp | null;
  ip: string | null;
  userAgent: string | null;
}

/** One backup's outcome; see src/backup/runs.ts. */
export interface BackupRunsTable {
  id: Generated<string>;
  startedAt: Date;
  finishedAt: CreatedAt;
  ok: boolean;
  nightly: boolean;
  bytes: ColumnType<string | null, number | null | undefined, never>;
  file: string | null;
  error: string | null;
  /** Migration 0031: when a restore loaded this backup; NULL for backups this store took. */
  restoredAt: ColumnType<Date | null, Date | null | undefined, never>;
}

/** Migration 0030: one row per event a signed-out limit let through, shared by every process. */
export interface RateLimitEventsTable {
  rule: string;
  key: string;
  at: Date;
}

/** A write's stored answer under the Idempotency-Key the browser sent with it (0024). */
export interface IdempotencyKeysTable {
  key: string;
  /** Who sent it: `user:<id>`, `kiosk:<id>` or `ip:<address>`. */
  caller: string;
  /** Hex SHA-256 of the request's method, path and body as sent. */
  bodySha256: string;
  /** The HTTP status of the stored answer. */
  status: number;
  /** The answer's JSON body as sent the first time (rows before migration 0032). */
  answer: string;
  /** The answer's JSON body, gzipped (migration 0032); null while the write runs. */
  answerGzip: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  createdAt: Date;
}
