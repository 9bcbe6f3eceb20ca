import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { notFound, readQuery } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { listAuditPage, listEntityHistory } from "../../src/audit/audit_log.ts";
import { toAuditQuery } from "../../src/audit/audit_query.ts";
import { auditQuerySchema } from "../../src/schemas/audit.ts";
import { findClientContacts } from "../../src/clients/clients.ts";
import { quoteExists } from "../../src/quotes/quotes.ts";

/** Who changed what and when: the History tabs, and the owner's audit log. */
export const historyApi = new Hono<AppEnv>();

historyApi.get("/clients/:id/history", requireUser(), async (c) => {
  const id = c.req.param("id");
  if (!await findClientContacts(c.var.db, id)) throw notFound("Client not found");
  return c.json(await listEntityHistory(c.var.db, "client", id));
});

historyApi.get("/quotes/:id/history", requireUser(), async (c) => {
  const id = c.req.param("id");
  if (!await quoteExists(c.var.db, id)) throw notFound("Quote not found");
  return c.json(await listEntityHistory(c.var.db, "quote", id));
});

/** The whole log, newest first, a page at a time: owners only. */
historyApi.get("/admin/audit", requireUser("OWNER"), async (c) => {
  const input = readQuery(c, auditQuerySchema);
  return c.json(await listAuditPage(c.var.db, toAuditQuery(input)));
});
