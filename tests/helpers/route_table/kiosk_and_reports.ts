// Rows of the route table: uploads and branding, the kiosk tablet, history, audit, search and reports.
import { findFirstStore } from "../../../src/stores/stores.ts";
import { get, ok, send } from "./build.ts";
import { CHAIN_WIDE_ONLY, type RouteEntry } from "./expectations.ts";
import { freshUser, TEST_PASSWORD } from "./fixtures.ts";
import { requestUploadUrl, svg } from "../images.ts";

export const KIOSK_AND_REPORT_ROUTES: RouteEntry[] = [
  // ---- Uploads and branding (ADMIN, OWNER) ----
  send(
    "POST",
    "/api/objects/upload",
    "admin",
    ok(200),
    () => Promise.resolve({ path: "/api/objects/upload", body: { purpose: "logo" } }),
  ),
  {
    // The file itself, raw, to a signed upload URL. Each caller is an account
    // of its own, not the one the URL was issued to, so it is refused to them
    // (uploads_test sends files as the one who asked).
    method: "PUT",
    pattern: "/api/objects/upload/:id",
    access: "admin",
    ok: { status: 403, text: "issued to someone else" },
    request: async (fx) => ({
      path: await requestUploadUrl(fx.app, await fx.owner(), "logo"),
      body: new TextDecoder().decode(svg()),
      headers: { "content-type": "image/svg+xml" },
    }),
  },
  // The chain's logo and favicon: not a store admin's.
  {
    ...send("PUT", "/api/admin/logo", "admin", ok(200), async (fx) => ({
      path: "/api/admin/logo",
      body: { logoUrl: await fx.uploadedImage("logo") },
    })),
    overrides: CHAIN_WIDE_ONLY,
  },
  // A store's own logo: its admins' too (a store admin works in the first store).
  send("PUT", "/api/admin/stores/:id/logo", "admin", ok(200), async (fx) => ({
    path: `/api/admin/stores/${(await findFirstStore(fx.app.db)).id}/logo`,
    body: { logoUrl: await fx.uploadedImage("logo") },
  })),
  {
    ...send("PUT", "/api/admin/favicon", "admin", ok(200), async (fx) => ({
      path: "/api/admin/favicon",
      body: { faviconUrl: await fx.uploadedImage("favicon") },
    })),
    overrides: CHAIN_WIDE_ONLY,
  },

  // ---- Kiosk: the tablet handed to a client ----
  send(
    "POST",
    "/api/kiosk/hand-over",
    "staff",
    ok(201),
    () => Promise.resolve({ path: "/api/kiosk/hand-over", body: { kind: "INTAKE" } }),
  ),
  {
    // Taking the tablet back: any staff member's username and password.
    method: "POST",
    pattern: "/api/kiosk/return",
    access: "public",
    ok: ok(200),
    overrides: { KIOSK_INTAKE: ok(200), KIOSK_QUOTE: ok(200) },
    request: async (fx) => {
      const user = await freshUser(fx.app.db, "AUTHORIZED_USER");
      return {
        path: "/api/kiosk/return",
        body: { username: user.username, password: TEST_PASSWORD },
      };
    },
  },
  {
    // The tablet's own view of its quote; staff read GET /api/quotes/{id} instead.
    method: "GET",
    pattern: "/api/kiosk/quote",
    access: "staff",
    ok: ok(403),
    overrides: { KIOSK_QUOTE: ok(200) },
    request: () => Promise.resolve({ path: "/api/kiosk/quote" }),
  },

  // ---- History, audit log, search ----
  get("/api/clients/:id/history", "staff", ok(200), {
    path: async (fx) => `/api/clients/${(await fx.client()).client.id}/history`,
  }),
  get("/api/quotes/:id/history", "staff", ok(200), {
    path: async (fx) => `/api/quotes/${(await fx.savedQuote()).quote.id}/history`,
  }),
  get("/api/admin/audit", "owner", ok(200), {
    query: ["from", "to", "user", "store", "kind", "before", "after"],
    path: "/api/admin/audit?from=2026-01-01&to=2100-01-01&kind=client",
  }),
  get("/api/search", "staff", ok(200), { query: ["q"], path: "/api/search?q=rita" }),

  // ---- Reports (ADMIN, OWNER) ----
  // Asked for every store ("All stores"): the chain's admins' and the owner's, not a store admin's.
  get("/api/reports/conversion", "admin", ok(200), {
    query: ["from", "to", "optician", "store"],
    path: "/api/reports/conversion?from=2026-01-01&to=2026-03-31&store=all",
    overrides: CHAIN_WIDE_ONLY,
  }),
  get("/api/reports/conversion.csv", "admin", ok(200), {
    query: ["from", "to", "optician", "store"],
    path: "/api/reports/conversion.csv?from=2026-01-01&to=2026-03-31&store=all",
    overrides: CHAIN_WIDE_ONLY,
  }),

  {
    // Any other /api path: a JSON 404, signed in or not.
    method: "ALL",
    pattern: "/api/*",
    access: "public",
    ok: ok(404),
    request: () => Promise.resolve({ path: "/api/no-such-call" }),
  },
];
