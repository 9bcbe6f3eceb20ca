import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { auditActor } from "../../src/http/actor.ts";
import { notFound, readJson } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { prescriptionSchema } from "../../src/schemas/prescription.ts";
import {
  deletePrescription,
  findClientForPrescriptions,
  insertPrescription,
  listPrescriptions,
  updatePrescription,
} from "../../src/prescriptions/prescriptions.ts";

/** A client's spectacle prescriptions: any signed-in staff, like the client's other details. */
export const prescriptionsApi = new Hono<AppEnv>();
const BASE = "/clients/:id/prescriptions";
// The role check sits on each route (not a `use` on a pattern), so every route here is
// one entry of the route table.
const staff = requireUser();

const CLIENT_NOT_FOUND = "Client not found";
const clientId = (c: Context<AppEnv>) => c.req.param("id")!;

prescriptionsApi.get(BASE, staff, async (c) => {
  if (!await findClientForPrescriptions(c.var.db, clientId(c))) throw notFound(CLIENT_NOT_FOUND);
  return c.json(await listPrescriptions(c.var.db, clientId(c)));
});

prescriptionsApi.post(BASE, staff, async (c) => {
  const input = await readJson(c, prescriptionSchema);
  const created = await insertPrescription(c.var.db, clientId(c), input, auditActor(c));
  if (!created) throw notFound(CLIENT_NOT_FOUND);
  return c.json(created, 201);
});

prescriptionsApi.put(`${BASE}/:prescriptionId`, staff, async (c) => {
  const input = await readJson(c, prescriptionSchema);
  const updated = await updatePrescription(
    c.var.db,
    clientId(c),
    c.req.param("prescriptionId"),
    input,
    auditActor(c),
  );
  if (!updated) throw notFound("Prescription not found");
  return c.json(updated);
});

prescriptionsApi.delete(`${BASE}/:prescriptionId`, staff, async (c) => {
  const deleted = await deletePrescription(
    c.var.db,
    clientId(c),
    c.req.param("prescriptionId"),
    auditActor(c),
  );
  if (!deleted) throw notFound("Prescription not found");
  return c.json({ message: "Prescription deleted" });
});
