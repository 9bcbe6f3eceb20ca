// The order rules, pure so the order page and the API decide alike: which
// steps a job may take, promised dates in business days, late jobs, and the
// money (integer cents; a balance never below zero).
import type { JobStatus, PaymentMethod, Role } from "../../db/schema.ts";
import { formatMoney } from "../money/amounts.ts";

export const JOB_STATUSES: JobStatus[] = [
  "ORDERED",
  "SENT_TO_LAB",
  "RECEIVED",
  "CHECKED",
  "READY",
  "PICKED_UP",
  "REMAKE",
  "CANCELLED",
];

export const JOB_STATUS_LABELS: Record<JobStatus, string> = {
  ORDERED: "Ordered",
  SENT_TO_LAB: "Sent to lab",
  RECEIVED: "Received",
  CHECKED: "Checked",
  READY: "Ready for pickup",
  PICKED_UP: "Picked up",
  REMAKE: "Remake",
  CANCELLED: "Cancelled",
};

export const PAYMENT_METHODS: PaymentMethod[] = ["CASH", "CARD", "CHEQUE", "OTHER"];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  CASH: "Cash",
  CARD: "Card",
  CHEQUE: "Cheque",
  OTHER: "Other",
};

/**
 * The jobs the lab must make: every job but a cancelled or picked-up one. A
 * work order shows these by default, and only these may be e-mailed to a lab.
 */
export const isForLab = (status: JobStatus) => status !== "CANCELLED" && status !== "PICKED_UP";

/**
 * Not sent to the lab yet: a new job, or a remake waiting to go back. "E-mail
 * to Lab" ticks these by default; a job already there (sent, received, checked,
 * ready) is sent again only when staff tick it.
 */
export const AWAITING_LAB: JobStatus[] = ["ORDERED", "REMAKE"];

/** The forward path; REMAKE goes back to the lab. */
const FORWARD: Partial<Record<JobStatus, JobStatus>> = {
  ORDERED: "SENT_TO_LAB",
  SENT_TO_LAB: "RECEIVED",
  RECEIVED: "CHECKED",
  CHECKED: "READY",
  READY: "PICKED_UP",
  REMAKE: "SENT_TO_LAB",
};

/**
 * A wrong click undone: one step back. Back from READY is what cancels a
 * ready-for-pickup e-mail still held in its undo window.
 */
function backStep(status: JobStatus, remakeCount: number): JobStatus | undefined {
  switch (status) {
    case "SENT_TO_LAB":
      return remakeCount > 0 ? "REMAKE" : "ORDERED";
    case "RECEIVED":
      return "SENT_TO_LAB";
    case "CHECKED":
      return "RECEIVED";
    case "READY":
      return "CHECKED";
    default:
      return undefined;
  }
}

/** A failed check at the store, or a client's complaint after: the lab makes it again. */
const REMAKE_FROM: JobStatus[] = ["RECEIVED", "CHECKED", "READY"];
/** Cancelling is possible any time before pickup. */
const FINAL: JobStatus[] = ["PICKED_UP", "CANCELLED"];

export type StepKind = "forward" | "back" | "remake" | "cancel" | "reopen";

export interface JobStep {
  to: JobStatus;
  kind: StepKind;
  /** A reason must be given (remake, cancel, reopen). */
  needsReason: boolean;
  label: string;
}

export interface JobState {
  status: JobStatus;
  remakeCount: number;
}

/** Every step a job may take now for this role, in the order the page offers them. */
export function nextSteps(job: JobState, role: Role): JobStep[] {
  const steps: JobStep[] = [];
  const forward = FORWARD[job.status];
  if (forward) {
    steps.push({
      to: forward,
      kind: "forward",
      needsReason: false,
      label: job.status === "REMAKE" ? "Send remake to lab" : stepLabel(forward),
    });
  }
  if (REMAKE_FROM.includes(job.status)) {
    steps.push({ to: "REMAKE", kind: "remake", needsReason: true, label: "Remake" });
  }
  const back = backStep(job.status, job.remakeCount);
  if (back) {
    steps.push({
      to: back,
      kind: "back",
      needsReason: false,
      label: `Back to ${JOB_STATUS_LABELS[back].toLowerCase()}`,
    });
  }
  if (!FINAL.includes(job.status)) {
    steps.push({ to: "CANCELLED", kind: "cancel", needsReason: true, label: "Cancel job" });
  }
  if (job.status === "PICKED_UP" && role === "OWNER") {
    steps.push({ to: "READY", kind: "reopen", needsReason: true, label: "Reopen" });
  }
  return steps;
}

function stepLabel(to: JobStatus): string {
  switch (to) {
    case "SENT_TO_LAB":
      return "Mark sent to lab";
    case "RECEIVED":
      return "Mark received";
    case "CHECKED":
      return "Check passed";
    case "READY":
      return "Mark ready for pickup";
    case "PICKED_UP":
      return "Mark picked up";
    default:
      return JOB_STATUS_LABELS[to];
  }
}

/**
 * The step from the job's status to `to` for this role, or why not: the
 * message a 409 carries. A picked-up job is final except for an owner.
 */
export function findStep(
  job: JobState,
  to: JobStatus,
  role: Role,
): { ok: true; step: JobStep } | { ok: false; message: string } {
  const step = nextSteps(job, role).find((s) => s.to === to);
  if (step) return { ok: true, step };
  const from = JOB_STATUS_LABELS[job.status];
  if (job.status === "PICKED_UP") {
    return {
      ok: false,
      message: role === "OWNER" && to !== "READY"
        ? "A picked-up job can only be reopened (back to ready for pickup)."
        : "This job was picked up and is final; only an owner can reopen it, with a reason.",
    };
  }
  if (job.status === "CANCELLED") return { ok: false, message: "This job is cancelled." };
  const allowed = nextSteps(job, role).map((s) => JOB_STATUS_LABELS[s.to].toLowerCase());
  return {
    ok: false,
    message: `A job that is ${from.toLowerCase()} cannot move to ` +
      `${JOB_STATUS_LABELS[to].toLowerCase()}; it can go to: ${allowed.join(", ")}.`,
  };
}

// ---- Dates (the store's days, in its time zone) ----

/** "1,2,3,4,5,6" → [1, 2, 3, 4, 5, 6] (0 = Sunday). */
export function parseOpeningDays(text: string): number[] {
  const days = text.split(",").map((d) => Number(d.trim()))
    .filter((d) => Number.isInteger(d) && d >= 0 && d <= 6);
  return [...new Set(days)].sort();
}

/**
 * Closed dates as settings keep them ("2026-12-25,2027-01-01"), sorted. The
 * settings schema let only real days in; a date-shaped text is all this asks.
 */
export function parseClosedDates(text: string): string[] {
  const dates = text.split(",").map((d) => d.trim()).filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d));
  return [...new Set(dates)].sort();
}

/** The calendar day of `now` in a time zone, as YYYY-MM-DD. */
export function localDate(now: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** YYYY-MM-DD plus whole days (calendar arithmetic at noon UTC, no DST edges). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export const weekday = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();

/**
 * The order day plus `days` business days: the following days the store is
 * open, counted one by one (so an order on a Friday with a 2-day lab, open
 * Monday to Friday, is promised for Tuesday), a closed date (a holiday) not
 * counted either, nor promised. With no opening days at all, every day counts.
 */
export function addBusinessDays(
  start: string,
  days: number,
  openingDays: number[],
  closedDates: readonly string[] = [],
): string {
  const open = openingDays.length ? new Set(openingDays) : new Set([0, 1, 2, 3, 4, 5, 6]);
  const closed = new Set(closedDates);
  let date = start;
  let left = days;
  // Closed dates are finite (at most 100) and some weekday opens: this ends.
  while (left > 0) {
    date = addDays(date, 1);
    if (open.has(weekday(date)) && !closed.has(date)) left--;
  }
  return date;
}

const OPEN_STATUSES: JobStatus[] = ["ORDERED", "SENT_TO_LAB", "RECEIVED", "CHECKED", "REMAKE"];

/** Late: not ready (nor picked up, nor cancelled) once its promised day has passed. */
export function isLate(job: { status: JobStatus; promisedDate: string }, today: string): boolean {
  return OPEN_STATUSES.includes(job.status) && job.promisedDate < today;
}

// ---- Money ----

export interface OrderMoney {
  /** The jobs' totals, cancelled jobs left out. */
  totalCents: number;
  /** Payments less refunds. */
  paidCents: number;
  /** What the client still owes: never below zero. */
  balanceCents: number;
  /** Paid over the total (a job cancelled after a deposit): to refund. */
  creditCents: number;
}

export function orderMoney(
  jobs: { status: JobStatus; totalCents: number }[],
  paymentsCents: number[],
): OrderMoney {
  const totalCents = jobs.filter((j) => j.status !== "CANCELLED")
    .reduce((sum, j) => sum + j.totalCents, 0);
  const paidCents = paymentsCents.reduce((sum, p) => sum + p, 0);
  return {
    totalCents,
    paidCents,
    balanceCents: Math.max(0, totalCents - paidCents),
    creditCents: Math.max(0, paidCents - totalCents),
  };
}

/**
 * Why a payment (positive) or refund (negative) cannot be taken, naming the
 * problem, or null: a payment never takes more than the balance due, a
 * refund never more than was paid, and only an admin or owner refunds, with
 * a reason.
 */
export function paymentProblem(
  amountCents: number,
  money: OrderMoney,
  role: Role,
  reason: string,
): { status: 400 | 403; field?: string; message: string } | null {
  if (amountCents === 0) return { status: 400, field: "amount", message: "Amount cannot be 0" };
  if (amountCents > 0) {
    if (amountCents > money.balanceCents) {
      return {
        status: 400,
        field: "amount",
        message: money.balanceCents === 0
          ? "Nothing is due on this order"
          : `Amount is more than the balance due (${formatMoney(money.balanceCents)})`,
      };
    }
    return null;
  }
  if (role === "AUTHORIZED_USER") {
    return { status: 403, message: "Only an admin or owner can refund." };
  }
  if (!reason.trim()) return { status: 400, field: "reason", message: "A refund needs a reason" };
  if (-amountCents > money.paidCents) {
    return {
      status: 400,
      field: "amount",
      message: `A refund cannot be more than was paid (${formatMoney(money.paidCents)})`,
    };
  }
  return null;
}

/** How far before its order a payment may be dated: a deposit taken when the quote was agreed. */
export const PAYMENT_DAYS_BEFORE_ORDER = 90;
/** How far ahead a promised date may be set. */
export const PROMISED_DAYS_AHEAD = 365;

/**
 * Why a payment's date cannot be taken, or null: not after the store's today
 * (a payment is recorded when it is taken) and not more than
 * PAYMENT_DAYS_BEFORE_ORDER days before the order's day, so every payment
 * falls in the reports' ranges beside its order.
 */
export function paymentDateProblem(paidOn: string, orderDay: string, today: string): string | null {
  if (paidOn > today) return `A payment cannot be dated after today (${today})`;
  const earliest = addDays(orderDay, -PAYMENT_DAYS_BEFORE_ORDER);
  if (paidOn < earliest) {
    return `A payment's date must be on or after ${earliest} (${PAYMENT_DAYS_BEFORE_ORDER} days before the order)`;
  }
  return null;
}

/** Why a job's promised date cannot be set, or null: from the order's day to a year ahead. */
export function promisedDateProblem(date: string, orderDay: string, today: string): string | null {
  if (date < orderDay) return `The promised date cannot be before the order (${orderDay})`;
  const latest = addDays(today, PROMISED_DAYS_AHEAD);
  if (date > latest) return `The promised date must be on or before ${latest} (a year from today)`;
  return null;
}

/**
 * Pickup with money still owed needs an admin's or owner's override with a
 * reason; the message of the refusal, or null when it may go ahead.
 */
export function pickupProblem(
  balanceCents: number,
  role: Role,
  overrideReason: string | undefined,
): { status: 403 | 409; message: string } | null {
  if (balanceCents <= 0) return null;
  if (!overrideReason?.trim()) {
    return {
      status: 409,
      message: `The order has a balance due of ${formatMoney(balanceCents)}. Take the payment ` +
        "first, or an admin or owner may override with a reason.",
    };
  }
  if (role === "AUTHORIZED_USER") {
    return { status: 403, message: "Only an admin or owner can hand over with a balance due." };
  }
  return null;
}
