// One engine: input checks answer before any statement runs.
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import { ensureDefaultCatalog } from "../../src/catalog/default_catalog.ts";
import type { CreatedClient } from "../../src/clients/views.ts";
import { useTestApp } from "../helpers/suite.ts";

// Input that used to reach the database unchecked: a NUL anywhere (PostgreSQL
// refuses it in text, so it was a 500), ids that are not UUIDs, and names
// looked up in plain objects ("constructor" found Object).

let app: TestApp, owner: string, created: CreatedClient;

type Refusal = { message: string; errors?: Record<string, string> };

useTestApp(async (started) => {
  ({ app } = started);
  await ensureDefaultCatalog(app.db);
  owner = await sessionCookieFor(app.db, (await createTestUser(app.db, { role: "OWNER" })).id);
  created = (await call<CreatedClient>(app, "POST", "/api/clients", {
    body: { firstName: "Ana", lastName: "Ruiz" },
    cookie: owner,
  })).body;
});

const html = { accept: "text/html" };

describe("control characters", () => {
  it("a NUL in any body field is a 400 naming the field, signed out too", async () => {
    const cases: Array<[string, string, Record<string, unknown>, string, string | undefined]> = [
      ["POST", "/api/staff/login", { username: "ann\u0000", password: "x" }, "username", undefined],
      [
        "POST",
        "/api/staff/login",
        { username: "ann", password: "p\u0000w" },
        "password",
        undefined,
      ],
      ["POST", "/api/clients", { firstName: "A\u0000", lastName: "B" }, "firstName", undefined],
      [
        "POST",
        "/api/clients",
        { firstName: "A", lastName: "B", city: "\u0000" },
        "city",
        undefined,
      ],
      [
        "POST",
        "/api/consent",
        { clientId: created.client.id, type: "SMS", statement: "ok\u0000", target: "5550100" },
        "statement",
        undefined,
      ],
      ["PUT", `/api/clients/${created.client.id}`, { email: "a\u0000@b.co" }, "email", owner],
      [
        "PUT",
        `/api/quotes/${created.quote.id}`,
        {
          version: 1,
          opticianName: "Maria",
          options: [{
            id: "temp-1",
            items: [{ kind: "FRAME", name: "Ray\u0000", sku: "RB", unitPrice: "1" }],
          }],
        },
        "options.0.items.0.name",
        owner,
      ],
      ["POST", "/api/admin/add-ons", { name: "Tint", price: "1\u0000" }, "price", owner],
      ["PUT", "/api/admin/settings", { storeName: "Shop\u0085" }, "storeName", owner],
      ["POST", "/api/quotes", { clientId: `${created.client.id}\u0000` }, "clientId", owner],
    ];
    for (const [method, path, body, field, cookie] of cases) {
      const res = await call<Refusal>(app, method, path, { body, cookie });
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body.errors?.[field]).toBe("Must not contain control characters");
      expect(res.body.message).toBe(`${field}: must not contain control characters`);
    }
  });

  it("line breaks and tabs only where a field may span lines", async () => {
    const notes = await call(app, "PUT", "/api/admin/settings", {
      body: { storeAddress: "1 Lens Lane\r\n\tSpringfield", footerMessage: "Thanks!\nSee you" },
      cookie: owner,
    });
    expect(notes.status).toBe(200);
    const name = await call<Refusal>(app, "PUT", "/api/admin/settings", {
      body: { storeName: "Clear\nView" },
      cookie: owner,
    });
    expect([name.status, Object.keys(name.body.errors ?? {})]).toEqual([400, ["storeName"]]);
    // Surrounding whitespace is trimmed first, so a pasted tab is not an error.
    const trimmed = await call(app, "PUT", "/api/admin/settings", {
      body: { storeName: "\tClear View " },
      cookie: owner,
    });
    expect(trimmed.body).toMatchObject({ storeName: "Clear View" });
  });

  it("a control character in any query parameter is a 400 naming it, on APIs and pages", async () => {
    for (
      const path of [
        "/api/quotes?q=%00",
        "/api/quotes?search=a%01b",
        "/api/clients?q=%00",
        "/api/clients/search?q=%00",
        "/api/clients/missing-measurements?offset=%00",
        "/api/catalog/packages?anything=%1b",
      ]
    ) {
      const res = await call<Refusal>(app, "GET", path, { cookie: owner });
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body.message).toMatch(/: must not contain control characters$/);
    }
    const q = await call<Refusal>(app, "GET", "/api/quotes?q=%00", { cookie: owner });
    expect(q.body).toEqual({
      message: "q: must not contain control characters",
      errors: { q: "Must not contain control characters" },
    });
    for (
      const [path, cookie] of [
        ["/quotes?q=%00", owner],
        ["/clients?id=%00", owner],
        ["/clients?filter=%7f", owner],
        ["/staff?returnTo=%2F%00", undefined],
        ["/intake?x=%00", undefined],
        ["/print/x?copy=%00", owner],
      ] as const
    ) {
      const res = await call(app, "GET", path, { cookie, headers: html });
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.text).toContain("400 Bad Request");
    }
  });
});

describe("ids and names from the URL", () => {
  it("ids that are not UUIDs are a 404, never a 500", async () => {
    for (const id of ["abc", "1", "%00", "00000000-0000-0000-0000-00000000000g", "%E2%80%AE"]) {
      for (
        const [method, path] of [
          ["GET", `/api/quotes/${id}`],
          ["GET", `/api/clients/${id}`],
          ["DELETE", `/api/quotes/${id}`],
          ["POST", `/api/quotes/${id}/reactivate`],
          ["GET", `/api/quotes/${id}/pdf`],
          ["DELETE", `/api/admin/users/${id}`],
          ["DELETE", `/api/admin/packages/${id}`],
        ]
      ) {
        const res = await call(app, method, path, { cookie: owner });
        expect([method, path, res.status]).toEqual([method, path, 404]);
      }
      for (const page of [`/quote/${id}`, `/tablet/${id}`, `/print/${id}`]) {
        const res = await call(app, "GET", page, { cookie: owner, headers: html });
        expect([page, res.status]).toEqual([page, 404]);
      }
    }
    const clients = await call(app, "GET", "/clients?id=not-a-uuid", {
      cookie: owner,
      headers: html,
    });
    expect(clients.status).toBe(200);
  });

  it("object-prototype names are unknown sections and notices, not lookups that crash", async () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      const read = await call<Refusal>(app, "GET", `/api/catalog/${name}`, { cookie: owner });
      expect([name, read.status, read.body.message]).toEqual([
        name,
        404,
        "No such catalog section",
      ]);
      const page = await call(app, "GET", `/admin/${name}`, { cookie: owner, headers: html });
      expect([name, page.status]).toEqual([name, 404]);
      const staff = await call(app, "GET", `/staff?owner=${name}`, { headers: html });
      expect(staff.status).toBe(200);
      expect(staff.text).not.toContain('role="status"');
      expect(staff.text).not.toContain("native code");
    }
    const proto = await call<Refusal>(app, "POST", "/api/clients", {
      body: '{"__proto__": {"admin": true}, "firstName": "A", "lastName": "B"}',
      cookie: owner,
    });
    expect(proto.status).toBe(201);
  });
});
