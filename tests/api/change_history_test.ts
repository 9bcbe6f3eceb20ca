// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
// Histories over HTTP: the entries of what a manager asks about, each change named with
// its old and new value.
import { describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import { call, createTestUser } from "../helpers/test_app.ts";
import { adminCookie, app, audit, cookie, frame, history } from "./history_fixture.ts";
import { newClient, ownerCookie, savedQuote, useHistoryApp } from "./history_fixture.ts";

useHistoryApp();

describe("history of what a manager asks about", () => {
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
    // An admin made by the owner administers the whole chain unless told otherwise.
    expect(entry.changes).toEqual([
      { label: "Role", from: "Authorized User", to: "Admin" },
      { label: "Chain admin", from: "No", to: "Yes" },
    ]);
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
