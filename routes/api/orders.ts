import { isUuid } from "../../src/db/ids.ts";
import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { currentStoreId, listedStoreId } from "../../src/stores/current_store.ts";
import { findUserStores } from "../../src/stores/stores.ts";
import { auditActor } from "../../src/http/actor.ts";
import { HttpError, notFound, readJson, readQuery } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { unwrap } from "../../src/http/outcome.ts";
import { isUniqueViolation } from "../../src/db/errors.ts";
import {
  createOrderSchema,
  jobStepSchema,
  labSchema,
  orderListQuery,
  paymentSchema,
  pickupStoreSchema,
  promisedDateSchema,
  workOrderEmailSchema,
} from "../../src/schemas/order.ts";
import { insertLab, LAB_NAME_TAKEN, listLabs, updateLab } from "../../src/orders/labs.ts";
import {
  addPayment,
  createOrder,
  setPickupStore,
  setPromisedDate,
  stepJob,
  type Stepper,
} from "../../src/orders/order_store.ts";
import { listClientOrders, listOrders, readOrder } from "../../src/orders/order_read.ts";
import type { OrderBundle } from "../../src/orders/views.ts";
import { type Paper, workOrderChoiceOf, workOrderJobs } from "../../src/orders/work_order.ts";
import { AWAITING_LAB, isForLab, JOB_STATUS_LABELS } from "../../src/orders/rules.ts";
import { renderWorkOrder, workOrderFilename } from "../../src/orders/work_order_pdf_request.ts";
import { findBranding } from "../../src/settings/settings.ts";
import { findMailSettings } from "../../src/mail/mail_settings.ts";
import { deliverEmail, enqueueEmail, sendOutcome } from "../../src/mail/outbox.ts";
import { recordAudit } from "../../src/audit/audit_log.ts";
import { composeWorkOrderEmail } from "../../src/mail/messages/work_order.tsx";

// Orders, jobs, payments (any signed-in staff; refunds and balance overrides
// ADMIN/OWNER, reopening a pickup OWNER, decided by the rules) and the labs
// catalog (ADMIN/OWNER). A kiosk never gets here (src/kiosk/gate.ts).
export const ordersApi = new Hono<AppEnv>();
const staff = requireUser();
const admin = requireUser("ADMIN", "OWNER");

/** Who writes, as the audit names them, and their role. */
const payer = (c: Context<AppEnv>) => ({ actor: auditActor(c), role: c.var.user!.role });

/** Who changes a job: also the stores they work in (an owner: all), which a job's change checks. */
async function who(c: Context<AppEnv>): Promise<Stepper> {
  const user = c.var.user!;
  return {
    ...payer(c),
    stores: user.role === "OWNER" ? "all" : (await findUserStores(c.var.db, user)).map((s) => s.id),
  };
}

async function orderOrThrow(c: Context<AppEnv>, id: string) {
  const order = await readOrder(c.var.db, id, c.var.user!.role, c.var.clock());
  if (!order) throw notFound("Order not found");
  return order;
}

// The active labs; with `store`, those that store uses (an order is made at its quote's store).
ordersApi.get("/labs", staff, async (c) => {
  const store = c.req.query("store");
  if (store !== undefined && !isUuid(store)) {
    throw new HttpError(400, "store must be a store id", { store: "store must be a store id" });
  }
  return c.json(await listLabs(c.var.db, true, store));
});
ordersApi.get("/admin/labs", admin, async (c) => c.json(await listLabs(c.var.db)));

async function labWrite<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw new HttpError(409, LAB_NAME_TAKEN, { name: LAB_NAME_TAKEN });
    throw err;
  }
}

ordersApi.post("/admin/labs", admin, async (c) => {
  const input = await readJson(c, labSchema);
  return c.json(await labWrite(() => insertLab(c.var.db, input, auditActor(c))), 201);
});

ordersApi.put("/admin/labs/:id", admin, async (c) => {
  const input = await readJson(c, labSchema);
  const lab = await labWrite(() => updateLab(c.var.db, c.req.param("id"), input, auditActor(c)));
  if (!lab) throw notFound("Lab not found");
  return c.json(lab);
});

ordersApi.post("/quotes/:id/order", staff, async (c) => {
  const input = await readJson(c, createOrderSchema);
  const made = unwrap(
    await createOrder(c.var.db, c.req.param("id"), input, auditActor(c), c.var.clock()),
  );
  return c.json(await orderOrThrow(c, made.orderId), 201);
});

/** One row per job; X-Total-Count gives the number matching. */
ordersApi.get("/orders", staff, async (c) => {
  const query = readQuery(c, orderListQuery);
  const storeId = await listedStoreId(c, query.store);
  const { rows, total } = await listOrders(c.var.db, { ...query, storeId }, c.var.clock());
  c.header("X-Total-Count", String(total));
  return c.json(rows);
});

ordersApi.get("/orders/:id", staff, async (c) => c.json(await orderOrThrow(c, c.req.param("id"))));

ordersApi.post("/orders/:id/payments", staff, async (c) => {
  const input = await readJson(c, paymentSchema);
  unwrap(
    await addPayment(
      c.var.db,
      c.req.param("id"),
      input,
      payer(c),
      await currentStoreId(c),
      c.var.clock(),
    ),
  );
  return c.json(await orderOrThrow(c, c.req.param("id")), 201);
});

ordersApi.post("/jobs/:id/step", staff, async (c) => {
  const input = await readJson(c, jobStepSchema);
  const { orderId } = unwrap(
    await stepJob(c.var.db, c.req.param("id"), input, await who(c), c.var.clock()),
  );
  return c.json(await orderOrThrow(c, orderId));
});

ordersApi.put("/jobs/:id/pickup-store", staff, async (c) => {
  const input = await readJson(c, pickupStoreSchema);
  const { orderId } = unwrap(
    await setPickupStore(c.var.db, c.req.param("id"), input, await who(c), c.var.clock()),
  );
  return c.json(await orderOrThrow(c, orderId));
});

ordersApi.put("/jobs/:id/promised-date", staff, async (c) => {
  const input = await readJson(c, promisedDateSchema);
  const { orderId } = unwrap(
    await setPromisedDate(c.var.db, c.req.param("id"), input, await who(c), c.var.clock()),
  );
  return c.json(await orderOrThrow(c, orderId));
});

const paperOf = (c: Context<AppEnv>): Paper => c.req.query("paper") === "a4" ? "a4" : "letter";

/** The jobs a work order PDF covers: as the printed page chooses them (src/orders/work_order.ts). */
function workOrderPdfJobs(bundle: OrderBundle, c: Context<AppEnv>) {
  const jobs = workOrderJobs(bundle.jobs, workOrderChoiceOf(c.req.query()));
  if (jobs.length === 0) throw notFound("No job to put on a work order");
  return jobs;
}

/**
 * The jobs staff ticked to e-mail to the lab: jobs of this order the lab must
 * make (400 naming any other). Without a choice, the jobs not sent to the lab
 * yet (new, or a remake to go back).
 */
function jobsToEmail(bundle: OrderBundle, jobIds: string[] | undefined) {
  if (!jobIds) {
    const waiting = bundle.jobs.filter((j) => AWAITING_LAB.includes(j.status));
    if (waiting.length === 0) {
      throw new HttpError(
        400,
        "No job of this order waits to be sent to the lab. Choose the jobs to send again.",
        { jobIds: "Choose the jobs to send" },
      );
    }
    return waiting;
  }
  const byId = new Map(bundle.jobs.map((j) => [j.id, j]));
  const problems: string[] = [];
  for (const id of new Set(jobIds)) {
    const job = byId.get(id);
    if (!job) problems.push(`${id} is not a job of this order`);
    else if (!isForLab(job.status)) {
      problems.push(`${job.jobNumber} is ${JOB_STATUS_LABELS[job.status].toLowerCase()}`);
    }
  }
  if (problems.length) {
    const message = `Only jobs of this order the lab must make can be sent: ${
      problems.join("; ")
    }.`;
    throw new HttpError(400, message, { jobIds: message });
  }
  return workOrderJobs(bundle.jobs, { jobIds });
}

ordersApi.get("/orders/:id/work-order.pdf", staff, async (c) => {
  const bundle = await orderOrThrow(c, c.req.param("id"));
  const branding = await findBranding(c.var.db, bundle.order.storeId);
  const jobs = workOrderPdfJobs(bundle, c);
  const pdf = new Uint8Array(
    await renderWorkOrder(
      c.var.db,
      c.var.pdf,
      bundle,
      jobs,
      branding,
      paperOf(c),
      c.var.user!.id,
    ),
  );
  return c.body(pdf, 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `inline; filename="${workOrderFilename(jobs.map((j) => j.jobNumber))}"`,
    "Cache-Control": "private, no-store",
  });
});

/**
 * E-mails the work order PDF to each lab of the jobs through the outbox
 * (queued, then tried at once; the outbox retries when the server is down).
 * The answer says "e-mailed" only for what the mail server took; what waits
 * in the outbox is "queued" (202), as a quote's e-mail says it.
 */
ordersApi.post("/orders/:id/work-order/email", staff, async (c) => {
  const { jobIds, jobId, paper } = await readJson(c, workOrderEmailSchema);
  const { db, config } = c.var;
  const [bundle, settings] = await Promise.all([
    orderOrThrow(c, c.req.param("id")),
    findMailSettings(db, config.secretKey),
  ]);
  const branding = await findBranding(db, bundle.order.storeId);
  if (!settings.configured) {
    throw new HttpError(409, "Email is not configured. Set up e-mail in Settings first.");
  }
  const jobs = jobsToEmail(bundle, jobIds ?? (jobId ? [jobId] : undefined));
  const labs = new Map<string, typeof jobs>();
  for (const job of jobs) labs.set(job.lab.id, [...labs.get(job.lab.id) ?? [], job]);
  const missing = [...labs.values()].find((js) => !js[0].lab.email);
  if (missing) {
    throw new HttpError(
      409,
      `${missing[0].lab.name} has no e-mail address. An admin adds it under Admin, Labs.`,
    );
  }
  const sent: string[] = [];
  const sending: string[] = [];
  const queued: string[] = [];
  let nextTry = "later";
  for (const labJobs of labs.values()) {
    const lab = labJobs[0].lab;
    const numbers = labJobs.map((j) => j.jobNumber);
    const attachment = await renderWorkOrder(
      db,
      c.var.pdf,
      bundle,
      labJobs,
      branding,
      paper,
      c.var.user!.id,
    );
    const mail = composeWorkOrderEmail(branding, {
      jobNumbers: numbers,
      accountNumber: lab.accountNumber,
    });
    const now = c.var.clock();
    const outboxId = await db.transaction().execute(async (trx) => {
      const id = await enqueueEmail(trx, {
        quoteId: null,
        jobId: labJobs[0].id,
        kind: "WORK_ORDER",
        to: lab.email!,
        ...mail,
        attachmentName: workOrderFilename(numbers),
        attachment,
        createdBy: c.var.user!.id,
        sendAt: now,
      });
      await recordAudit(trx, auditActor(c), "order.work_order_emailed", "order", bundle.order.id, {
        jobs: numbers.join(", "),
        to: lab.email,
        outboxId: id,
      });
      return id;
    });
    const outcome = await sendOutcome(
      db,
      outboxId,
      await deliverEmail(db, config.secretKey, outboxId, now, c.var.logger),
    );
    const what = `${numbers.join(", ")} to ${lab.email}`;
    if (outcome.status === "sent") sent.push(what);
    else if (outcome.status === "sending") sending.push(what);
    else {
      queued.push(what);
      nextTry = outcome.nextTry;
    }
  }
  const done = sent.length ? `Work order e-mailed: ${sent.join("; ")}` : "";
  if (!sending.length && !queued.length) return c.json({ status: "sent", message: done });
  const parts = [
    done && `${done}.`,
    sending.length &&
    `The work order ${sending.join("; ")} is being sent by the outbox right now.`,
    queued.length &&
    `The mail server could not be reached, so the work order ${queued.join("; ")} ` +
      `was not sent yet. It is saved and will be sent automatically (next try at ${nextTry}).`,
  ];
  return c.json({ status: "queued", message: parts.filter(Boolean).join(" ") }, 202);
});

ordersApi.get(
  "/clients/:id/orders",
  staff,
  async (c) => c.json(await listClientOrders(c.var.db, c.req.param("id"))),
);
