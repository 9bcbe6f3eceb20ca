// Kysely table types. Columns are snake_case in SQL and camelCase here
// (CamelCasePlugin). NUMERIC columns come back as strings: money never
// passes through a float.
// The tables are declared by domain in db/schema/; this file is what the app imports.
import type {
  PasswordCheckFailuresTable,
  PasswordResetRequestsTable,
  PasswordResetTokensTable,
  SessionsTable,
  TotpRecoveryCodesTable,
  TwoFactorChallengesTable,
  UsersTable,
} from "./schema/users.ts";
import type {
  ClientMeasurementsTable,
  ClientsTable,
  ConsentRecordsTable,
  HeardHowOptionsTable,
  PrescriptionsTable,
} from "./schema/clients.ts";
import type {
  CatalogTable,
  LensPackagesTable,
  OptionFrameMeasurementsTable,
  OptionItemsTable,
  QuoteAcceptancesTable,
  QuoteCarryOversTable,
  QuoteDeclinesTable,
  QuoteExpiryCountsTable,
  QuoteLinksTable,
  QuoteOptionsTable,
  QuotesTable,
} from "./schema/quotes.ts";
import type {
  JobEventsTable,
  JobsTable,
  LabsTable,
  OrdersTable,
  PaymentsTable,
} from "./schema/orders.ts";
import type {
  AuditLogTable,
  BackupRunsTable,
  EmailOutboxTable,
  IdempotencyKeysTable,
  KioskSessionsTable,
  RateLimitEventsTable,
  SettingsTable,
  UploadedFilesTable,
} from "./schema/store.ts";
import type { StoreLabsTable, StoresTable, UserStoresTable } from "./schema/stores.ts";

export * from "./schema/users.ts";
export * from "./schema/clients.ts";
export * from "./schema/quotes.ts";
export * from "./schema/orders.ts";
export * from "./schema/store.ts";
export * from "./schema/stores.ts";

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
  stores: StoresTable;
  userStores: UserStoresTable;
  storeLabs: StoreLabsTable;
}
