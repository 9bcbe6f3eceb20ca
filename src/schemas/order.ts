// Orders, jobs, payments and labs: the bodies the API reads and the order
// page and labs screen validate with before sending.
import { listStoreField } from "./query.ts";
import * as z from "zod";
import { amountMessage, parseCents } from "../money/amounts.ts";
import { multilineText, safeText, uuidField } from "./text.ts";
import { isCalendarDate } from "./calendar_date.ts";

const JOB_STATUS_VALUES = [
  "ORDERED",
  "SENT_TO_LAB",
  "RECEIVED",
  "CHECKED",
  "READY",
  "PICKED_UP",
  "CANCELLED",
  "REMAKE",
] as const;

const reasonText = multilineText({ trim: true }).max(1000);
const dateText = (label: string) =>
  safeText({ trim: true }).regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date (YYYY-MM-DD)`)
    .refine((d) => isCalendarDate(d), `${label} is not a real date`);

const version = z.number({ error: "version is required (the job as you loaded it)" }).int()
  .min(1);

/** "Create Order" on a finalized quote. */
export const createOrderSchema = z.object({
  labId: uuidField("Choose a lab"),
  /** The client's prescription the lab works from; omitted: the latest; null: none on file. */
  prescriptionId: uuidField("Choose one of the client's prescriptions").nullish(),
  /** Which options become jobs; omitted: the options the client chose. */
  optionIds: z.array(uuidField()).min(1, "Choose at least one option").max(20).optional(),
  notes: multilineText({ trim: true }).max(2000).optional().default(""),
});
export type CreateOrderInput = z.infer<typeof createOrderSchema>;

/** One step of a job; the reason is required by the step (remake, cancel, reopen). */
export const jobStepSchema = z.object({
  to: z.enum(JOB_STATUS_VALUES, { error: "to must be a job status" }),
  version,
  reason: reasonText.optional().default(""),
  /** Picked up with a balance due: an admin's or owner's reason. */
  overrideReason: reasonText.optional(),
});
export type JobStepInput = z.infer<typeof jobStepSchema>;

/** PUT /api/jobs/{id}/pickup-store: the store the glasses go to from now on. */
export const pickupStoreSchema = z.object({
  storeId: z.uuid({ error: "storeId must be a store id" }),
  version,
});

export const promisedDateSchema = z.object({
  promisedDate: dateText("Promised date"),
  reason: reasonText.min(1, "Please give a reason for changing the promised date"),
  version,
});

/** Signed cents: a negative amount is a refund. */
const signedAmount = z.union([safeText(), z.number()], { error: "Amount is required" })
  .transform((v, ctx) => {
    const cents = String(v).trim() === "" ? undefined : parseCents(v);
    if (cents === undefined || Math.abs(cents) > 99_999_999) {
      ctx.addIssue({ code: "custom", message: amountMessage("Amount", v, "50.00") });
      return z.NEVER;
    }
    return cents;
  });

export const paymentSchema = z.object({
  amount: signedAmount,
  method: z.enum(["CASH", "CARD", "CHEQUE", "OTHER"], {
    error: "Method must be cash, card, cheque or other",
  }),
  /** Defaults to the store's today. */
  paidOn: dateText("Date").optional(),
  note: safeText({ trim: true }).max(500).optional().default(""),
  reason: reasonText.optional().default(""),
});
export type PaymentInput = z.infer<typeof paymentSchema>;

const optionalText = (max: number) =>
  safeText({ trim: true }).max(max).nullish().transform((v) => v ? v : null);

export const labSchema = z.object({
  name: safeText({ error: "Name is required", trim: true }).min(1, "Name is required").max(120),
  email: optionalText(254).refine(
    (v) => v === null || z.email().safeParse(v).success,
    "E-mail must be an address like lab@example.com",
  ),
  phone: optionalText(40),
  accountNumber: optionalText(60),
  turnaroundDays: z.union([z.number(), safeText()], { error: "Turnaround is required" })
    .transform((v, ctx) => {
      const n = Number(String(v).trim());
      if (String(v).trim() === "" || !Number.isInteger(n) || n < 0 || n > 90) {
        ctx.addIssue({
          code: "custom",
          message: "Turnaround must be a whole number of business days from 0 to 90",
        });
        return z.NEVER;
      }
      return n;
    }),
  active: z.boolean().optional().default(true),
});
export type LabInput = z.infer<typeof labSchema>;

export const ORDER_LIST_STATUSES = [...JOB_STATUS_VALUES] as const;

/** /orders and GET /api/orders: filters and search. */
export const orderListQuery = z.object({
  q: safeText({ trim: true }).max(100).optional(),
  status: z.enum(JOB_STATUS_VALUES, { error: "status must be a job status" }).optional()
    .or(z.literal("").transform(() => undefined)),
  late: z.enum(["1", ""]).optional().transform((v) => v === "1"),
  waiting: z.enum(["1", ""]).optional().transform((v) => v === "1"),
  labId: uuidField("lab must be a lab's id").optional().or(
    z.literal("").transform(() => undefined),
  ),
  optician: safeText({ trim: true }).max(100).optional(),
  page: z.coerce.number({ error: "page must be a whole number" }).int().min(1).max(10_000)
    .optional().default(1),
  store: listStoreField.optional(),
});
export type OrderListQuery = z.infer<typeof orderListQuery>;

/**
 * E-mail the work order to the lab: the jobs staff ticked (`jobIds`; `jobId`
 * for one), else the jobs not sent to the lab yet.
 */
export const workOrderEmailSchema = z.object({
  jobIds: z.array(uuidField("jobIds must be jobs' ids"), { error: "jobIds must be a list" })
    .min(1, "Choose at least one job").max(50).optional(),
  jobId: uuidField("jobId must be a job's id").optional(),
  paper: z.enum(["letter", "a4"], { error: "paper must be letter or a4" }).optional()
    .default("letter"),
});
