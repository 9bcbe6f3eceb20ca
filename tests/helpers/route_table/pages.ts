// Rows of the route table: the HTML pages.
import { html, ok, page } from "./build.ts";
import type { RouteEntry } from "./expectations.ts";
import { forgetResetCounts, freshUser, TEST_PASSWORD } from "./fixtures.ts";

export const PAGE_ROUTES: RouteEntry[] = [
  // ---- Pages ----
  page("/", "public", ok(200)),
  page("/dashboard", "staff", ok(200)),
  // Signed in: straight on to the (local) returnTo.
  page("/staff", "public", ok(302, /^\/clients$/), {
    overrides: { anonymous: { status: 200, text: "Staff Portal" } },
    query: ["returnTo", "owner"],
    path: "/staff?returnTo=%2Fclients",
  }),
  {
    // The sign-in form without JavaScript: anyone may post it; right details redirect.
    method: "POST",
    pattern: "/staff",
    page: true,
    access: "public",
    ok: ok(303, /^\/clients$/),
    request: async (fx) => {
      const user = await freshUser(fx.app.db, "AUTHORIZED_USER");
      const form = new URLSearchParams({
        username: user.username,
        password: TEST_PASSWORD,
        returnTo: "/clients",
      });
      return {
        path: "/staff",
        body: form.toString(),
        headers: { ...html, "content-type": "application/x-www-form-urlencoded" },
      };
    },
  },
  page("/forgot-password", "public", { status: 200, text: "Send Reset Instructions" }),
  {
    // The forgotten-password form without JavaScript: the same answer for any address.
    method: "POST",
    pattern: "/forgot-password",
    page: true,
    access: "public",
    ok: { status: 200, text: "Check Your Email" },
    request: async (fx) => {
      // A fresh address each time, and the per-client count forgotten, so the
      // limits never answer instead (every caller comes from one address).
      await forgetResetCounts(fx);
      return {
        path: "/forgot-password",
        body: new URLSearchParams({ email: `rt-${crypto.randomUUID().slice(0, 8)}@nowhere.test` })
          .toString(),
        headers: { ...html, "content-type": "application/x-www-form-urlencoded" },
      };
    },
  },
  page("/reset-password", "public", { status: 200, text: "Confirm New Password" }, {
    query: ["token"],
    path: "/reset-password?token=abc",
  }),
  page("/account/password", "staff", { status: 200, text: "Current Password" }),
  page("/account/two-factor", "admin", { status: 200, text: "Two-Factor Sign-In" }),
  // The second-factor step; without a live challenge cookie it is back to the sign-in.
  page("/staff/two-factor", "public", ok(302, /^\/staff$/)),
  page("/intake", "public", { status: 200, text: "Submit Intake Form" }, {
    overrides: { KIOSK_INTAKE: { status: 200, text: "Submit Intake Form" } },
  }),
  // A store's own intake address: the first store's (MAIN) code, in any case.
  page("/intake/:code", "public", { status: 200, text: "Submit Intake Form" }, {
    path: () => Promise.resolve("/intake/main"),
    // A tablet handed to a client stays on its own store's /intake.
    overrides: { KIOSK_INTAKE: { status: 403 } },
  }),
  page("/clients", "staff", ok(200), {
    query: ["filter", "id"],
    path: async (fx) => `/clients?filter=missing&id=${(await fx.client()).client.id}`,
  }),
  page("/quote", "staff", ok(302, /^\/clients$/)),
  page("/quote/", "staff", ok(302, /^\/clients$/)),
  page("/quote/:id", "staff", { status: 200, text: "Quote Builder" }, {
    path: async (fx) => `/quote/${(await fx.savedQuote()).quote.id}`,
  }),
  page("/tablet/:quoteId", "staff", { status: 200, text: "Select Your Preferred Options" }, {
    path: async (fx) => `/tablet/${(await fx.savedQuote()).quote.id}`,
  }),
  page("/print", "staff", { status: 404, text: "No quote data to print" }),
  page("/print/", "staff", { status: 404, text: "No quote data to print" }),
  page("/print/:id", "staff", { status: 200, text: "Print Quote" }, {
    query: ["external", "copy", "noprint"],
    path: async (fx) => `/print/${(await fx.savedQuote()).quote.id}?copy=internal`,
  }),
  page("/quote/:id/client-print", "staff", { status: 200, text: "Your Quote" }, {
    query: ["noprint"],
    path: async (fx) => `/quote/${(await fx.savedQuote()).quote.id}/client-print?noprint=1`,
  }),
  page("/quotes", "staff", { status: 200, text: "Quote Management" }, {
    query: ["q", "status", "filter"],
    path: "/quotes?q=rita&filter=expired",
  }),
  page("/admin", "admin", ok(200)),
  page("/admin/:section", "admin", ok(200), { path: "/admin/ar-coatings" }),
  page("/admin/settings", "admin", { status: 200, text: "Admin Settings" }),
  page("/admin/users", "admin", ok(200)),
  // The chain's stores; a store admin's own (issue 48).
  page("/admin/stores", "admin", { status: 200, text: "Stores" }),
  page("/orders", "staff", { status: 200, text: "Orders" }, {
    query: ["q", "status", "late", "waiting", "labId", "optician", "page"],
    path: "/orders?q=rita&late=1",
  }),
  page("/orders/:id", "staff", { status: 200, text: "Payments" }, {
    path: async (fx) => `/orders/${(await fx.order()).order.id}`,
  }),
  page("/orders/:id/work-order", "staff", { status: 200, text: "LAB WORK ORDER" }, {
    query: ["paper", "job"],
    path: async (fx) => `/orders/${(await fx.order()).order.id}/work-order?paper=a4`,
  }),
  page("/orders/:id/receipt", "staff", { status: 200, text: "RECEIPT" }, {
    path: async (fx) => `/orders/${(await fx.order()).order.id}/receipt`,
  }),
  page("/admin/labs", "admin", { status: 200, text: "Labs" }),
  page("/admin/audit", "owner", { status: 200, text: "Audit Log" }, {
    query: ["from", "to", "user", "kind", "before", "after"],
    path: "/admin/audit?kind=client",
  }),
  page("/reports", "admin", { status: 200, text: "Reports" }, {
    query: ["from", "to", "optician"],
    path: "/reports?from=2026-01-01&to=2026-03-31",
  }),
];
