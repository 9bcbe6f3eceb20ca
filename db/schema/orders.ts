// Orders: labs, orders, their jobs and job events, and payments.
import type { ColumnType, Generated, RawBuilder } from "kysely";
import type { CreatedAt, Numeric, Timestamp } from "./columns.ts";

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
  /** Migration 0036: the store it belongs to (see db/schema/stores.ts). */
  storeId: ColumnType<string, string | undefined, string>;
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
  /** Migration 0036: the store the glasses go to, where the client picks them up. */
  pickupStoreId: ColumnType<string, string | undefined, string>;
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
  /** Migration 0036: the store it belongs to (see db/schema/stores.ts). */
  storeId: ColumnType<string, string | undefined, string>;
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
