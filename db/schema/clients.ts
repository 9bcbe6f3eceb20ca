// Clients: their details, measurements, consents and prescriptions.
import type { ColumnType, Generated, RawBuilder } from "kysely";
import type { CreatedAt, Numeric, Timestamp } from "./columns.ts";

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
  /** Migration 0036: the store the client belongs to first (staff may change it). */
  homeStoreId: ColumnType<string, string | undefined, string>;
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
