// Rows of the route table: administration: settings, e-mail, users and the catalog sections.
import { get, ok, SECTION, send } from "./build.ts";
import { CHAIN_WIDE_ONLY, type RouteEntry, STORE_SCOPED } from "./expectations.ts";
import { freshUser } from "./fixtures.ts";
import { findFirstStore } from "../../../src/stores/stores.ts";

export const ADMIN_ROUTES: RouteEntry[] = [
  // ---- Administration ----
  get("/api/admin/settings", "admin", ok(200)),
  // The chain's settings: a store admin keeps their store's own on the Stores page.
  {
    ...send("PUT", "/api/admin/settings", "admin", ok(200), () =>
      Promise.resolve({
        path: "/api/admin/settings",
        body: {
          storeName: "Route Table Optical",
          storeAddress: "1 Lens Lane\nSpringfield",
          quoteExpirationEnabled: true,
          quoteExpirationDays: 30,
          emailSubject: "Quote from {store}",
        },
      })),
    overrides: CHAIN_WIDE_ONLY,
  },
  get("/api/admin/oauth2-status", "staff", ok(200)),
  {
    method: "POST",
    pattern: "/api/admin/test-email",
    access: "admin",
    // Not configured here: a clear 409 rather than a send.
    ok: ok(409),
    request: () =>
      Promise.resolve({ path: "/api/admin/test-email", body: { email: "me@example.com" } }),
  },
  send("POST", "/api/email-banner/dismiss", "staff", ok(303, /^\/clients$/), () =>
    Promise.resolve({
      path: "/api/email-banner/dismiss",
      body: "returnTo=%2Fclients",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    })),
  get("/api/admin/users", "admin", ok(200)),
  send("PUT", "/api/admin/users/:id/stores", "admin", ok(200), async (fx) => ({
    path: `/api/admin/users/${(await fx.staffUser()).id}/stores`,
    body: { storeIds: [(await findFirstStore(fx.app.db)).id] },
  })),
  // ---- The chain's stores ----
  // A store admin lists and changes their own stores (the table's callers work in MAIN).
  get("/api/admin/stores", "admin", ok(200)),
  // Codes after MAIN's: the chain's first store, where the table's callers work, stays first.
  send("POST", "/api/admin/stores", "owner", ok(201), () =>
    Promise.resolve({
      path: "/api/admin/stores",
      body: { code: `Z${crypto.randomUUID().slice(0, 6)}`, name: "Route Table Uptown" },
    })),
  send("PUT", "/api/admin/stores/:id", "admin", ok(200), async (fx) => ({
    path: `/api/admin/stores/${(await findFirstStore(fx.app.db)).id}`,
    body: { phone: "(555) 010-0123" },
  })),
  get("/api/stores", "staff", ok(200)),
  // The first store: not one of another store's staff member.
  {
    ...send("PUT", "/api/stores/current", "staff", ok(200), async (fx) => ({
      path: "/api/stores/current",
      body: { storeId: (await findFirstStore(fx.app.db)).id },
    })),
    overrides: STORE_SCOPED,
  },
  // The staff bar's picker: back to the page, without its old `store`.
  {
    ...send("POST", "/api/stores/switch", "staff", ok(303, /^\/quotes\?q=a$/), async (fx) => ({
      path: "/api/stores/switch",
      body: `storeId=${
        (await findFirstStore(fx.app.db)).id
      }&returnTo=%2Fquotes%3Fstore%3Dall%26q%3Da`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    })),
    overrides: STORE_SCOPED,
  },
  send("POST", "/api/admin/users/invite", "admin", ok(201), () =>
    Promise.resolve({
      path: "/api/admin/users/invite",
      body: {
        email: "new@store.test",
        firstName: "Nia",
        lastName: "New",
        username: `nia${crypto.randomUUID().slice(0, 8)}`,
        password: "secret1",
        role: "AUTHORIZED_USER",
      },
    })),
  send(
    "DELETE",
    "/api/admin/users/:id",
    "admin",
    ok(200),
    async (fx) => ({ path: `/api/admin/users/${(await fx.staffUser()).id}` }),
  ),
  send("PUT", "/api/admin/users/:id/password", "admin", ok(200), async (fx) => ({
    path: `/api/admin/users/${(await fx.staffUser()).id}/password`,
    body: { newPassword: "reset-pass" },
  })),
  {
    method: "POST",
    pattern: "/api/admin/users/:id/reset-email",
    access: "admin",
    // E-mail is not configured in this app: the action says so instead of failing.
    ok: { status: 409, text: "Email is not configured" },
    request: async (fx) => {
      const user = await fx.staffUser();
      await fx.app.db.updateTable("users").set({ email: "staff@store.test" })
        .where("id", "=", user.id).execute();
      return { path: `/api/admin/users/${user.id}/reset-email` };
    },
  },
  {
    method: "DELETE",
    pattern: "/api/admin/users/:id/two-factor",
    access: "owner",
    // An admin with two-factor sign-in on and no e-mail address: the answer says to tell them.
    ok: { status: 200, text: "tell them yourself" },
    request: async (fx) => {
      const admin = await freshUser(fx.app.db, "ADMIN");
      await fx.app.db.updateTable("users").set({ totpEnabledAt: new Date() })
        .where("id", "=", admin.id).execute();
      return { path: `/api/admin/users/${admin.id}/two-factor` };
    },
  },
  send("PUT", "/api/admin/users/:id", "admin", ok(200), async (fx) => ({
    path: `/api/admin/users/${(await fx.staffUser()).id}`,
    body: { role: "ADMIN" },
  })),
  send(
    "GET",
    `/api/admin/:section{${SECTION}}`,
    "admin",
    ok(200),
    () => Promise.resolve({ path: "/api/admin/materials" }),
  ),
  send("POST", `/api/admin/:section{${SECTION}}`, "admin", ok(201), () =>
    Promise.resolve({
      path: "/api/admin/packages",
      body: {
        name: `Package ${crypto.randomUUID().slice(0, 6)}`,
        description: "Lenses, coating\nand case",
        price: 129,
        active: true,
        sortOrder: 3,
      },
    })),
  send("PUT", `/api/admin/:section{${SECTION}}/:id`, "admin", ok(200), async (fx) => ({
    path: `/api/admin/add-ons/${(await fx.catalogItem()).id}`,
    body: { name: "Renamed add-on", price: "7.50", active: true, sortOrder: 1 },
  })),
  send(
    "DELETE",
    `/api/admin/:section{${SECTION}}/:id`,
    "admin",
    ok(200),
    async (fx) => ({ path: `/api/admin/add-ons/${(await fx.catalogItem()).id}` }),
  ),
  send(
    "GET",
    `/api/admin/:section{${SECTION}}/export.csv`,
    "admin",
    ok(200),
    () => Promise.resolve({ path: "/api/admin/add-ons/export.csv" }),
  ),
  send(
    "GET",
    `/api/admin/:section{${SECTION}}/template.csv`,
    "admin",
    ok(200),
    () => Promise.resolve({ path: "/api/admin/lens-types/template.csv" }),
  ),
  send(
    "POST",
    `/api/admin/:section{${SECTION}}/import/preview`,
    "admin",
    ok(200),
    (fx) =>
      Promise.resolve({
        path: "/api/admin/add-ons/import/preview",
        body: fx.catalogCsv(),
        headers: { "content-type": "text/csv" },
      }),
  ),
  {
    method: "POST",
    pattern: `/api/admin/:section{${SECTION}}/import`,
    access: "admin",
    ok: ok(200),
    query: ["fingerprint"],
    request: (fx) =>
      Promise.resolve({
        path: "/api/admin/add-ons/import",
        body: fx.catalogCsv(),
        headers: { "content-type": "text/csv" },
      }),
  },
];
