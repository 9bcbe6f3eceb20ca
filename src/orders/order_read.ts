// Orders as the order page, the /orders list and the client dialog read them.
import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import { isUuid } from "../db/ids.ts";
import { containsPattern } from "../db/like.ts";
import type { JobStatus, Role } from "../../db/schema.ts";
import { parseCents } from "../money/amounts.ts";
import type { PrescriptionView } from "../prescriptions/views.ts";
import type { OrderListQuery } from "../schemas/order.ts";
import { isLate, nextSteps, orderMoney } from "./rules.ts";
import { findStoreHours, storeToday } from "./store_hours.ts";
import type {
  JobItem,
  JobMeasurements,
  JobView,
  OrderBundle,
  OrderListRow,
  PaymentView,
} from "./views.ts";

const iso = (d: Date | null) => d ? new Date(d).toISOString() : null;
const dateText = (col: string) => sql<string>`to_char(${sql.ref(col)}, 'YYYY-MM-DD')`;

export async function readOrder(
  db: DB,
  id: string,
  role: Role,
  now: Date,
): Promise<OrderBundle | undefined> {
  if (!isUuid(id)) return undefined;
  const order = await db.selectFrom("orders")
    .innerJoin("clients", "clients.id", "orders.clientId")
    .select([
      "orders.id",
      "orders.quoteId",
      "orders.quoteNumber",
      "orders.opticianName",
      "orders.notes",
      "orders.createdAt",
      "orders.storeId",
      "clients.id as clientId",
      "clients.firstName",
      "clients.lastName",
      "clients.email",
    ])
    .where("orders.id", "=", id).executeTakeFirst();
  if (!order) return undefined;
  const [jobs, events, payments, hours] = await Promise.all([
    db.selectFrom("jobs").innerJoin("labs", "labs.id", "jobs.labId")
      .select([
        "jobs.id",
        "jobs.jobNumber",
        "jobs.optionLabel",
        "jobs.optionName",
        "jobs.status",
        "jobs.items",
        sql<string>`jobs.shipping::text`.as("shipping"),
        sql<string>`jobs.adjustment_amount::text`.as("adjustmentAmount"),
        sql<string>`jobs.total::text`.as("total"),
        "jobs.measurements",
        "jobs.prescription",
        "jobs.notes",
        "jobs.pickupStoreId",
        "jobs.orderedAt",
        dateText("jobs.promisedDate").as("promisedDate"),
        "jobs.remakeCount",
        "jobs.readyAt",
        "jobs.pickedUpAt",
        "jobs.clientNotifiedAt",
        "jobs.version",
        "labs.id as labId",
        "labs.name as labName",
        "labs.email as labEmail",
        "labs.phone as labPhone",
        "labs.accountNumber as labAccountNumber",
      ])
      .where("jobs.orderId", "=", id).orderBy("jobs.position").execute(),
    db.selectFrom("jobEvents").innerJoin("jobs", "jobs.id", "jobEvents.jobId")
      .select([
        "jobEvents.jobId",
        "jobEvents.at",
        "jobEvents.fromStatus",
        "jobEvents.toStatus",
        "jobEvents.reason",
        "jobEvents.actor",
      ])
      .where("jobs.orderId", "=", id).orderBy("jobEvents.at").orderBy("jobEvents.id").execute(),
    db.selectFrom("payments")
      .select([
        "id",
        sql<string>`amount::text`.as("amount"),
        "method",
        dateText("paidOn").as("paidOn"),
        "note",
        "reason",
        "actor",
        "createdAt",
        "storeId",
      ])
      .where("orderId", "=", id).orderBy("createdAt").orderBy("id").execute(),
    findStoreHours(db, order.storeId),
  ]);
  const today = storeToday(hours, now);
  const jobViews: JobView[] = jobs.map((j) => ({
    id: j.id,
    jobNumber: j.jobNumber,
    optionLabel: j.optionLabel,
    optionName: j.optionName,
    pickupStoreId: j.pickupStoreId,
    lab: {
      id: j.labId,
      name: j.labName,
      email: j.labEmail,
      phone: j.labPhone,
      accountNumber: j.labAccountNumber,
    },
    status: j.status,
    items: j.items as JobItem[],
    shipping: j.shipping,
    adjustmentAmount: j.adjustmentAmount,
    total: j.total,
    measurements: j.measurements as JobMeasurements,
    prescription: (j.prescription ?? null) as PrescriptionView | null,
    notes: j.notes,
    orderedAt: iso(j.orderedAt)!,
    promisedDate: j.promisedDate,
    remakeCount: j.remakeCount,
    readyAt: iso(j.readyAt),
    pickedUpAt: iso(j.pickedUpAt),
    clientNotifiedAt: iso(j.clientNotifiedAt),
    isLate: isLate(j, today),
    version: j.version,
    events: events.filter((e) => e.jobId === j.id).map((e) => ({
      at: iso(e.at)!,
      fromStatus: e.fromStatus,
      toStatus: e.toStatus,
      reason: e.reason,
      actor: e.actor,
    })),
    nextSteps: nextSteps(j, role),
  }));
  const paymentViews: PaymentView[] = payments.map((p) => ({
    ...p,
    createdAt: iso(p.createdAt)!,
  }));
  return {
    order: {
      id: order.id,
      quoteId: order.quoteId,
      quoteNumber: order.quoteNumber,
      opticianName: order.opticianName,
      notes: order.notes,
      createdAt: iso(order.createdAt)!,
      storeId: order.storeId,
    },
    client: {
      id: order.clientId,
      firstName: order.firstName,
      lastName: order.lastName,
      email: order.email,
    },
    jobs: jobViews,
    payments: paymentViews,
    money: orderMoney(
      jobViews.map((j) => ({ status: j.status, totalCents: parseCents(j.total) ?? 0 })),
      paymentViews.map((p) => parseCents(p.amount) ?? 0),
    ),
    today,
  };
}

export const ORDER_PAGE_SIZE = 50;
const OPEN: JobStatus[] = ["ORDERED", "SENT_TO_LAB", "RECEIVED", "CHECKED", "REMAKE"];

/**
 * The /orders list, one row per job, newest first: by status, late (open and
 * past its promised day), lab, optician, ready and waiting (ready for more
 * than the store's N days), and a search on job number or client name.
 */
export async function listOrders(
  db: DB,
  query: OrderListQuery & { storeId?: string },
  now: Date,
): Promise<{ rows: OrderListRow[]; total: number; today: string }> {
  // "Late" by the day of the store listed, else the chain's.
  const hours = await findStoreHours(db, query.storeId ?? null);
  const today = storeToday(hours, now);
  const waitingDays = (await db.selectFrom("settings").select("readyWaitingDays")
    .where("id", "=", 1).executeTakeFirstOrThrow()).readyWaitingDays;
  let q = db.selectFrom("jobs")
    .innerJoin("orders", "orders.id", "jobs.orderId")
    .innerJoin("clients", "clients.id", "orders.clientId")
    .innerJoin("labs", "labs.id", "jobs.labId");
  if (query.status) q = q.where("jobs.status", "=", query.status);
  if (query.late) {
    q = q.where("jobs.status", "in", OPEN).where("jobs.promisedDate", "<", today);
  }
  if (query.waiting) {
    q = q.where("jobs.status", "=", "READY")
      .where("jobs.readyAt", "<=", new Date(now.getTime() - waitingDays * 86_400_000));
  }
  if (query.labId) q = q.where("jobs.labId", "=", query.labId);
  // A store's jobs: its orders', and the glasses sent to it for pickup.
  if (query.storeId) {
    const storeId = query.storeId;
    q = q.where((eb) =>
      eb.or([eb("orders.storeId", "=", storeId), eb("jobs.pickupStoreId", "=", storeId)])
    );
  }
  if (query.optician) q = q.where("orders.opticianName", "=", query.optician);
  if (query.q) {
    const words = query.q.split(/\s+/).filter(Boolean);
    for (const word of words) {
      const pattern = containsPattern(word.toLowerCase());
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(jobs.job_number)`, "like", pattern),
          eb(sql`lower(clients.first_name || ' ' || clients.last_name)`, "like", pattern),
        ])
      );
    }
  }
  const [rows, count] = await Promise.all([
    q.select([
      "jobs.id as jobId",
      "jobs.jobNumber",
      "jobs.orderId",
      sql<string>`clients.first_name || ' ' || clients.last_name`.as("clientName"),
      "labs.name as labName",
      "orders.opticianName",
      "jobs.status",
      dateText("jobs.promisedDate").as("promisedDate"),
      "jobs.orderedAt",
      "jobs.readyAt",
      sql<string>`jobs.total::text`.as("total"),
      "orders.storeId",
      "jobs.pickupStoreId",
    ]).orderBy("jobs.orderedAt", "desc").orderBy("jobs.jobNumber", "desc")
      .limit(ORDER_PAGE_SIZE).offset((query.page - 1) * ORDER_PAGE_SIZE).execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r) => ({
      ...r,
      orderedAt: iso(r.orderedAt)!,
      readyAt: iso(r.readyAt),
      isLate: isLate(r, today),
    })),
    total: Number(count.n),
    today,
  };
}

/** The order made from a quote, if any (a quote has at most one). */
export async function findOrderIdOfQuote(db: DB, quoteId: string): Promise<string | null> {
  if (!isUuid(quoteId)) return null;
  const row = await db.selectFrom("orders").select("id").where("quoteId", "=", quoteId)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** A client's orders for the client dialog: each order with its jobs' numbers and states. */
export async function listClientOrders(db: DB, clientId: string) {
  if (!isUuid(clientId)) return [];
  const rows = await db.selectFrom("jobs").innerJoin("orders", "orders.id", "jobs.orderId")
    .innerJoin("stores", "stores.id", "orders.storeId")
    .select([
      "orders.id as orderId",
      "orders.quoteNumber",
      "orders.createdAt",
      "jobs.jobNumber",
      "jobs.status",
      "stores.code as storeCode",
    ])
    .where("orders.clientId", "=", clientId)
    .orderBy("orders.createdAt", "desc").orderBy("jobs.position").limit(200).execute();
  return rows.map((r) => ({ ...r, createdAt: iso(r.createdAt)! }));
}
