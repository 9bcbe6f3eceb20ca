// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import { ensureDefaultCatalog } from "../../src/catalog/default_catalog.ts";
import type { CatalogItem } from "../../src/catalog/catalog.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp, ownerCookie: string, staffCookie: string;

useTestApp(async (started) => {
  ({ app } = started);
  await ensureDefaultCatalog(app.db);
  ownerCookie = await sessionCookieFor(
    app.db,
    (await createTestUser(app.db, { role: "OWNER" })).id,
  );
  staffCookie = await sessionCookieFor(app.db, (await createTestUser(app.db)).id);
});

describe("catalog administration API", () => {
  it("creates, edits, toggles and deletes an item; the builder's list follows", async () => {
    const created = await call<CatalogItem>(app, "POST", "/api/admin/materials", {
      body: { name: " Glass ", price: 55, active: true, sortOrder: "7" },
      cookie: ownerCookie,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "Glass",
      price: "55.00",
      active: true,
      sortOrder: 7,
    });
    const id = created.body.id;
    const active = async () =>
      (await call<CatalogItem[]>(app, "GET", "/api/catalog/materials", { cookie: staffCookie }))
        .body
        .map((m) => m.name);
    expect(await active()).toContain("Glass");

    const edited = await call<CatalogItem>(app, "PUT", `/api/admin/materials/${id}`, {
      body: { name: "Mineral Glass", price: "60.5", active: true, sortOrder: 7 },
      cookie: ownerCookie,
    });
    expect(edited.body).toMatchObject({ name: "Mineral Glass", price: "60.50" });
    const off = await call<CatalogItem>(app, "PUT", `/api/admin/materials/${id}`, {
      body: { active: false },
      cookie: ownerCookie,
    });
    expect(off.body.active).toBe(false);
    expect(await active()).not.toContain("Mineral Glass");
    const all = await call<CatalogItem[]>(app, "GET", "/api/admin/materials", {
      cookie: ownerCookie,
    });
    expect(all.body.find((m) => m.id === id)?.active).toBe(false);

    expect(
      (await call(app, "DELETE", `/api/admin/materials/${id}`, { cookie: ownerCookie })).status,
    )
      .toBe(200);
    expect(
      (await call(app, "DELETE", `/api/admin/materials/${id}`, { cookie: ownerCookie })).status,
    )
      .toBe(404);
  });

  it("keeps package descriptions and validates the form", async () => {
    const pkg = await call<CatalogItem>(app, "POST", "/api/admin/packages", {
      body: { name: "Kids Package", description: "Durable", price: 99, active: true, sortOrder: 0 },
      cookie: ownerCookie,
    });
    expect(pkg.body).toMatchObject({ description: "Durable", price: "99.00" });
    for (
      const [body, message] of [
        [{ name: "", price: 1 }, "Name is required"],
        [{ name: "X", price: "" }, "Price is required"],
        [{ name: "X" }, "Price is required"],
        [{ name: "X", price: -1 }, "Price must be a number like 129.00"],
        [{ name: "X", price: 1, sortOrder: 1.5 }, "Sort order must be a whole number"],
      ] as const
    ) {
      const res = await call<{ message: string }>(app, "POST", "/api/admin/add-ons", {
        body,
        cookie: ownerCookie,
      });
      expect([res.status, res.body.message]).toEqual([400, message]);
    }
  });

  it("is for ADMIN and OWNER only, and other admin paths are not catalog sections", async () => {
    expect((await call(app, "GET", "/api/admin/materials", { cookie: staffCookie })).status).toBe(
      403,
    );
    expect(
      (await call(app, "POST", "/api/admin/materials", {
        body: { name: "X", price: 1 },
        cookie: staffCookie,
      })).status,
    ).toBe(403);
    expect((await call(app, "GET", "/api/admin/materials")).status).toBe(401);
    expect((await call(app, "GET", "/api/admin/frames", { cookie: ownerCookie })).status).toBe(404);
    expect((await call(app, "GET", "/api/admin/settings", { cookie: ownerCookie })).status).toBe(
      200,
    );
  });
});
