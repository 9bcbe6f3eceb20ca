import { describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import type { TestApp, TestUser } from "../helpers/test_app.ts";
import { call, createTestUser, sessionCookieFor } from "../helpers/test_app.ts";
import type { HistoryEntry } from "../../src/audit/describe.ts";
import type { AuditPage } from "../../src/audit/audit_log.ts";
import type { QuoteBundle } from "../../src/quotes/views.ts";
import type { CreatedClient } from "../../src/clients/views.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp, staff: TestUser, cookie: string, ownerCookie: string, adminCookie: string;

useTestApp(async (started) => {
  ({ app } = started);
  staff = await createTestUser(app.db, { username: "maria_h" });
  cookie = await sessionCookieFor(app.db, staff.id);
  ownerCookie = await sessionCookieFor(
    app.db,
    (await createTestUser(app.db, { role: "OWNER" })).id,
  );
  adminCookie = await sessionCookieFor(
    app.db,
    (await createTestUser(app.db, { role: "ADMIN" })).id,
  );
});

async function newClient(init: Record<string, unknown> = {}) {
  const res = await call<CreatedClient>(app, "POST", "/api/clients", {
    body: { firstName: "Hana", lastName: "Story", email: "hana@example.com", ...init },
    cookie,
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function history(path: string): Promise<HistoryEntry[]> {
  const res = await call<HistoryEntry[]>(app, "GET", path, { cookie });
  expect(res.status).toBe(200);
  return res.body;
}

const frame = (sku: string, price: string) => ({
  kind: "FRAME",
  name: "Frame",
  sku,
  unitPrice: price,
  qty: 1,
});

async function bundle(id: string) {
  return (await call<QuoteBundle>(app, "GET", `/api/quotes/${id}`, { cookie })).body;
}

/** A measured client's quote saved with one frame: ACTIVE, ready for the tablet. */
async function activeQuote(sku: string) {
  const { client, quote } = await newClient();
  await call(app, "PUT", `/api/clients/${client.id}/measurements`, {
    body: { pdBinocular: "62", pdNear: "60", measurementsComplete: true },
    cookie,
  });
  const b = await bundle(quote.id);
  await call(app, "PUT", `/api/quotes/${quote.id}`, {
    body: {
      version: b.quote.version,
      opticianName: "Maria",
      internalNotes: "",
      options: [{ id: b.options[0].id, items: [frame(sku, "100")] }],
    },
    cookie,
  });
  return quote;
}

describe("client history", () => {
  it("shows each changed field old → new, with who and when; unchanged fields are not listed", async () => {
    const { client } = await newClient({ city: "Austin" });
    const put = await call(app, "PUT", `/api/clients/${client.id}`, {
      body: {
        firstName: "Hana",
        lastName: "Story-Lee",
        email: "hana.lee@example.com",
        city: "Austin",
        zip: "78701",
      },
      cookie,
    });
    expect(put.status).toBe(200);
    const entries = await history(`/api/clients/${client.id}/history`);
    expect(entries.map((e) => e.summary)).toEqual([
      "Client details changed",
      "Client created",
    ]);
    const [change] = entries;
    expect(change.actor).toBe("maria_h");
    expect(Date.now() - new Date(change.at).getTime()).toBeLessThan(60_000);
    expect(change.changes).toEqual([
      { label: "Last name", from: "Story", to: "Story-Lee" },
      { label: "Email", from: "hana@example.com", to: "hana.lee@example.com" },
      { label: "ZIP", from: "(empty)", to: "78701" },
    ]);
    // The e-mail-only edit (the builder's e-mail dialog) is recorded the same way.
    await call(app, "PUT", `/api/clients/${client.id}`, {
      body: { email: "h@example.com" },
      cookie,
    });
    const [latest] = await history(`/api/clients/${client.id}/history`);
    expect(latest.changes).toEqual([
      { label: "Email", from: "hana.lee@example.com", to: "h@example.com" },
    ]);
  });

  it("records measurements old → new, and the quotes they moved to Active", async () => {
    const { client, quote } = await newClient();
    const b = await bundle(quote.id);
    await call(app, "PUT", `/api/quotes/${quote.id}`, {
      body: {
        version: b.quote.version,
        opticianName: "Maria",
        internalNotes: "",
        options: [{ id: b.options[0].id, items: [frame("F-1", "100")] }],
      },
      cookie,
    });
    expect((await bundle(quote.id)).quote.status).toBe("PENDING_MEASUREMENTS");
    await call(app, "PUT", `/api/clients/${client.id}/measurements`, {
      body: { pdBinocular: "62.5", pdNear: "59", measurementsComplete: true },
      cookie,
    });
    const [measured] = await history(`/api/clients/${client.id}/history`);
    expect(measured.summary).toBe("Measurements changed");
    expect(measured.changes).toEqual([
      { label: "PD distance", from: "0", to: "62.5" },
      { label: "PD near", from: "0", to: "59" },
      { label: "Measurements complete", from: "No", to: "Yes" },
    ]);
    const [moved] = await history(`/api/quotes/${quote.id}/history`);
    expect(moved.summary).toBe("Status changed: measurements were completed");
    expect(moved.changes).toEqual([
      { label: "Status", from: "Pending Measurements", to: "Active" },
    ]);
  });

  it("404 for an unknown client, 401 signed out", async () => {
    const missing = await call(app, "GET", `/api/clients/${crypto.randomUUID()}/history`, {
      cookie,
    });
    expect(missing.status).toBe(404);
    expect((await call(app, "GET", `/api/clients/not-a-uuid/history`, { cookie })).status)
      .toBe(404);
    const { client } = await newClient();
    const out = await call(app, "GET", `/api/clients/${client.id}/history`);
    expect(out.status).toBe(401);
  });
});

describe("quote history", () => {
  it("summarises option changes as counts, each option and item, and totals; notes are never stored", async () => {
    const { client, quote } = await newClient();
    await call(app, "PUT", `/api/clients/${client.id}/measurements`, {
      body: { pdBinocular: "62", pdNear: "60", measurementsComplete: true },
      cookie,
    });
    let b = await bundle(quote.id);
    const secretNotes = "Client mentioned a private matter";
    const first = await call(app, "PUT", `/api/quotes/${quote.id}`, {
      body: {
        version: b.quote.version,
        opticianName: "Maria Lopez",
        internalNotes: secretNotes,
        options: [
          { id: b.options[0].id, items: [frame("A-1", "100.10")] },
          { id: "temp-1", items: [frame("B-2", "0.20")], shipping: "5" },
        ],
      },
      cookie,
    });
    expect(first.status).toBe(200);
    b = await bundle(quote.id);
    // Second save: the first option's price changes, the second goes, a third comes.
    await call(app, "PUT", `/api/quotes/${quote.id}`, {
      body: {
        version: b.quote.version,
        opticianName: "Maria Lopez",
        internalNotes: secretNotes,
        options: [
          { id: b.options[0].id, items: [frame("A-1", "120.00")], isChosen: true },
          { id: "temp-2", items: [frame("C-3", "80")] },
        ],
      },
      cookie,
    });
    const entries = await history(`/api/quotes/${quote.id}/history`);
    expect(entries.map((e) => e.summary)).toEqual([
      "Quote saved (version 3)",
      "Quote saved (version 2)",
      "Quote created",
    ]);
    expect(entries[1].changes).toEqual([
      { label: "Status", from: "Draft", to: "Active" },
      { label: "Optician", from: "(empty)", to: "Maria Lopez" },
      { label: "Internal notes", text: "edited (the text is not kept in history)" },
      { label: "Options", text: "1 added, 1 changed (2 options now)" },
      { label: 'Option 1 · Frame "Frame" (A-1)', text: "added ($100.10 × 1)" },
      { label: "Option 2", text: "added (total $5.20)" },
      { label: "Total", from: "$0.00", to: "$100.10" },
    ]);
    expect(entries[0].changes).toEqual([
      { label: "Options", text: "1 added, 1 removed, 1 changed (2 options now)" },
      { label: "Option 2", text: "removed (total $5.20)" },
      { label: "Option 1 · Chosen", from: "No", to: "Yes" },
      { label: 'Option 1 · Frame "Frame" (A-1) · Price', from: "$100.10", to: "$120.00" },
      { label: "Option 2", text: "added (total $80.00)" },
      { label: "Total", from: "$100.10", to: "$120.00" },
    ]);
    const stored = await app.db.selectFrom("auditLog").select(sql<string>`details::text`.as("d"))
      .where("entityId", "=", quote.id).execute();
    for (const row of stored) expect(row.d).not.toContain("private matter");
  });

  it("records each status transition from → to: accept, finalize, close, reactivate", async () => {
    const quote = await activeQuote("A-1");
    const b = await bundle(quote.id);
    const accepted = await call(app, "PUT", `/api/quotes/${quote.id}`, {
      body: { version: b.quote.version, options: [{ id: b.options[0].id, isChosen: true }] },
      cookie,
    });
    expect(accepted.status).toBe(200);
    expect((await call(app, "POST", `/api/quotes/${quote.id}/finalize`, { cookie })).status)
      .toBe(200);
    const entries = await history(`/api/quotes/${quote.id}/history`);
    expect(entries.slice(0, 2).map((e) => [e.summary, e.changes[0]])).toEqual([
      ["Quote finalized", { label: "Status", from: "Accepted", to: "Finalized" }],
      [
        "Client confirmed the selection on the tablet",
        { label: "Status", from: "Active", to: "Accepted" },
      ],
    ]);
    const row = await app.db.selectFrom("quotes").select(["acceptedAt", "finalizedAt"])
      .where("id", "=", quote.id).executeTakeFirstOrThrow();
    expect(row.acceptedAt).toBeInstanceOf(Date);
    expect(row.finalizedAt).toBeInstanceOf(Date);

    const other = await newClient();
    await call(app, "POST", `/api/quotes/${other.quote.id}/close`, {
      body: { reason: "Bought elsewhere" },
      cookie,
    });
    await call(app, "POST", `/api/quotes/${other.quote.id}/reactivate`, { cookie });
    const [reactivated, closed] = await history(`/api/quotes/${other.quote.id}/history`);
    expect(closed.summary).toBe("Quote closed");
    expect(closed.changes).toEqual([
      { label: "Status", from: "Draft", to: "Closed" },
      { label: "Reason", text: "Bought elsewhere" },
    ]);
    expect(reactivated.summary).toBe("Quote reactivated");
    expect(reactivated.changes[0]).toEqual({ label: "Status", from: "Closed", to: "Draft" });
    expect(reactivated.changes[1].label).toBe("Expires");
  });
});

describe("what a history shows to every optician", () => {
  it("keeps staff IP addresses out of a quote's history; the owner's audit page has them", async () => {
    const quote = await activeQuote("IP-1");
    // Handing the tablet over records where from, for the owner.
    const handing = await sessionCookieFor(app.db, staff.id);
    const handed = await call(app, "POST", "/api/kiosk/hand-over", {
      body: { kind: "QUOTE", quoteId: quote.id },
      cookie: handing,
      from: "127.0.0.77",
    });
    expect(handed.status).toBe(201);
    const entries = await history(`/api/quotes/${quote.id}/history`);
    const handOver = entries.find((e) => e.action === "kiosk.start")!;
    expect(handOver).toBeDefined();
    expect(JSON.stringify(entries)).not.toContain("127.0.0.77");
    expect(handOver.changes.map((c) => c.label)).not.toContain("ip");
    const audit = await call<AuditPage>(app, "GET", "/api/admin/audit", {
      cookie: ownerCookie,
    });
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.body)).toContain("127.0.0.77");
  });
});

describe("audit log API (owner only)", () => {
  it("refuses opticians and admins, answers owners", async () => {
    expect((await call(app, "GET", "/api/admin/audit", { cookie })).status).toBe(403);
    expect((await call(app, "GET", "/api/admin/audit", { cookie: adminCookie })).status).toBe(
      403,
    );
    expect((await call(app, "GET", "/api/admin/audit")).status).toBe(401);
    const page = await call<AuditPage>(app, "GET", "/api/admin/audit", { cookie: ownerCookie });
    expect(page.status).toBe(200);
    expect(page.body.entries.length).toBeGreaterThan(0);
    expect(page.body.newer).toBeNull();
  });

  it("pages by keyset through entries that share one timestamp, each exactly once", async () => {
    // 130 entries written in one statement share `at`: only the id orders them.
    await sql`INSERT INTO audit_log (at, user_id, actor, action, entity_type, entity_id, details)
      SELECT timestamptz '2021-03-04 05:06:07.123456+00', ${staff.id}::uuid, 'maria_h',
        'settings.update', 'settings', g::text, '{}'::jsonb
      FROM generate_series(1, 130) AS g`.execute(app.db);
    const base = "/api/admin/audit?kind=settings&from=2021-03-01&to=2021-03-31";
    const seen: string[] = [];
    const cursors: (string | null)[] = [];
    let url = base;
    for (let i = 0; i < 5; i++) {
      const res = await call<AuditPage>(app, "GET", url, { cookie: ownerCookie });
      expect(res.status).toBe(200);
      seen.push(...res.body.entries.map((e) => e.entityId!));
      cursors.push(res.body.newer);
      if (!res.body.older) break;
      url = `${base}&before=${encodeURIComponent(res.body.older)}`;
    }
    expect(seen.length).toBe(130);
    expect(new Set(seen).size).toBe(130);
    // Newest first: the highest id (the last generated) comes first.
    expect(seen[0]).toBe("130");
    expect(seen[129]).toBe("1");
    expect(cursors[0]).toBeNull();
    // "Newer" from the third page gives back exactly the second page.
    const second = await call<AuditPage>(
      app,
      "GET",
      `${base}&before=${
        encodeURIComponent(
          (await call<AuditPage>(app, "GET", base, { cookie: ownerCookie })).body.older!,
        )
      }`,
      { cookie: ownerCookie },
    );
    const third = await call<AuditPage>(
      app,
      "GET",
      `${base}&before=${encodeURIComponent(second.body.older!)}`,
      { cookie: ownerCookie },
    );
    const back = await call<AuditPage>(
      app,
      "GET",
      `${base}&after=${encodeURIComponent(third.body.newer!)}`,
      { cookie: ownerCookie },
    );
    expect(back.body.entries.map((e) => e.entityId)).toEqual(
      second.body.entries.map((e) => e.entityId),
    );
  });

  it("filters by user, kind and date range; bad filters are a clear 400", async () => {
    const byUser = await call<AuditPage>(
      app,
      "GET",
      `/api/admin/audit?user=${staff.id}&kind=client`,
      { cookie: ownerCookie },
    );
    expect(byUser.body.entries.length).toBeGreaterThan(0);
    for (const e of byUser.body.entries) {
      expect(e.actor).toBe("maria_h");
      expect(e.kind).toBe("client");
    }
    const none = await call<AuditPage>(
      app,
      "GET",
      "/api/admin/audit?from=2020-01-01&to=2020-12-31",
      {
        cookie: ownerCookie,
      },
    );
    expect(none.body.entries).toEqual([]);
    const bad = await call(app, "GET", "/api/admin/audit?from=2021-02-30", { cookie: ownerCookie });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: "Dates must be real days written as YYYY-MM-DD" });
    const reversed = await call(app, "GET", "/api/admin/audit?from=2021-03-02&to=2021-03-01", {
      cookie: ownerCookie,
    });
    expect(reversed.status).toBe(400);
    const kind = await call(app, "GET", "/api/admin/audit?kind=secrets", { cookie: ownerCookie });
    expect(kind.status).toBe(400);
    const cursor = await call(app, "GET", "/api/admin/audit?before=%27%3Bdrop", {
      cookie: ownerCookie,
    });
    expect(cursor.status).toBe(400);
  });

  it("the /admin/audit page is for owners; others get the unauthorized page", async () => {
    const page = async (c: string) =>
      await fetch(`${app.baseUrl}/admin/audit?kind=client`, { headers: { cookie: c } });
    const optician = await page(cookie);
    expect(optician.status).toBe(403);
    expect(await optician.text()).toContain("Owner access required");
    expect((await page(adminCookie)).status).toBe(403);
    await (await page(adminCookie)).body?.cancel();
    const owner = await page(ownerCookie);
    expect(owner.status).toBe(200);
    const html = await owner.text();
    expect(html).toContain("Audit Log");
    expect(html).toContain("Client details changed");
    // A plain form and links: the staff bar's search box is the page's only island.
    const islands = [...html.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]);
    expect(islands.filter((name) => name !== "SearchBox")).toEqual([]);
  });
});

/** The owner's audit log, newest first, for one kind. */
async function audit(kind: string): Promise<HistoryEntry[]> {
  const res = await call<AuditPage>(app, "GET", `/api/admin/audit?kind=${kind}`, {
    cookie: ownerCookie,
  });
  expect(res.status).toBe(200);
  return res.body.entries;
}

async function savedQuote(price = "100.00") {
  const { client, quote } = await newClient();
  await call(app, "PUT", `/api/clients/${client.id}/measurements`, {
    body: { pdBinocular: "62", pdNear: "60", measurementsComplete: true },
    cookie,
  });
  const b = await bundle(quote.id);
  const saved = await call(app, "PUT", `/api/quotes/${quote.id}`, {
    body: {
      version: b.quote.version,
      opticianName: "Maria",
      internalNotes: "",
      options: [{ id: b.options[0].id, label: "Everyday", items: [frame("A-1", price)] }],
    },
    cookie,
  });
  expect(saved.status).toBe(200);
  return { client, quote: await bundle(quote.id) };
}

describe("history of what a manager asks about (issue 30)", () => {
  it("a quote save names each option and item changed, with prices old → new", async () => {
    const { quote: b } = await savedQuote("100.10");
    const res = await call(app, "PUT", `/api/quotes/${b.quote.id}`, {
      body: {
        version: b.quote.version,
        opticianName: "Maria",
        internalNotes: "",
        options: [{
          id: b.options[0].id,
          label: "Everyday",
          shipping: "12,5",
          items: [frame("A-1", "120.00"), { ...frame("C-3", "35"), qty: 2 }],
        }, { id: "temp-9", label: "Sport", items: [frame("S-1", "80")] }],
      },
      cookie,
    });
    expect(res.status).toBe(200);
    const [entry] = await history(`/api/quotes/${b.quote.id}/history`);
    expect(entry.summary).toBe("Quote saved (version 3)");
    expect(entry.changes).toEqual([
      { label: "Options", text: "1 added, 1 changed (2 options now)" },
      {
        label: 'Option 1 "Everyday" · Shipping',
        from: "$0.00",
        to: "$12.50",
      },
      {
        label: 'Option 1 "Everyday" · Frame "Frame" (A-1) · Price',
        from: "$100.10",
        to: "$120.00",
      },
      { label: 'Option 1 "Everyday" · Frame "Frame" (C-3)', text: "added ($35.00 × 2)" },
      { label: 'Option 2 "Sport"', text: "added (total $80.00)" },
      { label: "Total", from: "$100.10", to: "$202.50" },
    ]);
  });

  it("a SEG/OC edit is recorded with its option, old → new", async () => {
    const { quote: b } = await savedQuote();
    const optionId = b.options[0].id;
    for (const segOc of ["22", "24"]) {
      const res = await call(app, "PUT", `/api/quote-options/${optionId}/measurements`, {
        body: { segOc },
        cookie,
      });
      expect(res.status).toBe(200);
    }
    // The same value again changes nothing and records nothing.
    await call(app, "PUT", `/api/quote-options/${optionId}/measurements`, {
      body: { segOc: "24" },
      cookie,
    });
    const entries = await history(`/api/quotes/${b.quote.id}/history`);
    expect(entries.slice(0, 2).map((e) => [e.summary, e.actor, e.changes])).toEqual([
      ["SEG/OC changed", "maria_h", [{
        label: 'Option 1 "Everyday" · SEG/OC',
        from: "22",
        to: "24",
      }]],
      ["SEG/OC changed", "maria_h", [{
        label: 'Option 1 "Everyday" · SEG/OC',
        from: "(empty)",
        to: "22",
      }]],
    ]);
    expect(entries[2].summary).toBe("Quote saved (version 2)");
  });

  it("a prescription edit keeps the old and the new values (its notes only as edited)", async () => {
    const { client } = await newClient();
    const rx = {
      dateWritten: "2025-02-10",
      prescriber: "Dr. Okafor",
      expiresOn: "2027-02-10",
      notes: "Computer use",
      rightEye: { sphere: "-2.25", cylinder: "-0.75", axis: 180, add: "+1.50" },
      leftEye: { sphere: "+1.00" },
    };
    const added = await call<{ id: string }>(
      app,
      "POST",
      `/api/clients/${client.id}/prescriptions`,
      { body: rx, cookie },
    );
    expect(added.status).toBe(201);
    const edited = await call(
      app,
      "PUT",
      `/api/clients/${client.id}/prescriptions/${added.body.id}`,
      {
        body: {
          ...rx,
          notes: "Private remark",
          rightEye: { ...rx.rightEye, sphere: "-2.50", axis: 175 },
          leftEye: { sphere: "+1.00", prism: { amount: "1.5", base: "in" } },
        },
        cookie,
      },
    );
    expect(edited.status).toBe(200);
    const [entry, first] = await history(`/api/clients/${client.id}/history`);
    expect(entry.summary).toBe("Prescription changed: written 2025-02-10 by Dr. Okafor");
    expect(entry.changes).toEqual([
      { label: "Right eye sphere", from: "-2.25", to: "-2.50" },
      { label: "Right eye axis", from: "180", to: "175" },
      { label: "Left eye prism", from: "(empty)", to: "1.50 in" },
      { label: "Notes", text: "edited (the text is not kept in history)" },
    ]);
    expect(first.summary).toBe("Prescription added: written 2025-02-10 by Dr. Okafor");
    expect(first.changes).toContainEqual({
      label: "Right eye cylinder",
      from: "(empty)",
      to: "-0.75",
    });
    const stored = await app.db.selectFrom("auditLog").select(sql<string>`details::text`.as("d"))
      .where("entityId", "=", client.id).execute();
    for (const row of stored) expect(row.d).not.toContain("Private remark");
  });

  it("a catalog edit and a CSV import keep each field old → new", async () => {
    const created = await call<{ id: string }>(app, "POST", "/api/admin/materials", {
      body: { name: "Trivex", price: "49,00", sortOrder: 4 },
      cookie: adminCookie,
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const put = await call(app, "PUT", `/api/admin/materials/${id}`, {
      body: { name: "Trivex HD", price: "59.50", sortOrder: 4, active: true },
      cookie: adminCookie,
    });
    expect(put.status).toBe(200);
    const csv = `id,name,price,active,sort_order\r\n${id},Trivex HD,64.00,false,4\r\n` +
      ",Glass,20,true,9\r\n";
    const imported = await fetch(`${app.baseUrl}/api/admin/materials/import`, {
      method: "POST",
      headers: { cookie: adminCookie, "content-type": "text/csv" },
      body: csv,
    });
    expect(imported.status).toBe(200);
    await imported.body?.cancel();
    const [importEntry, update, create] = await audit("catalog");
    expect(importEntry.summary).toBe("Catalog CSV imported: 1 added, 1 changed");
    expect(importEntry.changes).toEqual([
      { label: 'Item "Glass"', text: "added" },
      { label: 'Item "Glass" · Name', from: "(empty)", to: "Glass" },
      { label: 'Item "Glass" · Price', from: "(empty)", to: "$20.00" },
      { label: 'Item "Glass" · Active', from: "(empty)", to: "Yes" },
      { label: 'Item "Glass" · Sort order', from: "(empty)", to: "9" },
      { label: 'Item "Trivex HD" · Price', from: "$59.50", to: "$64.00" },
      { label: 'Item "Trivex HD" · Active', from: "Yes", to: "No" },
    ]);
    expect(update.summary).toBe("Catalog item changed: Trivex HD");
    expect(update.changes).toEqual([
      { label: "Name", from: "Trivex", to: "Trivex HD" },
      { label: "Price", from: "$49.00", to: "$59.50" },
    ]);
    expect(create.summary).toBe("Catalog item added: Trivex");
    expect(create.changes).toContainEqual({ label: "Price", from: "(empty)", to: "$49.00" });
  });

  it("a settings save keeps each value old → new; the SMTP password only as changed", async () => {
    const res = await call(app, "PUT", "/api/admin/settings", {
      body: {
        storeName: "Northside Eyewear",
        quoteExpirationDays: 45,
        smtpHost: "smtp.northside.test",
        smtpPassword: "hunter2-very-secret",
      },
      cookie: ownerCookie,
    });
    expect(res.status).toBe(200);
    const [entry] = await audit("settings");
    expect(entry.summary).toBe("Settings changed");
    expect(entry.changes).toEqual([
      { label: "Store name", from: "(empty)", to: "Northside Eyewear" },
      { label: "Quote expiration days", from: "30", to: "45" },
      { label: "SMTP host", from: "(empty)", to: "smtp.northside.test" },
      { label: "SMTP password", text: "changed (the value is not kept in history)" },
    ]);
    const stored = await app.db.selectFrom("auditLog").select(sql<string>`details::text`.as("d"))
      .where("action", "=", "settings.update").execute();
    for (const row of stored) expect(row.d).not.toContain("hunter2");
  });

  it("a role change names the user and the new role", async () => {
    const alice = await createTestUser(app.db, { username: "alice_r" });
    const res = await call(app, "PUT", `/api/admin/users/${alice.id}`, {
      body: { role: "ADMIN" },
      cookie: ownerCookie,
    });
    expect(res.status).toBe(200);
    const entry = (await audit("user")).find((e) => e.action === "user.change_role")!;
    expect(entry.summary).toBe("Role changed: alice_r is now Admin");
    expect(entry.changes).toEqual([{ label: "Role", from: "Authorized User", to: "Admin" }]);
  });

  it("a user's whole life is in the log: added, renamed, password reset by an admin, deleted", async () => {
    const created = await call<{ id: string }>(app, "POST", "/api/admin/users/invite", {
      body: {
        email: "lena@store.test",
        firstName: "Lena",
        lastName: "Life",
        username: "lena_life",
        password: "secret1",
        role: "AUTHORIZED_USER",
      },
      cookie: ownerCookie,
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    // One after the other: the log's order is the point.
    const steps = [
      () =>
        call(app, "PUT", `/api/admin/users/${id}`, {
          body: { username: "lena_renamed" },
          cookie: ownerCookie,
        }),
      () =>
        call(app, "PUT", `/api/admin/users/${id}/password`, {
          body: { newPassword: "another-secret-2" },
          cookie: ownerCookie,
        }),
      () => call(app, "DELETE", `/api/admin/users/${id}`, { cookie: ownerCookie }),
    ];
    for (const step of steps) expect((await step()).status).toBe(200);
    const entries = (await audit("user")).filter((e) => e.entityId === id);
    expect(entries.map((e) => [e.action, e.summary])).toEqual([
      ["user.delete", "User deleted: lena_renamed"],
      ["user.reset_password", "Password reset by an admin: lena_renamed"],
      ["user.change_username", "Username changed: lena_life is now lena_renamed"],
      ["user.create", "User added: lena_life"],
    ]);
    // No password, hashed or not, in any of them.
    for (const entry of entries) {
      expect(JSON.stringify(entry)).not.toMatch(/secret|\$argon|\$scrypt/);
    }
  });

  it("an owner's reopen shows its reason and the status it went back to", async () => {
    const { quote: b } = await savedQuote();
    expect((await call(app, "POST", `/api/quotes/${b.quote.id}/finalize`, { cookie })).status)
      .toBe(200);
    const res = await call(app, "POST", `/api/quotes/${b.quote.id}/reopen`, {
      body: { reason: "Client changed the frame" },
      cookie: ownerCookie,
    });
    expect(res.status).toBe(200);
    const [entry] = await history(`/api/quotes/${b.quote.id}/history`);
    expect(entry.summary).toBe("Finalized quote reopened");
    expect(entry.changes).toEqual([
      { label: "Status", from: "Finalized", to: "Active" },
      { label: "Reason", text: "Client changed the frame" },
    ]);
  });
});
