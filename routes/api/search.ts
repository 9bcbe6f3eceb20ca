import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { HttpError } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { searchQuerySchema } from "../../src/schemas/search.ts";
import { globalSearch } from "../../src/search/search.ts";

export const searchApi = new Hono<AppEnv>();

/** The staff bar's search, open to every signed-in role. */
searchApi.get("/search", requireUser(), async (c) => {
  const parsed = searchQuerySchema.safeParse(c.req.query());
  if (!parsed.success) {
    throw new HttpError(400, parsed.error.issues[0]?.message ?? "Invalid search", {
      q: parsed.error.issues[0]?.message ?? "Invalid search",
    });
  }
  return c.json(await globalSearch(c.var.db, parsed.data.q));
});
