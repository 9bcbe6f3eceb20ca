import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { auditActor } from "../../src/http/actor.ts";
import { HttpError, notFound, readJson, readQuery } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { isUniqueViolation } from "../../src/db/errors.ts";
import {
  createOrderSchema,
  jobStepSchema,
  labSchema,
  orderListQuery,
  paymentSchema,
  promisedDateSchema,
} from "../../src/schemas/order.ts";
import { insertLab, LAB_NAME_TAKEN, listLabs, updateLab } from "../../src/orders/labs.ts";
import {
  addPayment,
  createOrder,
  type OrderWrite,
  setPromisedDate,
  stepJob,
} from "../../src/orders/order_store.ts";
import { listClientOrders, listOrders, readOrder } from "../../src/orders/order_read.ts";

// Orders, jobs, payments (any signed-in staff; refunds and balance overrides
// ADMIN/OWNER, reopening a pickup OWNER, decided by the rules) and the labs
// catalog (ADMIN/OWNER). A kiosk never gets here (src/kiosk/gate.ts).
export const ordersApi = new Hono<AppEnv>();
const staff = requireUser();
const admin = requireUser("ADMIN", "OWNER");

function unwrap<T>(result: OrderWrite<T>): T {
  if (result.ok) return result.value;
  throw new HttpError(
    result.status,
    result.message,
    result.field ? { [result.field]: result.message } : undefined,
  );
}

const who = (c: Context<AppEnv>) => ({ actor: auditActor(c), role: c.var.user!.role });

async function orderOrThrow(c: Context<AppEnv>, id: string) {
  const order = await readOrder(c.var.db, id, c.var.user!.role, c.var.clock());
  if (!order) throw notFound("Order not found");
  return order;
}

ordersApi.get("/labs", staff, async (c) => c.json(await listLabs(c.var.db, true)));
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
  const { rows, total } = await listOrders(c.var.db, readQuery(c, orderListQuery), c.var.clock());
  c.header("X-Total-Count", String(total));
  return c.json(rows);
});

ordersApi.get("/orders/:id", staff, async (c) => c.json(await orderOrThrow(c, c.req.param("id"))));

ordersApi.post("/orders/:id/payments", staff, async (c) => {
  const input = await readJson(c, paymentSchema);
  unwrap(await addPayment(c.var.db, c.req.param("id"), input, who(c), c.var.clock()));
  return c.json(await orderOrThrow(c, c.req.param("id")), 201);
});

ordersApi.post("/jobs/:id/step", staff, async (c) => {
  const input = await readJson(c, jobStepSchema);
  const { orderId } = unwrap(
    await stepJob(c.var.db, c.req.param("id"), input, who(c), c.var.clock()),
  );
  return c.json(await orderOrThrow(c, orderId));
});

ordersApi.put("/jobs/:id/promised-date", staff, async (c) => {
  const input = await readJson(c, promisedDateSchema);
  const { orderId } = unwrap(
    await setPromisedDate(c.var.db, c.req.param("id"), input, auditActor(c), c.var.clock()),
  );
  return c.json(await orderOrThrow(c, orderId));
});

ordersApi.get(
  "/clients/:id/orders",
  staff,
  async (c) => c.json(await listClientOrders(c.var.db, c.req.param("id"))),
);
