// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
// The quote API: catalog reads, reading a quote and the builder's save.
import { describe, it } from "node:test";
import { expect } from "expect";
import { call } from "../helpers/test_app.ts";
import type { QuoteBundle, SaveResult } from "../../src/quotes/views.ts";
import type { CatalogItem } from "../../src/catalog/catalog.ts";
import { app, cents, cookie, frame, type Item, lensTypes } from "./quotes_fixture.ts";
import { materials, newQuote, packages, type SaveBody, twoOptions } from "./quotes_fixture.ts";
import { useQuotesApp } from "./quotes_fixture.ts";

useQuotesApp();

describe("catalog reads", () => {
  it("list active items in sort order with decimal prices; unknown section 404", async () => {
    expect(packages.length).toBeGreaterThan(2);
    expect(packages[0]).toMatchObject({ active: true });
    expect(packages[0].price).toMatch(/^\d+\.\d{2}$/);
    expect(typeof packages[0].description).toBe("string");
    const sorted = [...packages].sort((a, b) => a.sortOrder - b.sortOrder);
    expect(packages.map((p) => p.id)).toEqual(sorted.map((p) => p.id));
    await app.db.updateTable("addOns").set({ active: false }).where("name", "=", "UV protection")
      .execute();
    const addOns = await call<CatalogItem[]>(app, "GET", "/api/catalog/add-ons", { cookie });
    expect(addOns.body.map((a) => a.name)).not.toContain("UV protection");
    for (const section of ["ar-coatings", "materials"]) {
      expect((await call(app, "GET", `/api/catalog/${section}`, { cookie })).status).toBe(200);
    }
    expect((await call(app, "GET", "/api/catalog/frames", { cookie })).status).toBe(404);
    expect((await call(app, "GET", "/api/catalog/packages")).status).toBe(401);
  });
});

describe("GET /api/quotes/{id}", () => {
  it("answers quote, client, options, clientMeasurements and frameMeasurements", async () => {
    const bundle = await newQuote();
    expect(Object.keys(bundle).sort()).toEqual([
      "client",
      "clientMeasurements",
      "frameMeasurements",
      "options",
      "quote",
    ]);
    expect(bundle.quote).toMatchObject({
      status: "DRAFT",
      version: 1,
      isExpired: false,
      isClosed: false,
    });
    expect(bundle.quote.clientName).toMatch(/^Quinn Test/);
    expect(bundle.options.length).toBe(1);
    expect(bundle.clientMeasurements).toMatchObject({
      pdBinocular: "0",
      measurementsComplete: false,
    });
    expect((await call(app, "GET", `/api/quotes/${crypto.randomUUID()}`, { cookie })).status).toBe(
      404,
    );
    expect((await call(app, "GET", "/api/quotes/nope", { cookie })).status).toBe(404);
    expect((await call(app, "GET", `/api/quotes/${bundle.quote.id}`)).status).toBe(401);
  });
});

describe("PUT /api/quotes/{id} from the builder", () => {
  it("saves options and items, maps temp ids, and recomputes subtotals itself", async () => {
    const bundle = await newQuote();
    const body = twoOptions(bundle);
    // A browser lying about the subtotal changes nothing.
    body.options[0].subtotal = "1.00";
    const res = await call<SaveResult>(app, "PUT", `/api/quotes/${bundle.quote.id}`, {
      body,
      cookie,
    });
    expect(res.status).toBe(200);
    const saved = res.body;
    expect(saved.quote).toMatchObject({
      version: 2,
      opticianName: "Maria",
      internalNotes: "Prefers matte frames",
      status: "PENDING_MEASUREMENTS",
    });
    expect(Object.keys(saved.idMap)).toEqual(["temp-abc"]);
    expect(saved.options.map((o) => o.id)).toEqual([bundle.options[0].id, saved.idMap["temp-abc"]]);
    const [first, second] = saved.options;
    expect(cents(first.subtotal)).toBe(15000 + cents(packages[0].price));
    expect(cents(second.subtotal)).toBe(
      9999 + cents(lensTypes[0].price) + cents(materials[0].price) + 1250,
    );
    expect(second).toMatchObject({
      shipping: "15.00",
      adjustmentAmount: "-25.00",
      isChosen: false,
    });
    expect(second.items.find((i) => i.kind === "OTHER")?.qty).toBe(1);
    expect(second.frameMeasurements).toEqual({ segOc: "22/22" });
    expect(saved.frameMeasurements[second.id]).toEqual({ segOc: "22/22" });
  });

  it("goes ACTIVE when the client's measurements are complete", async () => {
    const bundle = await newQuote(true);
    const res = await call<SaveResult>(app, "PUT", `/api/quotes/${bundle.quote.id}`, {
      body: twoOptions(bundle),
      cookie,
    });
    expect(res.body.quote.status).toBe("ACTIVE");
  });

  it("deleting an option in the builder deletes it on save", async () => {
    const bundle = await newQuote();
    const saved = (await call<SaveResult>(app, "PUT", `/api/quotes/${bundle.quote.id}`, {
      body: twoOptions(bundle),
      cookie,
    })).body;
    const body = twoOptions(saved);
    body.options = [{ ...body.options[1], id: saved.options[1].id }];
    const res = await call<SaveResult>(app, "PUT", `/api/quotes/${bundle.quote.id}`, {
      body,
      cookie,
    });
    expect(res.status).toBe(200);
    expect(res.body.options.map((o) => o.id)).toEqual([saved.options[1].id]);
    const left = await app.db.selectFrom("quoteOptions").select("id")
      .where("quoteId", "=", bundle.quote.id).execute();
    expect(left.length).toBe(1);
  });

  it("applies the save check on the server too", async () => {
    const bundle = await newQuote();
    const body = twoOptions(bundle);
    body.opticianName = " ";
    body.options[1].items = body.options[1].items.filter((i) => i.kind !== "LENS");
    body.options[0].items[0].sku = "";
    const res = await call<{ message: string; errors: Record<string, string> }>(
      app,
      "PUT",
      `/api/quotes/${bundle.quote.id}`,
      { body, cookie },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Optician's Name is required");
    expect(Object.values(res.body.errors)).toEqual([
      "Optician's Name is required",
      "Everyday must have a frame with SKU",
      "OK-2 requires a lens type to be selected",
    ]);
    const after = await call<QuoteBundle>(app, "GET", `/api/quotes/${bundle.quote.id}`, { cookie });
    expect(after.body.quote.version).toBe(1);
  });

  it("rejects bad input with 400: bad amounts, kinds, ids, no options", async () => {
    const bundle = await newQuote();
    const bads: Array<(b: SaveBody) => unknown> = [
      (b) => ({ ...b, options: [] }),
      (b) => {
        b.options[0].items[0].unitPrice = "12.345";
        return b;
      },
      (b) => {
        b.options[0].items[0].unitPrice = "-5";
        return b;
      },
      (b) => {
        b.options[0].items[0].kind = "HAT";
        return b;
      },
      (b) => {
        b.options[0].id = "'; drop table quotes; --";
        return b;
      },
      (b) => ({ ...b, version: "1" }),
      (b) => {
        b.options[1].shipping = "free";
        return b;
      },
    ];
    for (const make of bads) {
      const res = await call(app, "PUT", `/api/quotes/${bundle.quote.id}`, {
        body: make(twoOptions(bundle)),
        cookie,
      });
      expect(res.status).toBe(400);
    }
  });

  it("refuses totals a NUMERIC(12,2) cannot hold with a 400 naming the field", async () => {
    const bundle = await newQuote(true);
    const url = `/api/quotes/${bundle.quote.id}`;
    // Each item is valid (largest price, largest quantity); together they are not.
    const big = (n: number) =>
      Array.from(
        { length: n },
        () => ({ kind: "OTHER", name: "Lot", unitPrice: "999999.99", qty: 999 }),
      );
    const body = (options: Array<{ items: Item[]; shipping?: string }>) => ({
      version: bundle.quote.version,
      opticianName: "Maria",
      internalNotes: "",
      options: options.map((o, i) => ({
        id: i === 0 ? bundle.options[0].id : `temp-${i}`,
        ...o,
        items: [frame(`SKU-${i}`, "0"), ...o.items],
      })),
    });
    type Refusal = { message: string; errors: Record<string, string> };
    const subtotal = await call<Refusal>(app, "PUT", url, {
      body: body([{ items: big(49) }]),
      cookie,
    });
    expect(subtotal.status).toBe(400);
    expect(Object.keys(subtotal.body.errors)).toEqual(["options.0.subtotal"]);
    expect(subtotal.body.message).toBe(
      "SKU-0: the subtotal is more than the largest amount a quote can hold ($9,999,999,999.99)",
    );
    // 10 lots plus 10 units: a subtotal of 9,999,999,900.00 fits; shipping tips the total over.
    const nearly = [...big(10), { kind: "OTHER", name: "Ten", unitPrice: "999999.99", qty: 10 }];
    const total = await call<Refusal>(app, "PUT", url, {
      body: body([{ items: nearly, shipping: "100.00" }]),
      cookie,
    });
    expect([total.status, Object.keys(total.body.errors)]).toEqual([400, ["options.0.total"]]);
    const together = await call<Refusal>(app, "PUT", url, {
      body: body([{ items: big(10) }, { items: big(10) }]),
      cookie,
    });
    expect([together.status, Object.keys(together.body.errors)]).toEqual([400, ["total"]]);
    expect((await call<QuoteBundle>(app, "GET", url, { cookie })).body.quote.version)
      .toBe(bundle.quote.version);
    // Exactly the largest amount is fine, and the lists that add totals up still answer.
    const exact = await call<SaveResult>(app, "PUT", url, {
      body: body([{ items: nearly, shipping: "99.99" }]),
      cookie,
    });
    expect(exact.status).toBe(200);
    expect(exact.body.options[0].subtotal).toBe("9999999900.00");
    const list = await call<Array<{ id: string; total: string }>>(
      app,
      "GET",
      "/api/quotes/recent",
      {
        cookie,
      },
    );
    expect(list.body.find((q) => q.id === bundle.quote.id)?.total).toBe("9999999999.99");
    expect((await call(app, "GET", "/api/quotes", { cookie })).status).toBe(200);
  });

  it("refuses a save made from a stale version with 409, losing nothing already saved", async () => {
    const bundle = await newQuote();
    const first = await call<SaveResult>(app, "PUT", `/api/quotes/${bundle.quote.id}`, {
      body: twoOptions(bundle),
      cookie,
    });
    expect(first.status).toBe(200);
    const stale = twoOptions(bundle);
    stale.opticianName = "Someone else";
    const res = await call<{ message: string }>(app, "PUT", `/api/quotes/${bundle.quote.id}`, {
      body: stale,
      cookie,
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/changed elsewhere.*Reload/);
    const now = await call<QuoteBundle>(app, "GET", `/api/quotes/${bundle.quote.id}`, { cookie });
    expect(now.body.quote).toMatchObject({ version: 2, opticianName: "Maria" });
    expect(now.body.options.length).toBe(2);
  });

  it("never moves another quote's option", async () => {
    const a = await newQuote();
    const b = await newQuote();
    const body = twoOptions(a);
    body.options[1].id = b.options[0].id;
    const res = await call<SaveResult>(app, "PUT", `/api/quotes/${a.quote.id}`, { body, cookie });
    expect(res.status).toBe(200);
    expect(res.body.options[1].id).not.toBe(b.options[0].id);
    const other = await call<QuoteBundle>(app, "GET", `/api/quotes/${b.quote.id}`, { cookie });
    expect(other.body.options.map((o) => o.id)).toEqual([b.options[0].id]);
  });
});
