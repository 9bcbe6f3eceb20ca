// JSON shapes of the orders API; islands import these as types only.
import type { ItemKind, JobStatus, PaymentMethod } from "../../db/schema.ts";
import type { PrescriptionView } from "../prescriptions/views.ts";
import type { JobStep, OrderMoney } from "./rules.ts";

export interface LabView {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  accountNumber: string | null;
  turnaroundDays: number;
  active: boolean;
}

/** An item as sold, frozen on the job. */
export interface JobItem {
  kind: ItemKind;
  name: string;
  sku: string | null;
  unitPrice: string;
  qty: number;
  notes: string;
}

/** The option's and client's measurements as they were when the order was made. */
export interface JobMeasurements {
  pdDistance: string;
  pdNear: string;
  segOc: string;
  extras: Record<string, string>;
}

export interface JobEventView {
  at: string;
  fromStatus: JobStatus | null;
  toStatus: JobStatus;
  reason: string | null;
  actor: string;
}

export interface JobView {
  id: string;
  jobNumber: string;
  /** The staff's title of the option: its frame SKU, else its label, else "Option N". */
  optionLabel: string;
  /** The option's name as the client chose it (label, else "Option N"); empty on older jobs. */
  optionName: string;
  /** The store the glasses go to, where the client picks them up. */
  pickupStoreId: string;
  lab: {
    id: string;
    name: string;
    email: string | null;
    phone: string | null;
    accountNumber: string | null;
  };
  status: JobStatus;
  items: JobItem[];
  shipping: string;
  adjustmentAmount: string;
  total: string;
  measurements: JobMeasurements;
  prescription: PrescriptionView | null;
  notes: string;
  orderedAt: string;
  promisedDate: string;
  remakeCount: number;
  readyAt: string | null;
  pickedUpAt: string | null;
  clientNotifiedAt: string | null;
  isLate: boolean;
  version: number;
  events: JobEventView[];
  /** What the signed-in role may do next (the server refuses the rest). */
  nextSteps: JobStep[];
}

export interface PaymentView {
  id: string;
  amount: string;
  method: PaymentMethod;
  paidOn: string;
  note: string;
  reason: string | null;
  actor: string;
  createdAt: string;
  /** The store that took it. */
  storeId: string;
}

/** GET /api/orders/{id}. */
export interface OrderBundle {
  order: {
    id: string;
    quoteId: string | null;
    quoteNumber: string;
    opticianName: string;
    notes: string;
    createdAt: string;
    /** The store the order was made in (its quote's). */
    storeId: string;
  };
  client: { id: string; firstName: string; lastName: string; email: string | null };
  jobs: JobView[];
  payments: PaymentView[];
  money: OrderMoney;
  /** The store's today (its time zone), against which jobs are late. */
  today: string;
}

/** A row of /orders: one job. */
export interface OrderListRow {
  jobId: string;
  jobNumber: string;
  orderId: string;
  clientName: string;
  labName: string;
  opticianName: string;
  status: JobStatus;
  promisedDate: string;
  orderedAt: string;
  readyAt: string | null;
  total: string;
  isLate: boolean;
  /** The order's store, and the one the glasses go to for pickup (the same unless sent on). */
  storeId: string;
  pickupStoreId: string;
}
