// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
// Histories over HTTP: a client's and a quote's history, what it shows every optician,
// and the audit log API (owner only).
import { describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import { call, sessionCookieFor } from "../helpers/test_app.ts";
import type { AuditPage } from "../../src/audit/audit_log.ts";
import { activeQuote, adminCookie, app, bundle, cookie, frame } from "./history_fixture.ts";
import { history, newClient, ownerCookie, staff, useHistoryApp } from "./history_fixture.ts";

useHistoryApp();

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
