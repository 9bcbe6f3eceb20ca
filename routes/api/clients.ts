import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { intakeStoreId } from "../../src/stores/current_store.ts";
import { findActiveStores } from "../../src/stores/stores.ts";

const UNKNOWN_HOME_STORE = "The home store must be one of the chain's active stores";
import { auditActor } from "../../src/http/actor.ts";
import { HttpError, notFound, readJson, readQuery } from "../../src/http/errors.ts";
import { clientListQuery } from "../../src/schemas/query.ts";
import { requireUser } from "../../src/http/middleware.ts";
import {
  consentSchema,
  createClientSchema,
  measurementsSchema,
  updateClientSchema,
} from "../../src/schemas/client.ts";
import {
  CLIENT_HISTORY_FIELDS,
  deleteClient,
  findClientDetail,
  insertClientWithQuote,
  listClients,
  searchClients,
  UnknownHeardHowError,
  updateClient,
  updateMeasurements,
} from "../../src/clients/clients.ts";
import { insertConsentRecord } from "../../src/clients/consent.ts";
import { findConsentTexts } from "../../src/settings/consent_texts.ts";
import { listHeardHowOptions } from "../../src/settings/heard_how.ts";
import { throttleMessage } from "../../src/auth/throttle.ts";
import { addressKey } from "../../src/http/client_address.ts";
import { recordAudit } from "../../src/audit/audit_log.ts";
import { recordChanges } from "../../src/audit/describe.ts";

export const clientsApi = new Hono<AppEnv>();

function readPage(c: Context<AppEnv>) {
  const { filter, ...page } = readQuery(c, clientListQuery);
  return { ...page, filter: filter === "missing" ? "missing" as const : undefined };
}

/** Signed-out callers (the intake tablet) are counted per address. */
async function limitPublic(c: Context<AppEnv>, limiter: "intake" | "consent") {
  if (c.var.user) return;
  const counter = c.var.publicLimits[limiter];
  const wait = await counter.take(c.var.db, addressKey(c.var.clientIp));
  if (wait > 0) {
    throw new HttpError(
      429,
      limiter === "intake"
        ? "Too many intake forms from this device. Please ask your optician for help."
        : throttleMessage(wait),
      undefined,
      { "Retry-After": String(Math.ceil(wait / 1000)) },
    );
  }
}

// Public: what the intake form needs, and nothing else.
clientsApi.get("/settings", async (c) => c.json(await findConsentTexts(c.var.db)));
clientsApi.get("/heard-how-options", async (c) => c.json(await listHeardHowOptions(c.var.db)));

clientsApi.post("/clients", async (c) => {
  const input = await readJson(c, createClientSchema);
  await limitPublic(c, "intake");
  try {
    const created = await insertClientWithQuote(
      c.var.db,
      input,
      c.var.user?.id ?? null,
      await intakeStoreId(c, c.req.query("store")),
    );
    const via = c.var.user ? "staff" : "intake";
    await recordAudit(c.var.db, auditActor(c), "client.create", "client", created.client.id, {
      quoteId: created.quote.id,
      via,
      changes: recordChanges({}, input, CLIENT_HISTORY_FIELDS),
    });
    await recordAudit(c.var.db, auditActor(c), "quote.create", "quote", created.quote.id, {
      clientId: created.client.id,
      via,
    });
    // Signed-out callers get the two ids and nothing more.
    return c.json({ client: { id: created.client.id }, quote: { id: created.quote.id } }, 201);
  } catch (err) {
    if (err instanceof UnknownHeardHowError) {
      throw new HttpError(400, err.message, { heardHowId: err.message });
    }
    throw err;
  }
});

clientsApi.post("/consent", async (c) => {
  const input = await readJson(c, consentSchema);
  await limitPublic(c, "consent");
  const result = await insertConsentRecord(c.var.db, input, {
    signedIn: !!c.var.user,
    ip: c.var.clientIp,
  });
  if (!result.ok) {
    throw new HttpError(
      result.status,
      result.message,
      result.field ? { [result.field]: result.message } : undefined,
    );
  }
  return c.json({ id: result.id }, 201);
});

// Staff only from here: every /api/clients path except the intake's POST.
const staff = clientsApi;
staff.use("/clients/*", requireUser());
staff.on("GET", "/clients", requireUser());

staff.get("/clients", async (c) => {
  return c.json(await listClients(c.var.db, readPage(c)));
});

staff.get("/clients/search", async (c) => {
  const { q, filter: _, ...page } = readPage(c);
  return c.json(await searchClients(c.var.db, q ?? "", page));
});

staff.get("/clients/missing-measurements", async (c) => {
  const { q: _, ...page } = readPage(c);
  return c.json(await listClients(c.var.db, { ...page, filter: "missing" }));
});

staff.get("/clients/:id", async (c) => {
  const client = await findClientDetail(c.var.db, c.req.param("id"));
  if (!client) throw notFound("Client not found");
  return c.json(client);
});

staff.put("/clients/:id", async (c) => {
  const input = await readJson(c, updateClientSchema);
  if ("homeStoreId" in input) {
    const stores = await findActiveStores(c.var.db);
    if (!stores.some((s) => s.id === input.homeStoreId)) {
      throw new HttpError(400, UNKNOWN_HOME_STORE, { homeStoreId: UNKNOWN_HOME_STORE });
    }
  }
  const client = await updateClient(c.var.db, c.req.param("id"), input, auditActor(c));
  if (!client) throw notFound("Client not found");
  return c.json(client);
});

staff.delete("/clients/:id", async (c) => {
  const deleted = await deleteClient(c.var.db, c.req.param("id"), auditActor(c));
  if (!deleted) throw notFound("Client not found");
  return c.json({ message: "Client deleted" });
});

staff.put("/clients/:id/measurements", async (c) => {
  const input = await readJson(c, measurementsSchema);
  const measurements = await updateMeasurements(
    c.var.db,
    c.req.param("id"),
    input,
    auditActor(c),
  );
  if (!measurements) throw notFound("Client not found");
  return c.json(measurements);
});
