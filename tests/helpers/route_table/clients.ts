// Rows of the route table: clients, their measurements and prescriptions (staff).
import { get, ok, send } from "./build.ts";
import type { RouteEntry } from "./expectations.ts";
import { PRESCRIPTION_BODY } from "./fixtures.ts";

export const CLIENT_ROUTES: RouteEntry[] = [
  // ---- Clients (staff) ----
  get("/api/clients", "staff", ok(200), {
    query: ["limit", "offset", "filter"],
    path: "/api/clients?limit=5&offset=0&filter=missing",
  }),
  get("/api/clients/search", "staff", ok(200), {
    query: ["q", "limit", "offset"],
    path: "/api/clients/search?q=rita&limit=5",
  }),
  get("/api/clients/missing-measurements", "staff", ok(200), {
    query: ["limit", "offset"],
    path: "/api/clients/missing-measurements?limit=5",
  }),
  get("/api/clients/:id", "staff", ok(200), {
    path: async (fx) => `/api/clients/${(await fx.client()).client.id}`,
  }),
  send("PUT", "/api/clients/:id", "staff", ok(200), async (fx) => ({
    path: `/api/clients/${(await fx.client()).client.id}`,
    body: { firstName: "Rita", lastName: "Edited", email: "rita@example.org", city: "Austin" },
  })),
  send(
    "DELETE",
    "/api/clients/:id",
    "staff",
    ok(200),
    async (fx) => ({ path: `/api/clients/${(await fx.client()).client.id}` }),
  ),
  send("PUT", "/api/clients/:id/measurements", "staff", ok(200), async (fx) => ({
    path: `/api/clients/${(await fx.client()).client.id}/measurements`,
    body: { pdBinocular: "62.5", pdNear: "59", measurementsComplete: true },
  })),
  get("/api/clients/:id/prescriptions", "staff", ok(200), {
    path: async (fx) => `/api/clients/${(await fx.prescription()).clientId}/prescriptions`,
  }),
  send("POST", "/api/clients/:id/prescriptions", "staff", ok(201), async (fx) => ({
    path: `/api/clients/${(await fx.client()).client.id}/prescriptions`,
    body: PRESCRIPTION_BODY,
  })),
  send("PUT", "/api/clients/:id/prescriptions/:prescriptionId", "staff", ok(200), async (fx) => {
    const rx = await fx.prescription();
    return {
      path: `/api/clients/${rx.clientId}/prescriptions/${rx.id}`,
      body: { ...PRESCRIPTION_BODY, prescriber: "Dr. Edited" },
    };
  }),
  send("DELETE", "/api/clients/:id/prescriptions/:prescriptionId", "staff", ok(200), async (fx) => {
    const rx = await fx.prescription();
    return { path: `/api/clients/${rx.clientId}/prescriptions/${rx.id}` };
  }),
];
