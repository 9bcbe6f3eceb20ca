// Rows of the route table: quotes, labs, orders and jobs, quote PDFs and e-mail, the catalog (staff).
import { findFirstStore } from "../../../src/stores/stores.ts";
import { daysFromToday, get, ok, send } from "./build.ts";
import { CHAIN_WIDE_ONLY, type RouteEntry, STORE_SCOPED } from "./expectations.ts";
import { saveBody } from "./fixtures.ts";

export const QUOTE_AND_ORDER_ROUTES: RouteEntry[] = [
  // ---- Quotes (staff) ----
  send("POST", "/api/quotes", "staff", ok(201), async (fx) => ({
    path: "/api/quotes",
    body: { clientId: (await fx.client()).client.id },
  })),
  get("/api/stats", "staff", ok(200)),
  get("/api/quotes/recent", "staff", ok(200)),
  get("/api/quotes/expired", "staff", ok(200)),
  get("/api/quotes", "staff", ok(200), {
    query: ["q", "search", "status", "filter", "limit", "offset", "store"],
    path: "/api/quotes?q=rita&status=ACTIVE&limit=10&offset=0",
  }),
  get("/api/quotes/:id", "staff", ok(200), {
    path: async (fx) => `/api/quotes/${(await fx.savedQuote()).quote.id}`,
  }),
  send("PUT", "/api/quotes/:id", "staff", ok(200), async (fx) => {
    const { client, quote } = await fx.client();
    void client;
    const bundle = await fx.quote(quote.id);
    return { path: `/api/quotes/${quote.id}`, body: saveBody(bundle) };
  }),
  send(
    "DELETE",
    "/api/quotes/:id",
    "staff",
    ok(200),
    async (fx) => ({ path: `/api/quotes/${(await fx.client()).quote.id}` }),
  ),
  send("POST", "/api/quotes/:id/close", "staff", ok(200), async (fx) => ({
    path: `/api/quotes/${(await fx.savedQuote()).quote.id}/close`,
    body: { reason: "Client will come back later" },
  })),
  send("POST", "/api/quotes/:id/reactivate", "staff", ok(200), async (fx) => ({
    path: `/api/quotes/${(await fx.closedQuote()).quote.id}/reactivate`,
  })),
  send("POST", "/api/quotes/:id/carry-over/confirm", "staff", ok(200), async (fx) => ({
    path: `/api/quotes/${(await fx.carriedQuote()).id}/carry-over/confirm`,
  })),
  send("POST", "/api/quotes/:id/finalize", "staff", ok(200), async (fx) => ({
    path: `/api/quotes/${(await fx.savedQuote()).quote.id}/finalize`,
  })),
  send("POST", "/api/quotes/:id/reopen", "owner", ok(200), async (fx) => ({
    path: `/api/quotes/${(await fx.finalizedQuote()).quote.id}/reopen`,
    body: { reason: "Client changed the lenses" },
  })),
  get("/api/labs", "staff", ok(200), {
    query: ["store"],
    path: async (fx) => `/api/labs?store=${(await findFirstStore(fx.app.db)).id}`,
  }),
  get("/api/admin/labs", "admin", ok(200)),
  send("POST", "/api/admin/labs", "admin", ok(201), () =>
    Promise.resolve({
      path: "/api/admin/labs",
      body: { name: `Lab ${crypto.randomUUID()}`, turnaroundDays: 5 },
    })),
  send("PUT", "/api/admin/labs/:id", "admin", ok(200), async (fx) => ({
    path: `/api/admin/labs/${(await fx.lab()).id}`,
    body: { name: `Route Lab ${crypto.randomUUID()}`, turnaroundDays: 3 },
  })),
  send("POST", "/api/quotes/:id/order", "staff", ok(201), async (fx) => ({
    path: `/api/quotes/${(await fx.finalizedQuote()).quote.id}/order`,
    body: { labId: (await fx.lab()).id },
  })),
  get("/api/orders", "staff", ok(200), {
    query: ["q", "status", "late", "waiting", "labId", "optician", "page", "store"],
    path: "/api/orders?q=rita&late=1",
  }),
  get("/api/orders/:id", "staff", ok(200), {
    path: async (fx) => `/api/orders/${(await fx.order()).order.id}`,
  }),
  send("POST", "/api/orders/:id/payments", "staff", ok(201), async (fx) => ({
    path: `/api/orders/${(await fx.order()).order.id}/payments`,
    // Yesterday: a day in the payment's window whatever the store's time zone.
    body: { amount: "10.00", method: "CASH", paidOn: daysFromToday(-1) },
  })),
  // A job of the first store: moved on by its stores' staff only.
  {
    ...send("POST", "/api/jobs/:id/step", "staff", ok(200), async (fx) => {
      const job = (await fx.order()).jobs[0];
      return {
        path: `/api/jobs/${job.id}/step`,
        body: { to: "SENT_TO_LAB", version: job.version },
      };
    }),
    overrides: STORE_SCOPED,
  },
  // A job of the first store: moved on by its stores' staff only.
  {
    ...send("PUT", "/api/jobs/:id/promised-date", "staff", ok(200), async (fx) => {
      const job = (await fx.order()).jobs[0];
      return {
        path: `/api/jobs/${job.id}/promised-date`,
        body: { promisedDate: daysFromToday(30), reason: "Lab said so", version: job.version },
      };
    }),
    overrides: STORE_SCOPED,
  },
  // A job of the first store: moved on by its stores' staff only.
  {
    ...send("PUT", "/api/jobs/:id/pickup-store", "staff", ok(200), async (fx) => {
      const job = (await fx.order()).jobs[0];
      return {
        path: `/api/jobs/${job.id}/pickup-store`,
        body: { storeId: job.pickupStoreId, version: job.version },
      };
    }),
    overrides: STORE_SCOPED,
  },
  get("/api/orders/:id/work-order.pdf", "staff", ok(200), {
    query: ["paper", "job"],
    path: async (fx) => `/api/orders/${(await fx.order()).order.id}/work-order.pdf`,
  }),
  {
    method: "POST",
    pattern: "/api/orders/:id/work-order/email",
    access: "staff",
    // The table's store has no mail server: the call is refused as such.
    ok: ok(409),
    request: async (fx) => ({
      path: `/api/orders/${(await fx.order()).order.id}/work-order/email`,
      body: {},
    }),
  },
  // Asked for every store ("All stores"): the chain's admins' and the owner's, not a store admin's.
  get("/api/reports/orders", "admin", ok(200), {
    query: ["from", "to", "optician", "store"],
    path: "/api/reports/orders?from=2026-01-01&to=2026-12-31&store=all",
    overrides: CHAIN_WIDE_ONLY,
  }),
  get(
    "/api/reports/orders/:file{(?:turnaround|remakes|payments|balances)\\.csv}",
    "admin",
    ok(200),
    {
      query: ["from", "to", "store"],
      path: "/api/reports/orders/payments.csv?store=all",
      overrides: CHAIN_WIDE_ONLY,
    },
  ),
  get("/api/clients/:id/orders", "staff", ok(200), {
    path: async (fx) => `/api/clients/${(await fx.client()).client.id}/orders`,
  }),
  get("/api/quotes/:id/pdf", "staff", ok(200), {
    path: async (fx) => `/api/quotes/${(await fx.savedQuote()).quote.id}/pdf`,
  }),
  get("/api/quotes/:id/online", "staff", ok(200), {
    path: async (fx) => `/api/quotes/${(await fx.savedQuote()).quote.id}/online`,
  }),
  // Only a quote accepted online has one; the route and its guard are what is checked here.
  get("/api/quotes/:id/signed-pdf", "staff", { status: 404, text: "not accepted online" }, {
    path: async (fx) => `/api/quotes/${(await fx.savedQuote()).quote.id}/signed-pdf`,
  }),
  send("POST", "/api/quotes/:id/online-links/revoke", "staff", ok(200), async (fx) => ({
    path: `/api/quotes/${(await fx.savedQuote()).quote.id}/online-links/revoke`,
  })),
  {
    method: "POST",
    pattern: "/api/quotes/:id/email",
    access: "staff",
    // E-mail is not configured in this app: refused with the spec's message.
    ok: ok(409),
    request: async (fx) => ({
      path: `/api/quotes/${(await fx.savedQuote()).quote.id}/email`,
      body: { email: "rita@example.com", note: "Here it is" },
    }),
  },
  send("PUT", "/api/quote-options/:id/measurements", "staff", ok(200), async (fx) => ({
    path: `/api/quote-options/${(await fx.savedQuote()).options[0].id}/measurements`,
    body: { segOc: "21/21" },
  })),
  get("/api/catalog/:section", "staff", ok(200), { path: "/api/catalog/lens-types" }),
];
