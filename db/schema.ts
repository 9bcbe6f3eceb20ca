// Kysely table types. Columns are snake_case in SQL and camelCase here
// (CamelCasePlugin). NUMERIC columns come back as strings: money never
// passes through a float.
import type { ColumnType, Generated, RawBuilder } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Numeric = ColumnType<string, string | number | undefined, string | number>;

export type Role = "AUTHORIZED_USER" | "ADMIN" | "OWNER";
export const ROLES: readonly Role[] = ["AUTHORIZED_USER", "ADMIN", "OWNER"];

export type QuoteStatus =
  | "DRAFT"
  | "ACTIVE"
  | "PENDING_MEASUREMENTS"
  | "FINALIZED"
  | "EMAILED"
  | "ACCEPTED"
  | "CLOSED";

export type ItemKind = "FRAME" | "PACKAGE" | "LENS" | "MATERIAL" | "AR" | "ADDON" | "OTHER";

export interface UsersTable {
  id: Generated<string>;
  firstName: ColumnType<string, string | undefined, string>;
  lastName: ColumnType<string, string | undefined, string>;
  username: string;
  email: string | null;
  role: ColumnType<Role, Role | undefined, Role>;
  passwordHash: string | null;
  externalSubject: string | null;
  isExternal: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
  /** TOTP secret, encrypted under SECRET_KEY; set once enrolment is confirmed. */
  totpSecretEnc: ColumnType<string | null, string | null | undefined, string | null>;
  /** A secret shown for enrolment, not yet confirmed with a code. */
  totpPendingSecretEnc: ColumnType<string | null, string | null | undefined, string | null>;
  totpEnabledAt: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The last TOTP time step accepted (bigint as text); a code of that step or older is refused. */
  totpLastStep: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface TotpRecoveryCodesTable {
  /** SHA-256 of the code. */
  id: string;
  userId: string;
  createdAt: CreatedAt;
  usedAt: Timestamp | null;
}

export interface TwoFactorChallengesTable {
  id: string;
  userId: string;
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  returnTo: ColumnType<string, string | undefined, string>;
}

export interface SessionsTable {
  id: string;
  userId: string;
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  absoluteExpiresAt: Timestamp;
  ip: string | null;
  userAgent: string | null;
}

export interface PasswordResetTokensTable {
  id: string;
  userId: string;
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  usedAt: Timestamp | null;
  /** Set when a newer reset link for the same user replaced this one. */
  replacedAt: Timestamp | null;
}

export interface PasswordResetRequestsTable {
  id: Generated<string>;
  /** `email:…`, `ip:…` or `user:…`: what the request is counted against. */
  key: string;
  at: Timestamp;
}

export interface HeardHowOptionsTable {
  id: Generated<string>;
  label: string;
  sortOrder: ColumnType<number, number | undefined, number>;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: CreatedAt;
}

export interface ClientsTable {
  id: Generated<string>;
  firstName: string;
  middleName: string | null;
  lastName: string;
  dob: ColumnType<string | null, string | null | undefined, string | null>;
  email: string | null;
  homePhone: string | null;
  mobilePhone: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  mailingAddress: string | null;
  heardHowId: string | null;
  heardHowText: string | null;
  smsConsent: ColumnType<boolean, boolean | undefined, boolean>;
  emailConsent: ColumnType<boolean, boolean | undefined, boolean>;
  consentDate: Timestamp | null;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
  /** Names and e-mail, lowercased: what searches test (generated, migration 0025). */
  searchText: ColumnType<string, never, never>;
  /** Each phone's digits (generated, migration 0025). */
  mobileDigits: ColumnType<string, never, never>;
  homeDigits: ColumnType<string, never, never>;
}

export interface ClientMeasurementsTable {
  clientId: string;
  pdBinocular: Numeric;
  pdNear: Numeric;
  measurementsComplete: ColumnType<boolean, boolean | undefined, boolean>;
  extras: ColumnType<Record<string, string>, RawBuilder<unknown> | undefined, RawBuilder<unknown>>;
  updatedAt: Timestamp;
}

export interface ConsentRecordsTable {
  id: Generated<string>;
  clientId: string;
  consentType: "SMS" | "EMAIL";
  statement: string;
  target: string;
  consentGiven: boolean;
  ip: string | null;
  createdAt: CreatedAt;
}

export interface QuotesTable {
  id: Generated<string>;
  quoteNumber: Generated<string>;
  clientId: string;
  opticianName: ColumnType<string, string | undefined, string>;
  /** The client's "first last" name, copied by triggers (migration 0007) for search. */
  clientName: ColumnType<string, never, never>;
  status: ColumnType<QuoteStatus, QuoteStatus | undefined, QuoteStatus>;
  internalNotes: ColumnType<string, string | undefined, string>;
  footerMessage: string | null;
  expiresAt: Timestamp | null;
  closureReason: string | null;
  closedAt: Timestamp | null;
  emailedAt: Timestamp | null;
  /** First confirmation on the tablet; kept when the quote moves on (report). */
  acceptedAt: Timestamp | null;
  /** When it was finalized; kept when the quote moves on (report). */
  finalizedAt: Timestamp | null;
  /** When the client last opened an online link of it (migration 0023). */
  clientViewedAt: ColumnType<Date | null, Date | null | undefined, Date | null>;
  version: ColumnType<number, number | undefined, number>;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
  /** Number, optician and client name, lowercased: what searches test (generated, 0025). */
  searchText: ColumnType<string, never, never>;
}

export interface QuoteOptionsTable {
  id: Generated<string>;
  quoteId: string;
  position: number;
  label: ColumnType<string, string | undefined, string>;
  notes: ColumnType<string, string | undefined, string>;
  isChosen: ColumnType<boolean, boolean | undefined, boolean>;
  shipping: Numeric;
  adjustmentAmount: Numeric;
  adjustmentReason: ColumnType<string, string | undefined, string>;
  subtotal: Numeric;
}

export interface OptionItemsTable {
  id: Generated<string>;
  optionId: string;
  position: number;
  kind: ItemKind;
  name: ColumnType<string, string | undefined, string>;
  sku: string | null;
  unitPrice: Numeric;
  qty: ColumnType<number, number | undefined, number>;
  notes: ColumnType<string, string | undefined, string>;
  catalogId: string | null;
}

export interface OptionFrameMeasurementsTable {
  optionId: string;
  segOc: ColumnType<string, string | undefined, string>;
  updatedAt: Timestamp;
}

export interface CatalogTable {
  id: Generated<string>;
  name: string;
  price: Numeric;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  sortOrder: ColumnType<number, number | undefined, number>;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

export interface LensPackagesTable extends CatalogTable {
  description: ColumnType<string, string | undefined, string>;
}

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

/** One failed password check; see src/auth/password_failures.ts. */
export interface PasswordCheckFailuresTable {
  id: Generated<string>;
  at: ColumnType<Date, Date, never>;
  account: string;
  source: string;
  address: string;
  knownDevice: boolean;
  purpose: string;
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
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  /** Set when its one write starts (cleared again if that write fails): no more writes. */
  completedAt: Timestamp | null;
  ip: string | null;
  userAgent: string | null;
}

export type PrismBase = "up" | "down" | "in" | "out";
type NullableNumeric = ColumnType<
  string | null,
  string | number | null | undefined,
  string | number | null
>;

/** Migration 0013: od_ is the right eye, os_ the left; dates as YYYY-MM-DD text. */
export interface PrescriptionsTable {
  id: Generated<string>;
  clientId: string;
  dateWritten: ColumnType<string, string, string>;
  prescriber: string;
  expiresOn: ColumnType<string | null, string | null | undefined, string | null>;
  notes: ColumnType<string, string | undefined, string>;
  odSphere: Numeric;
  odCylinder: NullableNumeric;
  odAxis: number | null;
  odAdd: NullableNumeric;
  odPrismAmount: NullableNumeric;
  odPrismBase: PrismBase | null;
  osSphere: Numeric;
  osCylinder: NullableNumeric;
  osAxis: number | null;
  osAdd: NullableNumeric;
  osPrismAmount: NullableNumeric;
  osPrismBase: PrismBase | null;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

/** Migration 0013: what a new quote took over from the client's previous one. */
export interface QuoteCarryOversTable {
  quoteId: string;
  sourceQuoteId: string | null;
  sourceQuoteNumber: string;
  sourceDate: Timestamp;
  pdBinocular: Numeric;
  pdNear: Numeric;
  segOc: ColumnType<string, string | undefined, string>;
  extras: ColumnType<Record<string, string>, RawBuilder<unknown> | undefined, RawBuilder<unknown>>;
  confirmedAt: Timestamp | null;
  confirmedBy: string | null;
}

/**
 * How many quotes have each status and expiry day (UTC; 'infinity' for none),
 * kept by triggers on quotes (migration 0016) for the dashboard's counts.
 */
export interface QuoteExpiryCountsTable {
  status: string;
  /** YYYY-MM-DD, or 'infinity'. */
  expiresOn: string;
  n: number;
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

/** Migration 0023: one online link of a quote e-mail; only the token's SHA-256 is kept. */
export interface QuoteLinksTable {
  id: Generated<string>;
  quoteId: string;
  tokenHash: string;
  /** The quote's version when the link was made (moved on with the send's own bump). */
  quoteVersion: number;
  sentTo: string;
  createdBy: string | null;
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  revokedAt: Timestamp | null;
  spentAt: Timestamp | null;
  lastViewedOn: string | null;
}

/** Migration 0023: the one online acceptance of a quote. */
export interface QuoteAcceptancesTable {
  id: Generated<string>;
  quoteId: string;
  linkId: string | null;
  signerName: string;
  signaturePng: Uint8Array | null;
  typedSignature: boolean;
  chosenOptionIds: ColumnType<string[], RawBuilder<unknown>, never>;
  acceptedAt: CreatedAt;
  ip: string | null;
  userAgent: string | null;
  signedPdf: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  /**
   * Migration 0029: when the client's e-mail of the signed copy went into the
   * outbox, or it was found that none is owed (the link had no address).
   */
  signedCopySettledAt: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Tries at that e-mail (given up at SIGNED_COPY_MAX_ATTEMPTS), and when the next may be. */
  signedCopyAttempts: ColumnType<number, number | undefined, number>;
  signedCopyNextAt: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /**
   * Migration 0033: why the signed copy cannot be made or was not e-mailed, in
   * words for staff; set, it is not tried again in the background.
   */
  signedCopyProblem: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 0035: the acceptance terms the client ticked (empty for older acceptances). */
  termsText: ColumnType<string, string | undefined, string>;
}

/** Migration 0030: one row per event a signed-out limit let through, shared by every process. */
export interface RateLimitEventsTable {
  rule: string;
  key: string;
  at: Date;
}

/** Migration 0023: a client's online decline, with their optional message. */
export interface QuoteDeclinesTable {
  id: Generated<string>;
  quoteId: string;
  linkId: string | null;
  message: ColumnType<string, string | undefined, never>;
  declinedAt: CreatedAt;
  ip: string | null;
  userAgent: string | null;
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

export type JobStatus =
  | "ORDERED"
  | "SENT_TO_LAB"
  | "RECEIVED"
  | "CHECKED"
  | "READY"
  | "PICKED_UP"
  | "CANCELLED"
  | "REMAKE";

export type PaymentMethod = "CASH" | "CARD" | "CHEQUE" | "OTHER";

/** Migration 0022: the labs catalog. */
export interface LabsTable {
  id: Generated<string>;
  name: string;
  email: string | null;
  phone: string | null;
  accountNumber: string | null;
  turnaroundDays: number;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

export interface OrdersTable {
  id: Generated<string>;
  quoteId: string | null;
  quoteNumber: string;
  clientId: string;
  opticianName: ColumnType<string, string | undefined, string>;
  notes: ColumnType<string, string | undefined, string>;
  version: ColumnType<number, number | undefined, number>;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

type Json<T> = ColumnType<T, RawBuilder<unknown>, RawBuilder<unknown>>;

export interface JobsTable {
  id: Generated<string>;
  jobNumber: Generated<string>;
  orderId: string;
  position: number;
  optionLabel: ColumnType<string, string | undefined, string>;
  /** Migration 0035: the option's name as the client chose it (empty for older jobs). */
  optionName: ColumnType<string, string | undefined, string>;
  labId: string;
  status: ColumnType<JobStatus, JobStatus | undefined, JobStatus>;
  items: Json<unknown>;
  shipping: Numeric;
  adjustmentAmount: Numeric;
  total: Numeric;
  measurements: Json<unknown>;
  prescription: ColumnType<unknown, RawBuilder<unknown> | null, RawBuilder<unknown> | null>;
  notes: ColumnType<string, string | undefined, string>;
  orderedAt: Timestamp;
  /** YYYY-MM-DD. */
  promisedDate: ColumnType<string, string, string>;
  remakeCount: ColumnType<number, number | undefined, number>;
  readyAt: Timestamp | null;
  pickedUpAt: Timestamp | null;
  clientNotifiedAt: Timestamp | null;
  version: ColumnType<number, number | undefined, number>;
  updatedAt: Timestamp;
}

export interface JobEventsTable {
  id: Generated<string>;
  jobId: string;
  at: Timestamp;
  fromStatus: JobStatus | null;
  toStatus: JobStatus;
  reason: string | null;
  userId: string | null;
  actor: string;
}

export interface PaymentsTable {
  id: Generated<string>;
  orderId: string;
  amount: Numeric;
  method: PaymentMethod;
  /** YYYY-MM-DD. */
  paidOn: ColumnType<string, string, string>;
  note: ColumnType<string, string | undefined, string>;
  reason: string | null;
  userId: string | null;
  actor: string;
  createdAt: CreatedAt;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  passwordResetTokens: PasswordResetTokensTable;
  passwordResetRequests: PasswordResetRequestsTable;
  totpRecoveryCodes: TotpRecoveryCodesTable;
  twoFactorChallenges: TwoFactorChallengesTable;
  heardHowOptions: HeardHowOptionsTable;
  clients: ClientsTable;
  clientMeasurements: ClientMeasurementsTable;
  consentRecords: ConsentRecordsTable;
  quotes: QuotesTable;
  quoteOptions: QuoteOptionsTable;
  optionItems: OptionItemsTable;
  optionFrameMeasurements: OptionFrameMeasurementsTable;
  lensPackages: LensPackagesTable;
  lensTypes: CatalogTable;
  materials: CatalogTable;
  arCoatings: CatalogTable;
  addOns: CatalogTable;
  settings: SettingsTable;
  uploadedFiles: UploadedFilesTable;
  auditLog: AuditLogTable;
  emailOutbox: EmailOutboxTable;
  kioskSessions: KioskSessionsTable;
  passwordCheckFailures: PasswordCheckFailuresTable;
  prescriptions: PrescriptionsTable;
  quoteCarryOvers: QuoteCarryOversTable;
  quoteExpiryCounts: QuoteExpiryCountsTable;
  backupRuns: BackupRunsTable;
  quoteLinks: QuoteLinksTable;
  quoteAcceptances: QuoteAcceptancesTable;
  rateLimitEvents: RateLimitEventsTable;
  quoteDeclines: QuoteDeclinesTable;
  idempotencyKeys: IdempotencyKeysTable;
  labs: LabsTable;
  orders: OrdersTable;
  jobs: JobsTable;
  jobEvents: JobEventsTable;
  payments: PaymentsTable;
}
