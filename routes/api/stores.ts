// The chain's stores: the admins' list and changes (src/stores/admin_stores.ts),
// and the store a signed-in user works in on this device.
import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { auditActor } from "../../src/http/actor.ts";
import { HttpError, readJson } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { unwrap } from "../../src/http/outcome.ts";
import { currentStoreSchema, newStoreSchema, storeUpdateSchema } from "../../src/schemas/store.ts";
import { createStore, listStores, updateStore } from "../../src/stores/admin_stores.ts";
import {
  currentStore,
  NOT_A_STORE_OF_YOURS,
  rememberStore,
} from "../../src/stores/current_store.ts";
import { findUserStores } from "../../src/stores/stores.ts";

export const storesApi = new Hono<AppEnv>();
const admin = requireUser("ADMIN", "OWNER");
const owner = requireUser("OWNER");
const staff = requireUser();

const actorOf = (c: Context<AppEnv>) => ({
  ...auditActor(c),
  role: c.var.user!.role,
  chainAdmin: c.var.user!.chainAdmin,
});

/** The stores the caller administers: the chain's for the owner and chain admins, else theirs. */
storesApi.get("/admin/stores", admin, async (c) => c.json(await listStores(c.var.db, actorOf(c))));

storesApi.post("/admin/stores", owner, async (c) => {
  const input = await readJson(c, newStoreSchema);
  return c.json(unwrap(await createStore(c.var.db, input, auditActor(c))), 201);
});

storesApi.put("/admin/stores/:id", admin, async (c) => {
  const input = await readJson(c, storeUpdateSchema);
  return c.json(unwrap(await updateStore(c.var.db, c.req.param("id"), input, actorOf(c))));
});

/** The stores the signed-in user works in, and the one this device works in. */
storesApi.get("/stores", staff, async (c) => {
  const user = c.var.user!;
  const [stores, current] = await Promise.all([
    findUserStores(c.var.db, user),
    currentStore(c, user),
  ]);
  return c.json({ current: current.id, stores });
});

/** This device works in another of the user's stores from now on. */
storesApi.put("/stores/current", staff, async (c) => {
  const { storeId } = await readJson(c, currentStoreSchema);
  const stores = await findUserStores(c.var.db, c.var.user!);
  const store = stores.find((s) => s.id === storeId);
  if (!store) throw new HttpError(403, NOT_A_STORE_OF_YOURS, { storeId: NOT_A_STORE_OF_YOURS });
  rememberStore(c, store.id);
  return c.json({ current: store.id, stores });
});
