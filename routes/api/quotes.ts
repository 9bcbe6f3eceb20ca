import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { notFound, readJson } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { createQuoteSchema } from "../../src/schemas/client.ts";
import { insertDraftQuote } from "../../src/quotes/quotes.ts";
import { findClientContacts } from "../../src/clients/clients.ts";
import { recordAudit } from "../../src/audit/audit_log.ts";

export const quotesApi = new Hono<AppEnv>();
quotesApi.use("/quotes/*", requireUser());
quotesApi.use("/quotes", requireUser());

quotesApi.post("/quotes", async (c) => {
  const { clientId } = await readJson(c, createQuoteSchema);
  const client = await findClientContacts(c.var.db, clientId);
  if (!client) throw notFound("Client not found");
  const user = c.var.user!;
  const quote = await insertDraftQuote(c.var.db, clientId, user.id);
  await recordAudit(
    c.var.db,
    { id: user.id, label: user.username },
    "quote.create",
    "quote",
    quote.id,
    { clientId },
  );
  return c.json(quote, 201);
});
