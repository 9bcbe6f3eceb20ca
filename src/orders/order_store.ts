// The order writes: an order from a finalized quote, a job's step, its
// promised date, a payment or refund. Each is one transaction with its
// job event and history entry, so nothing is ever half-written.
import { NOT_A_LAB_OF_THE_STORE, storeUsesLab } from "./labs.ts";
import type { Outcome } from "../http/outcome.ts";
import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import { isUuid } from "../db/ids.ts";
import { inTransaction } from "../db/transaction.ts";
import type { JobStatus, Role } from "../../db/schema.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import { findQuoteBundle } from "../quotes/quote_bundle.ts";
import { clientOptionTitle, optionTitle, totalCents } from "../quotes/rules.ts";
import { centsToDecimal, parseCents } from "../money/amounts.ts";
import { findLatestPrescription, findPrescription } from "../prescriptions/prescriptions.ts";
import type { CreateOrderInput, JobStepInput, PaymentInput } from "../schemas/order.ts";
import {
  addBusinessDays,
  findStep,
  isForLab,
  JOB_STATUS_LABELS,
  orderMoney,
  paymentDateProblem,
  paymentProblem,
  pickupProblem,
  promisedDateProblem,
} from "./rules.ts";
import { findStoreHours, storeToday } from "./store_hours.ts";
import { cancelReadyNotice, queueReadyNotice } from "./ready_notice.ts";
import type { JobItem, JobMeasurements } from "./views.ts";

export type OrderWrite<T> = Outcome<T>;

const fail = (
  status: 400 | 403 | 404 | 409,
  message: string,
  field?: string,
): OrderWrite<never> => ({ ok: false, status, message, field });

export const JOB_STALE =
  "This job was changed by someone else since you opened it. Reload the page to see where it is now.";

const json = (value: unknown) => sql`${JSON.stringify(value)}::text::jsonb`;

/**
 * A finalized quote becomes an order: one job per option the client took,
 * each with a frozen copy of its items, money, measurements and the picked
 * prescription, promised for the order day plus the lab's business days.
 */
export async function createOrder(
  db: DB,
  quoteId: string,
  input: CreateOrderInput,
  actor: AuditActor,
  now: Date,
): Promise<OrderWrite<{ orderId: string; jobNumbers: string[] }>> {
  if (!isUuid(quoteId)) return fail(404, "Quote not found");
  return await inTransaction(db, async (trx) => {
    const locked = await trx.selectFrom("quotes").select(["id", "status", "storeId"])
      .where("id", "=", quoteId).forUpdate().executeTakeFirst();
    if (!locked) return fail(404, "Quote not found");
    if (locked.status !== "FINALIZED") {
      return fail(409, "Only a finalized quote can become an order. Finalize it first.");
    }
    const existing = await trx.selectFrom("orders").select("id").where("quoteId", "=", quoteId)
      .executeTakeFirst();
    if (existing) return fail(409, "This quote already has an order.");
    const lab = await trx.selectFrom("labs").select(["id", "name", "turnaroundDays", "active"])
      .where("id", "=", input.labId).executeTakeFirst();
    if (!lab || !lab.active) return fail(400, "Choose an active lab", "labId");
    if (!(await storeUsesLab(trx, locked.storeId, lab.id))) {
      return fail(400, NOT_A_LAB_OF_THE_STORE, "labId");
    }
    const bundle = (await findQuoteBundle(trx, quoteId))!;

    let options = bundle.options.filter((o) => o.isChosen);
    if (input.optionIds) {
      const ids = new Set(input.optionIds);
      options = bundle.options.filter((o) => ids.has(o.id));
      if (options.length !== ids.size) {
        return fail(400, "Choose options of this quote", "optionIds");
      }
    } else if (options.length === 0 && bundle.options.length === 1) {
      options = bundle.options;
    }
    if (options.length === 0) {
      return fail(400, "Choose which options the client takes", "optionIds");
    }

    const prescription = input.prescriptionId === undefined
      ? await findLatestPrescription(trx, bundle.quote.clientId) ?? null
      : input.prescriptionId === null
      ? null
      : await findPrescription(trx, bundle.quote.clientId, input.prescriptionId);
    if (prescription === undefined) {
      return fail(400, "Choose one of this client's prescriptions", "prescriptionId");
    }

    // Promised in the business days of the store the order is made in.
    const hours = await findStoreHours(trx, locked.storeId);
    const today = storeToday(hours, now);
    const promisedDate = addBusinessDays(
      today,
      lab.turnaroundDays,
      hours.openingDays,
      hours.closedDates,
    );
    // The order is the quote's sale, in the quote's store; its glasses go
    // there unless a job is later sent to another store.
    const order = await trx.insertInto("orders").values({
      quoteId,
      storeId: locked.storeId,
      quoteNumber: bundle.quote.quoteNumber,
      clientId: bundle.quote.clientId,
      opticianName: bundle.quote.opticianName,
      notes: input.notes,
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now,
    }).returning("id").executeTakeFirstOrThrow();

    const jobNumbers: string[] = [];
    for (const [position, option] of options.entries()) {
      const items: JobItem[] = option.items.map((i) => ({
        kind: i.kind,
        name: i.name,
        sku: i.sku,
        unitPrice: i.unitPrice,
        qty: i.qty,
        notes: i.notes,
      }));
      const measurements: JobMeasurements = {
        pdDistance: bundle.clientMeasurements.pdBinocular,
        pdNear: bundle.clientMeasurements.pdNear,
        segOc: option.frameMeasurements.segOc,
        extras: bundle.clientMeasurements.extras,
      };
      const index = bundle.options.findIndex((o) => o.id === option.id);
      const job = await trx.insertInto("jobs").values({
        orderId: order.id,
        pickupStoreId: locked.storeId,
        position,
        optionLabel: optionTitle(option, index),
        // The name the client chose it by, for the receipt (the label above leads with the SKU).
        optionName: clientOptionTitle(option, index),
        labId: lab.id,
        items: json(items),
        shipping: option.shipping,
        adjustmentAmount: option.adjustmentAmount,
        total: centsToDecimal(Math.max(0, totalCents(option))),
        measurements: json(measurements),
        prescription: prescription ? json(prescription) : null,
        notes: option.notes,
        orderedAt: now,
        promisedDate,
        updatedAt: now,
      }).returning(["id", "jobNumber"]).executeTakeFirstOrThrow();
      jobNumbers.push(job.jobNumber);
      await trx.insertInto("jobEvents").values({
        jobId: job.id,
        at: now,
        fromStatus: null,
        toStatus: "ORDERED",
        userId: actor.id,
        actor: actor.label,
      }).execute();
    }
    await recordAudit(trx, actor, "order.create", "order", order.id, {
      quoteNumber: bundle.quote.quoteNumber,
      jobs: jobNumbers.join(", "),
      lab: lab.name,
      promisedDate,
      prescription: prescription
        ? `${prescription.dateWritten} ${prescription.prescriber}`
        : "none",
    }, locked.storeId);
    await recordAudit(trx, actor, "quote.order", "quote", quoteId, {
      orderId: order.id,
      jobs: jobNumbers.join(", "),
    }, locked.storeId);
    return { ok: true, value: { orderId: order.id, jobNumbers } };
  });
}

/** The order's money as it stands inside a transaction (the order row locked by the caller). */
async function moneyOf(trx: DB, orderId: string) {
  const [jobs, payments] = await Promise.all([
    trx.selectFrom("jobs").select(["status", sql<string>`total::text`.as("total")])
      .where("orderId", "=", orderId).execute(),
    trx.selectFrom("payments").select(sql<string>`amount::text`.as("amount"))
      .where("orderId", "=", orderId).execute(),
  ]);
  return orderMoney(
    jobs.map((j) => ({ status: j.status, totalCents: parseCents(j.total) ?? 0 })),
    payments.map((p) => parseCents(p.amount) ?? 0),
  );
}

/**
 * The job `who` changes, locked, as they loaded it (`version`): else why not
 * (404 unknown, 403 another store's job, 409 changed since).
 */
async function lockJobToChange(trx: DB, jobId: string, who: Stepper, version: number) {
  const job = await lockJob(trx, jobId);
  if (!job) return fail(404, "Job not found");
  if (!mayChangeJob(who, job)) return fail(403, OTHER_STORE_JOB);
  if (job.version !== version) return fail(409, JOB_STALE);
  return { ok: true, value: job } as const;
}

async function lockJob(trx: DB, jobId: string) {
  const job = await trx.selectFrom("jobs")
    .innerJoin("labs", "labs.id", "jobs.labId")
    .innerJoin("orders", "orders.id", "jobs.orderId")
    .select([
      "jobs.id",
      "jobs.orderId",
      "jobs.jobNumber",
      "jobs.status",
      "jobs.version",
      "jobs.remakeCount",
      sql<string>`to_char(jobs.promised_date, 'YYYY-MM-DD')`.as("promisedDate"),
      "labs.turnaroundDays",
      "jobs.pickupStoreId",
      "orders.storeId",
    ])
    .where("jobs.id", "=", jobId).executeTakeFirst();
  if (!job) return undefined;
  // The order first, then the job: a payment locks the order alone, so two
  // writers of one order always take the locks in the same order.
  await trx.selectFrom("orders").select("id").where("id", "=", job.orderId).forUpdate().execute();
  await trx.selectFrom("jobs").select("id").where("id", "=", jobId).forUpdate().execute();
  const fresh = await trx.selectFrom("jobs").select(["status", "version", "remakeCount"])
    .where("id", "=", jobId).executeTakeFirstOrThrow();
  return { ...job, ...fresh };
}

export interface Stepper {
  actor: AuditActor;
  role: Role;
  /** The stores they work in ("all": an owner). */
  stores: readonly string[] | "all";
}

export const OTHER_STORE_JOB =
  "This job belongs to another store of the chain: only the staff of the store that made its " +
  "order or of the store its glasses go to can change it.";

/** A job may be moved on by the staff of its order's store and of its pickup store. */
function mayChangeJob(
  who: Pick<Stepper, "stores">,
  job: { storeId: string; pickupStoreId: string },
) {
  return who.stores === "all" || who.stores.includes(job.storeId) ||
    who.stores.includes(job.pickupStoreId);
}

/**
 * One step of a job, if the rules offer it to this role: remake, cancel and
 * reopen say why; picked up with a balance due needs an admin's or owner's
 * override. READY queues the client's e-mail (held for the undo window); a
 * step away from READY takes back one not yet sent.
 */
export async function stepJob(
  db: DB,
  jobId: string,
  input: JobStepInput,
  who: Stepper,
  now: Date,
): Promise<OrderWrite<{ orderId: string; status: JobStatus }>> {
  if (!isUuid(jobId)) return fail(404, "Job not found");
  return await inTransaction(db, async (trx) => {
    const locked = await lockJobToChange(trx, jobId, who, input.version);
    if (!locked.ok) return locked;
    const job = locked.value;
    const found = findStep(job, input.to, who.role);
    if (!found.ok) return fail(409, found.message);
    const { step } = found;
    if (step.needsReason && !input.reason.trim()) {
      return fail(400, `Please give a reason (${step.label.toLowerCase()})`, "reason");
    }
    let override: string | undefined;
    if (input.to === "PICKED_UP") {
      const money = await moneyOf(trx, job.orderId);
      const problem = pickupProblem(money.balanceCents, who.role, input.overrideReason);
      if (problem) return fail(problem.status, problem.message);
      if (money.balanceCents > 0) override = input.overrideReason!.trim();
    }
    const set: Record<string, unknown> = {
      status: input.to,
      version: job.version + 1,
      updatedAt: now,
    };
    if (step.kind === "remake") set.remakeCount = job.remakeCount + 1;
    if (input.to === "READY" && step.kind === "forward") set.readyAt = now;
    if (job.status === "READY" && step.kind !== "forward") {
      set.readyAt = null;
      set.clientNotifiedAt = null;
    }
    if (input.to === "PICKED_UP") set.pickedUpAt = now;
    if (step.kind === "reopen") set.pickedUpAt = null;
    let promisedDate: string | undefined;
    if (job.status === "REMAKE" && input.to === "SENT_TO_LAB") {
      // A remake is promised afresh from the day it goes back to the lab.
      const hours = await findStoreHours(trx, job.pickupStoreId);
      promisedDate = addBusinessDays(
        storeToday(hours, now),
        job.turnaroundDays,
        hours.openingDays,
        hours.closedDates,
      );
      set.promisedDate = promisedDate;
    }
    await trx.updateTable("jobs").set(set).where("id", "=", jobId).execute();
    const reason = step.needsReason ? input.reason.trim() : null;
    await trx.insertInto("jobEvents").values({
      jobId,
      at: now,
      fromStatus: job.status,
      toStatus: input.to,
      reason: override ? `Balance due override: ${override}` : reason,
      userId: who.actor.id,
      actor: who.actor.label,
    }).execute();
    if (input.to === "READY" && step.kind === "forward") {
      await queueReadyNotice(trx, jobId, who.actor, now);
    } else if (job.status === "READY") {
      await cancelReadyNotice(trx, jobId);
    }
    await recordAudit(trx, who.actor, "order.job_step", "order", job.orderId, {
      jobNumber: job.jobNumber,
      status: { from: job.status, to: input.to },
      ...(reason ? { reason } : {}),
      ...(override ? { overrideReason: override } : {}),
      ...(promisedDate
        ? { changes: [{ field: "promisedDate", from: job.promisedDate, to: promisedDate }] }
        : {}),
    }, job.pickupStoreId);
    return { ok: true, value: { orderId: job.orderId, status: input.to } };
  });
}

export const PICKUP_STORE_FINAL =
  "These glasses are ready, picked up or cancelled: the store they go to can no longer change.";
export const PICKUP_STORE_UNKNOWN = "Choose an active store of the chain";

/**
 * Sends a job's glasses to another store of the chain, where the client picks
 * them up: before they are ready (the ready e-mail then names that store).
 * The order's history says from which store to which.
 */
export async function setPickupStore(
  db: DB,
  jobId: string,
  input: { storeId: string; version: number },
  who: Stepper,
  now: Date,
): Promise<OrderWrite<{ orderId: string }>> {
  if (!isUuid(jobId)) return fail(404, "Job not found");
  return await inTransaction(db, async (trx) => {
    const locked = await lockJobToChange(trx, jobId, who, input.version);
    if (!locked.ok) return locked;
    const job = locked.value;
    if (job.status === "READY" || !isForLab(job.status)) return fail(409, PICKUP_STORE_FINAL);
    const [from, to] = await Promise.all([
      trx.selectFrom("stores").select("code").where("id", "=", job.pickupStoreId)
        .executeTakeFirstOrThrow(),
      trx.selectFrom("stores").select("code").where("id", "=", input.storeId)
        .where("active", "=", true).executeTakeFirst(),
    ]);
    if (!to) return fail(400, PICKUP_STORE_UNKNOWN, "storeId");
    if (input.storeId === job.pickupStoreId) return { ok: true, value: { orderId: job.orderId } };
    await trx.updateTable("jobs")
      .set({ pickupStoreId: input.storeId, version: job.version + 1, updatedAt: now })
      .where("id", "=", jobId).execute();
    await recordAudit(trx, who.actor, "order.pickup_store", "order", job.orderId, {
      jobNumber: job.jobNumber,
      changes: [{ field: "pickupStore", from: from.code, to: to.code }],
    }, input.storeId);
    return { ok: true, value: { orderId: job.orderId } };
  });
}

/** A promised date changed by hand, with the reason (the lab said so). */
export async function setPromisedDate(
  db: DB,
  jobId: string,
  input: { promisedDate: string; reason: string; version: number },
  who: Stepper,
  now: Date,
): Promise<OrderWrite<{ orderId: string }>> {
  if (!isUuid(jobId)) return fail(404, "Job not found");
  const actor = who.actor;
  return await inTransaction(db, async (trx) => {
    const locked = await lockJobToChange(trx, jobId, who, input.version);
    if (!locked.ok) return locked;
    const job = locked.value;
    if (job.status === "PICKED_UP" || job.status === "CANCELLED") {
      return fail(409, `A job that is ${JOB_STATUS_LABELS[job.status].toLowerCase()} is final.`);
    }
    const hours = await findStoreHours(trx, job.pickupStoreId);
    const order = await trx.selectFrom("orders").select("createdAt")
      .where("id", "=", job.orderId).executeTakeFirstOrThrow();
    const dateProblem = promisedDateProblem(
      input.promisedDate,
      storeToday(hours, order.createdAt),
      storeToday(hours, now),
    );
    if (dateProblem) return fail(400, dateProblem, "promisedDate");
    await trx.updateTable("jobs")
      .set({ promisedDate: input.promisedDate, version: job.version + 1, updatedAt: now })
      .where("id", "=", jobId).execute();
    await recordAudit(trx, actor, "order.promised_date", "order", job.orderId, {
      jobNumber: job.jobNumber,
      reason: input.reason,
      changes: [{ field: "promisedDate", from: job.promisedDate, to: input.promisedDate }],
    }, job.pickupStoreId);
    return { ok: true, value: { orderId: job.orderId } };
  });
}

/**
 * A payment (positive) or an admin's or owner's refund (negative, with a
 * reason), taken in `storeId`: an order may be paid partly in one store of
 * the chain and partly in another.
 */
export async function addPayment(
  db: DB,
  orderId: string,
  input: PaymentInput,
  who: Pick<Stepper, "actor" | "role">,
  storeId: string,
  now: Date,
): Promise<OrderWrite<{ paymentId: string }>> {
  if (!isUuid(orderId)) return fail(404, "Order not found");
  return await inTransaction(db, async (trx) => {
    const order = await trx.selectFrom("orders").select(["id", "createdAt"])
      .where("id", "=", orderId).forUpdate().executeTakeFirst();
    if (!order) return fail(404, "Order not found");
    const money = await moneyOf(trx, orderId);
    const problem = paymentProblem(input.amount, money, who.role, input.reason);
    if (problem) return fail(problem.status, problem.message, problem.field);
    // The day as the store taking the payment sees it.
    const hours = await findStoreHours(trx, storeId);
    const today = storeToday(hours, now);
    const paidOn = input.paidOn ?? today;
    const dateProblem = paymentDateProblem(paidOn, storeToday(hours, order.createdAt), today);
    if (dateProblem) return fail(400, dateProblem, "paidOn");
    const refund = input.amount < 0;
    const row = await trx.insertInto("payments").values({
      orderId,
      storeId,
      amount: centsToDecimal(input.amount),
      method: input.method,
      paidOn,
      note: input.note,
      reason: refund ? input.reason.trim() : null,
      userId: who.actor.id,
      actor: who.actor.label,
      createdAt: now,
    }).returning("id").executeTakeFirstOrThrow();
    await recordAudit(trx, who.actor, refund ? "order.refund" : "order.payment", "order", orderId, {
      amount: centsToDecimal(input.amount),
      method: input.method,
      paidOn,
      ...(refund ? { reason: input.reason.trim() } : {}),
      balance: {
        from: centsToDecimal(money.balanceCents),
        to: centsToDecimal(Math.max(0, money.totalCents - money.paidCents - input.amount)),
      },
    }, storeId);
    return { ok: true, value: { paymentId: row.id } };
  });
}
