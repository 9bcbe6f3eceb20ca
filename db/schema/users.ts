// Staff accounts and signing in: users, sessions, second factor, password resets and failed
// checks.
import type { ColumnType, Generated } from "kysely";
import type { CreatedAt, Timestamp } from "./columns.ts";

export type Role = "AUTHORIZED_USER" | "ADMIN" | "OWNER";

export const ROLES: readonly Role[] = ["AUTHORIZED_USER", "ADMIN", "OWNER"];

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
  /**
   * Migration 0037: an ADMIN of the whole chain (true) or of their own stores
   * only (false); meaningful for ADMIN only (src/stores/scope.ts).
   */
  chainAdmin: ColumnType<boolean, boolean | undefined, boolean>;
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
