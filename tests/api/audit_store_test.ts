// The audit log names the store an entry concerns (issue 48): a payment the
// store that took it, a job's step the store its glasses go to, a quote's or
// an order's write their record's store, the chain's own records (clients)
// none. The owner's page shows a Store column and filters by store in a chain
// of more than one store, and looks as it always did in a chain of one.
// Both engines.
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, signedInUser } from "../helpers/test_app.ts";
import { findFirstStore } from "../../src/stores/stores.ts";
import { insertSavedQuote } from "../helpers/quote_fixture.ts";
import type { AuditPage } from "../../src/audit/audit_log.ts";
import type { OrderBundle } from "../../src/orders/views.ts";
import { app, finalizedQuote, lab, owner, useOrdersApp } from "./orders_fixture.ts";

useOrdersApp();

let storeA: string;
let storeB: string;
let both: string;
const inStore = (cookie: string, storeId: string) => `${cookie}; lensdesk_store=${storeId}`;

/** The newest audit row of `action` (and of `entityId`, when given). */
async function lastRow(action: string, entityId?: string) {
  let q = app.db.selectFrom("auditLog").select(["action", "entityId", "storeId"])
    .where("action", "=", action);
  if (entityId) q = q.where("entityId", "=", entityId);
  return await q.orderBy("id", "desc").limit(1).executeTakeFirstOrThrow();
}

async function auditPage(query = "") {
  const res = await fetch(`${app.baseUrl}/admin/audit${query}`, { headers: { cookie: owner } });
  expect(res.status).toBe(200);
  return await res.text();
}

describe("the audit log names the store", () => {
  it("in a chain of one store: entries are its store's, the page has no store column", async () => {
    storeA = (await findFirstStore(app.db)).id;
    const q = await insertSavedQuote(app.db);
    const closed = await call(app, "POST", `/api/quotes/${q.quoteId}/close`, {
      cookie: owner,
      body: { reason: "Went elsewhere" },
    });
    expect(closed.status).toBe(200);
    expect((await lastRow("quote.close", q.quoteId)).storeId).toBe(storeA);
    const html = await auditPage();
    expect(html).not.toContain('id="audit-store"');
    expect(html).not.toContain('<th scope="col">Store</th>');
    expect(html).not.toContain('data-testid="audit-store"');
  });

  it("a new store's entry is its own", async () => {
    const made = await call<{ id: string }>(app, "POST", "/api/admin/stores", {
      cookie: owner,
      body: { code: "DT", name: "Downtown" },
    });
    expect(made.status).toBe(201);
    storeB = made.body.id;
    both = (await signedInUser(app.db, { storeIds: [storeA, storeB] })).cookie;
    expect(await lastRow("settings.store_create", storeB)).toMatchObject({ storeId: storeB });
  });

  it("an order is its quote's store's; a payment the store that took it", async () => {
    const q = await finalizedQuote({ storeId: storeA });
    const ordered = await call<OrderBundle>(app, "POST", `/api/quotes/${q.quoteId}/order`, {
      cookie: inStore(both, storeB),
      body: { labId: lab.id },
    });
    expect(ordered.status).toBe(201);
    const orderId = ordered.body.order.id;
    expect((await lastRow("order.create", orderId)).storeId).toBe(storeA);
    expect((await lastRow("quote.order", q.quoteId)).storeId).toBe(storeA);
    for (const store of [storeB, storeA]) {
      const paid = await call(app, "POST", `/api/orders/${orderId}/payments`, {
        cookie: inStore(both, store),
        body: { amount: "10.00", method: "CASH" },
      });
      expect(paid.status).toBe(201);
      expect((await lastRow("order.payment", orderId)).storeId).toBe(store);
    }
  });

  it("a job's step is the store its glasses go to", async () => {
    const q = await finalizedQuote({ storeId: storeA });
    let o = (await call<OrderBundle>(app, "POST", `/api/quotes/${q.quoteId}/order`, {
      cookie: inStore(both, storeA),
      body: { labId: lab.id },
    })).body;
    const job = o.jobs[0];
    const moved = await call<OrderBundle>(app, "PUT", `/api/jobs/${job.id}/pickup-store`, {
      cookie: inStore(both, storeA),
      body: { storeId: storeB, version: job.version },
    });
    expect(moved.status).toBe(200);
    o = moved.body;
    expect((await lastRow("order.pickup_store", o.order.id)).storeId).toBe(storeB);
    const stepped = await call(app, "POST", `/api/jobs/${job.id}/step`, {
      cookie: inStore(both, storeA),
      body: { to: "SENT_TO_LAB", version: o.jobs[0].version },
    });
    expect(stepped.status).toBe(200);
    expect((await lastRow("order.job_step", o.order.id)).storeId).toBe(storeB);
  });

  it("a client, the chain's, has no store", async () => {
    const res = await call<{ client: { id: string } }>(app, "POST", "/api/clients", {
      cookie: inStore(both, storeB),
      body: { firstName: "Ana", lastName: "Chain" },
    });
    expect(res.status).toBe(201);
    expect((await lastRow("client.create", res.body.client.id)).storeId).toBeNull();
  });

  it("the API filters the log by store, or by the chain's own entries", async () => {
    const page = async (query: string) => {
      const res = await call<AuditPage>(app, "GET", `/api/admin/audit?${query}`, {
        cookie: owner,
      });
      expect(res.status).toBe(200);
      return res.body.entries;
    };
    const ofB = await page(`store=${storeB}`);
    expect(ofB.length).toBeGreaterThan(0);
    expect(ofB.every((e) => e.storeId === storeB)).toBe(true);
    expect(ofB.map((e) => e.action)).toEqual(
      expect.arrayContaining([
        "order.payment",
        "order.job_step",
        "order.pickup_store",
        "settings.store_create",
      ]),
    );
    const chain = await page("store=chain");
    expect(chain.every((e) => e.storeId === null)).toBe(true);
    expect(chain.map((e) => e.action)).toContain("client.create");
    const bad = await call(app, "GET", "/api/admin/audit?store=nope", { cookie: owner });
    expect(bad.status).toBe(400);
  });

  it("the page shows a Store column and filters by store", async () => {
    const html = await auditPage();
    expect(html).toContain('<th scope="col">Store</th>');
    expect(html).toContain('id="audit-store"');
    const codes = [...html.matchAll(/data-testid="audit-store">(.*?)<\/td>/g)].map((m) => m[1]);
    expect(codes).toContain("DT");
    expect(codes).toContain("MAIN");
    expect(codes.some((c) => c.includes("Chain"))).toBe(true);
    const onlyB = await auditPage(`?store=${storeB}`);
    const shown = [...onlyB.matchAll(/data-testid="audit-store">(.*?)<\/td>/g)].map((m) => m[1]);
    expect(shown.length).toBeGreaterThan(0);
    expect(new Set(shown)).toEqual(new Set(["DT"]));
    // The pager keeps the store filter.
    expect(onlyB).toContain(`option value="${storeB}" selected=""`);
  });
});
