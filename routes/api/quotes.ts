import { type Context, Hono } from "hono";
import { quoteListQuery } from "../../src/schemas/query.ts";
import type { AppEnv } from "../../src/http/app_env.ts";
import { currentStoreId, listedStoreId } from "../../src/stores/current_store.ts";
import { auditActor } from "../../src/http/actor.ts";
import { forbidden, HttpError, notFound, readJson, readQuery } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { createQuoteSchema } from "../../src/schemas/client.ts";
import {
  closeQuoteSchema,
  reopenQuoteSchema,
  saveQuoteSchema,
  segOcSchema,
  selectionSchema,
} from "../../src/schemas/quote.ts";
import { insertDraftQuote } from "../../src/quotes/quotes.ts";
import { findClientContacts } from "../../src/clients/clients.ts";
import { recordAudit } from "../../src/audit/audit_log.ts";
import {
  closeQuote,
  deleteQuote,
  finalizeQuote,
  reactivateQuote,
  reopenQuote,
} from "../../src/quotes/quote_lifecycle.ts";
import {
  countExpiredQuotes,
  findStats,
  listExpiredQuotes,
  listRecentQuotes,
} from "../../src/quotes/dashboard.ts";
import { listQuotes } from "../../src/quotes/quote_list.ts";
import { readQuoteBundle } from "../../src/quotes/quote_bundle.ts";
import { tabletQuote } from "../../components/tablet/tablet_view.ts";
import { saveQuote, saveSelection, updateOptionSegOc } from "../../src/quotes/quote_store.ts";
import { type WriteResult } from "../../src/quotes/quote_writes.ts";
import { catalogTable, listActiveCatalog } from "../../src/catalog/catalog.ts";

export const quotesApi = new Hono<AppEnv>();
for (const path of ["/quotes", "/quotes/*", "/quote-options/*", "/stats", "/catalog/*"]) {
  quotesApi.use(path, requireUser());
}

function unwrap<T>(result: WriteResult<T>): T {
  if (result.ok) return result.value;
  const errors = result.problems
    ? Object.fromEntries(result.problems.map((p) => [p.field, p.message]))
    : undefined;
  throw new HttpError(result.status, result.message, errors);
}

/**
 * The quote as kept by readQuoteBundle: after a write of this request, the
 * connection went back to the pool and the next read is afresh.
 */
async function bundleOrThrow(c: Context<AppEnv>, id: string) {
  const bundle = await readQuoteBundle(c.var.db, id);
  if (!bundle) throw notFound("Quote not found");
  return bundle;
}

quotesApi.post("/quotes", async (c) => {
  const { clientId } = await readJson(c, createQuoteSchema);
  const client = await findClientContacts(c.var.db, clientId);
  if (!client) throw notFound("Client not found");
  const quote = await insertDraftQuote(c.var.db, clientId, c.var.user!.id, await currentStoreId(c));
  await recordAudit(c.var.db, auditActor(c), "quote.create", "quote", quote.id, { clientId });
  return c.json(quote, 201);
});

quotesApi.get("/stats", async (c) => c.json(await findStats(c.var.db)));
quotesApi.get("/quotes/recent", async (c) => c.json(await listRecentQuotes(c.var.db)));
quotesApi.get("/quotes/expired", async (c) => {
  const [quotes, total] = await Promise.all([
    listExpiredQuotes(c.var.db),
    countExpiredQuotes(c.var.db),
  ]);
  // The list holds at most 5; the header tells the dashboard how many there are.
  c.header("X-Total-Count", String(total));
  return c.json(quotes);
});

/**
 * The quote management list; X-Total-Count gives the number matching, or,
 * with X-Total-Count-At-Least: true, how many a search found before it
 * stopped counting: it reads only as far as its page (src/search/head.ts).
 */
quotesApi.get("/quotes", async (c) => {
  const { q, search, status, filter, limit, offset, store } = readQuery(c, quoteListQuery);
  const { rows, total, atLeast } = await listQuotes(c.var.db, {
    q: q ?? search,
    status,
    expired: filter === "expired",
    limit,
    offset,
    storeId: await listedStoreId(c, store),
  });
  c.header("X-Total-Count", String(total));
  c.header("X-Total-Count-At-Least", String(atLeast));
  return c.json(rows);
});

quotesApi.delete("/quotes/:id", async (c) => {
  if (!await deleteQuote(c.var.db, c.req.param("id"), auditActor(c))) {
    throw notFound("Quote not found");
  }
  return c.json({ message: "Quote deleted" });
});

/** The JSON of kept bundles (readQuoteBundle): written once per bundle, not per request. */
const bundleJson = new WeakMap<object, string>();

/**
 * `?view=tablet`: the staff preview of the tablet reads and saves the client's
 * view (as a kiosk does), made here, so the tablet page ships no quote rules.
 */
const tabletView = (c: Context<AppEnv>) => c.req.query("view") === "tablet";

quotesApi.get("/quotes/:id", async (c) => {
  const bundle = await bundleOrThrow(c, c.req.param("id"));
  if (tabletView(c)) return c.json(tabletQuote(bundle));
  let json = bundleJson.get(bundle);
  if (json === undefined) bundleJson.set(bundle, json = JSON.stringify(bundle));
  return c.body(json, 200, { "content-type": "application/json" });
});

/**
 * The builder sends the whole quote (with opticianName); the tablet sends only
 * which options were chosen. Either way the answer is the saved quote.
 */
quotesApi.put("/quotes/:id", async (c) => {
  const id = c.req.param("id");
  const raw = await c.req.raw.clone().json().catch(() => undefined);
  if (raw && typeof raw === "object" && "opticianName" in raw) {
    const input = await readJson(c, saveQuoteSchema);
    const { idMap } = unwrap(await saveQuote(c.var.db, id, input, auditActor(c)));
    return c.json({ ...await bundleOrThrow(c, id), idMap });
  }
  const input = await readJson(c, selectionSchema);
  unwrap(await saveSelection(c.var.db, id, input, auditActor(c)));
  const bundle = await bundleOrThrow(c, id);
  return c.json(tabletView(c) ? tabletQuote(bundle) : { ...bundle, idMap: {} });
});

quotesApi.post("/quotes/:id/close", async (c) => {
  const { reason } = await readJson(c, closeQuoteSchema);
  unwrap(await closeQuote(c.var.db, c.req.param("id"), reason, auditActor(c)));
  return c.json(await bundleOrThrow(c, c.req.param("id")));
});

quotesApi.post("/quotes/:id/reactivate", async (c) => {
  unwrap(await reactivateQuote(c.var.db, c.req.param("id"), auditActor(c)));
  return c.json(await bundleOrThrow(c, c.req.param("id")));
});

quotesApi.post("/quotes/:id/finalize", async (c) => {
  unwrap(await finalizeQuote(c.var.db, c.req.param("id"), auditActor(c)));
  return c.json(await bundleOrThrow(c, c.req.param("id")));
});

/** Finalized is final for everyone but an owner, who may reopen it with a reason. */
quotesApi.post("/quotes/:id/reopen", async (c) => {
  if (c.var.user!.role !== "OWNER") throw forbidden("Only an owner can reopen a finalized quote.");
  const { reason } = await readJson(c, reopenQuoteSchema);
  unwrap(await reopenQuote(c.var.db, c.req.param("id"), reason, auditActor(c)));
  return c.json(await bundleOrThrow(c, c.req.param("id")));
});

quotesApi.put("/quote-options/:id/measurements", async (c) => {
  const { segOc } = await readJson(c, segOcSchema);
  unwrap(await updateOptionSegOc(c.var.db, c.req.param("id"), segOc, auditActor(c)));
  return c.json({ segOc });
});

quotesApi.get("/catalog/:section", async (c) => {
  const table = catalogTable(c.req.param("section"));
  if (!table) throw notFound("No such catalog section");
  return c.json(await listActiveCatalog(c.var.db, table));
});
