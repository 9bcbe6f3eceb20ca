// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
import { describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import { call, signedInUser, type TestApp } from "../helpers/test_app.ts";
import type { ClientSummary, CreatedClient } from "../../src/clients/views.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";
import type { HistoryEntry } from "../../src/audit/describe.ts";
import { saveBody } from "../helpers/route_table.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp, cookie: string;

useTestApp(async (started) => {
  ({ app } = started);
  ({ cookie: cookie } = await signedInUser(app.db, { firstName: "Maria" }));
});

async function api<T>(method: string, path: string, body?: unknown) {
  const res = await call<T>(app, method, path, { body, cookie });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

async function newClient(lastName: string) {
  return await api<CreatedClient>("POST", "/api/clients", { firstName: "Ret", lastName });
}

describe("returning clients", () => {
  it("a new quote starts from the last quote's PD, SEG/OC and extras, to be confirmed", async () => {
    const { client, quote: first } = await newClient("Carry");
    await api("PUT", `/api/clients/${client.id}/measurements`, {
      pdBinocular: "63.5",
      pdNear: "60",
      measurementsComplete: true,
    });
    await app.db.updateTable("clientMeasurements")
      .set({ extras: sql`'{"Vertex":"12 mm"}'::jsonb` }).where("clientId", "=", client.id)
      .execute();
    const bundle = await api<QuoteBundle>("GET", `/api/quotes/${first.id}`);
    const body = saveBody(bundle);
    body.options[0].segOc = "21/19";
    await api("PUT", `/api/quotes/${first.id}`, body);
    const firstSaved = await api<QuoteBundle>("GET", `/api/quotes/${first.id}`);
    // The first quote of a client has nothing to carry.
    expect(firstSaved.carryOver).toBeUndefined();

    const second = await api<{ id: string }>("POST", "/api/quotes", { clientId: client.id });
    const carried = await api<QuoteBundle>("GET", `/api/quotes/${second.id}`);
    expect(carried.options).toHaveLength(1);
    expect(carried.options[0].frameMeasurements.segOc).toBe("21/19");
    expect(carried.carryOver).toMatchObject({
      sourceQuoteId: first.id,
      sourceQuoteNumber: firstSaved.quote.quoteNumber,
      sourceDate: firstSaved.quote.createdAt,
      pdBinocular: "63.5",
      pdNear: "60",
      segOc: "21/19",
      extras: { Vertex: "12 mm" },
      confirmedAt: null,
    });

    const confirmed = await api<NonNullable<QuoteBundle["carryOver"]>>(
      "POST",
      `/api/quotes/${second.id}/carry-over/confirm`,
    );
    expect(confirmed.confirmedAt).not.toBe(null);
    expect(confirmed.confirmedBy).toMatch(/^user/);
    const history = await api<HistoryEntry[]>("GET", `/api/quotes/${second.id}/history`);
    expect(history.map((h) => h.summary)).toContain("Carried-over measurements confirmed");

    // A third quote takes from the newest one (the second), by its number.
    const third = await api<{ id: string }>("POST", "/api/quotes", { clientId: client.id });
    const thirdBundle = await api<QuoteBundle>("GET", `/api/quotes/${third.id}`);
    const secondBundle = await api<QuoteBundle>("GET", `/api/quotes/${second.id}`);
    expect(thirdBundle.carryOver?.sourceQuoteNumber).toBe(secondBundle.quote.quoteNumber);
    expect(thirdBundle.options[0].frameMeasurements.segOc).toBe("21/19");
  });

  it("carries nothing when the last visit recorded no measurements", async () => {
    const { client } = await newClient("Blank");
    const second = await api<{ id: string }>("POST", "/api/quotes", { clientId: client.id });
    const bundle = await api<QuoteBundle>("GET", `/api/quotes/${second.id}`);
    expect(bundle.carryOver).toBeUndefined();
    expect(bundle.options[0].frameMeasurements.segOc).toBe("");
    const res = await call(app, "POST", `/api/quotes/${second.id}/carry-over/confirm`, { cookie });
    expect(res.status).toBe(404);
  });

  it("refuses to confirm on a finalized quote and without a session", async () => {
    const { client, quote } = await newClient("Final");
    await api("PUT", `/api/clients/${client.id}/measurements`, {
      pdBinocular: "62",
      pdNear: "59",
      measurementsComplete: true,
    });
    await api(
      "PUT",
      `/api/quotes/${quote.id}`,
      saveBody(await api("GET", `/api/quotes/${quote.id}`)),
    );
    const second = await api<{ id: string }>("POST", "/api/quotes", { clientId: client.id });
    const path = `/api/quotes/${second.id}/carry-over/confirm`;
    expect((await call(app, "POST", path)).status).toBe(401);
    await api(
      "PUT",
      `/api/quotes/${second.id}`,
      saveBody(await api("GET", `/api/quotes/${second.id}`)),
    );
    await api("POST", `/api/quotes/${second.id}/finalize`);
    const res = await call<{ message: string }>(app, "POST", path, { cookie });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain("finalized");
  });

  it("the client list shows the last visit and the number of quotes", async () => {
    const { client, quote } = await newClient("Visits");
    const second = await api<{ id: string }>("POST", "/api/quotes", { clientId: client.id });
    const latest = new Date("2026-02-03T15:00:00Z");
    await app.db.updateTable("quotes").set({ createdAt: latest } as never)
      .where("id", "=", second.id).execute();
    await app.db.updateTable("quotes").set({ createdAt: new Date("2025-01-01T10:00:00Z") } as never)
      .where("id", "=", quote.id).execute();
    const list = await api<ClientSummary[]>("GET", "/api/clients/search?q=Visits");
    const row = list.find((c) => c.id === client.id)!;
    expect(row.quoteCount).toBe(2);
    expect(row.lastVisit).toBe(latest.toISOString());

    const { client: none } = await newClient("Novisit");
    await app.db.deleteFrom("quotes").where("clientId", "=", none.id).execute();
    const all = await api<ClientSummary[]>("GET", "/api/clients?limit=200");
    const empty = all.find((c) => c.id === none.id)!;
    expect(empty.quoteCount).toBe(0);
    expect(empty.lastVisit).toBe(null);
  });
});
