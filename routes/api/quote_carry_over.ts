import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { auditActor } from "../../src/http/actor.ts";
import { HttpError } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { confirmCarryOver } from "../../src/quotes/carry_over.ts";

/** Any signed-in staff confirms the measurements a quote carried over, like any quote edit. */
export const quoteCarryOverApi = new Hono<AppEnv>();
const PATH = "/quotes/:id/carry-over/confirm";

quoteCarryOverApi.post(PATH, requireUser(), async (c) => {
  const result = await confirmCarryOver(c.var.db, c.req.param("id"), auditActor(c));
  if (!result.ok) throw new HttpError(result.status, result.message);
  return c.json(result.value);
});
