// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import type { CreatedClient } from "../../src/clients/views.ts";
import type { PrescriptionView } from "../../src/prescriptions/views.ts";
import type { HistoryEntry } from "../../src/audit/describe.ts";
import type { Role } from "../../db/schema.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp;
const cookies = {} as Record<Role, string>;

useTestApp(async (started) => {
  ({ app } = started);
  for (const role of ["AUTHORIZED_USER", "ADMIN", "OWNER"] as const) {
    cookies[role] = await sessionCookieFor(app.db, (await createTestUser(app.db, { role })).id);
  }
});

const staff = () => cookies.AUTHORIZED_USER;

async function newClient(): Promise<string> {
  const res = await call<CreatedClient>(app, "POST", "/api/clients", {
    body: { firstName: "Rx", lastName: `Client${crypto.randomUUID().slice(0, 6)}` },
    cookie: staff(),
  });
  expect(res.status).toBe(201);
  return res.body.client.id;
}

const body = (overrides: Record<string, unknown> = {}) => ({
  dateWritten: "2025-02-10",
  prescriber: "Dr. Okafor",
  expiresOn: "2027-02-10",
  notes: "Computer use",
  rightEye: { sphere: "-2.25", cylinder: "-0.75", axis: 180, add: "+1.50" },
  leftEye: { sphere: "+1", prism: { amount: "1.5", base: "in" } },
  ...overrides,
});

describe("prescriptions API", () => {
  it("creates a prescription (201) and answers it with canonical values", async () => {
    const clientId = await newClient();
    const res = await call<PrescriptionView>(
      app,
      "POST",
      `/api/clients/${clientId}/prescriptions`,
      {
        body: body(),
        cookie: staff(),
      },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      clientId,
      dateWritten: "2025-02-10",
      prescriber: "Dr. Okafor",
      expiresOn: "2027-02-10",
      notes: "Computer use",
      rightEye: { sphere: "-2.25", cylinder: "-0.75", axis: 180, add: "1.50", prism: null },
      leftEye: {
        sphere: "1.00",
        cylinder: null,
        axis: null,
        add: null,
        prism: { amount: "1.50", base: "in" },
      },
    });
  });

  it("answers 400 with field errors for out-of-range, off-step and axis problems", async () => {
    const clientId = await newClient();
    const res = await call<{ message: string; errors: Record<string, string> }>(
      app,
      "POST",
      `/api/clients/${clientId}/prescriptions`,
      {
        body: body({
          rightEye: { sphere: "-30.25", cylinder: "-1.10", axis: 90, add: "4.25" },
          leftEye: { sphere: "0", cylinder: "-1.00", prism: { amount: "30", base: "up" } },
        }),
        cookie: staff(),
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Sphere must be between -30.00 and +30.00");
    expect(res.body.errors).toEqual({
      "rightEye.sphere": "Sphere must be between -30.00 and +30.00",
      "rightEye.cylinder": "Cylinder must be in steps of 0.25",
      "rightEye.add": "Add must be between +0.25 and +4.00",
      "leftEye.prism.amount": "Prism must be between 0.25 and 20.00",
      "leftEye.axis": "Axis is required when there is a cylinder",
    });
    const list = await call<PrescriptionView[]>(
      app,
      "GET",
      `/api/clients/${clientId}/prescriptions`,
      {
        cookie: staff(),
      },
    );
    expect(list.body).toEqual([]);
  });

  it("lists newest written first, edits and deletes, each recorded in the history", async () => {
    const clientId = await newClient();
    const path = `/api/clients/${clientId}/prescriptions`;
    for (const dateWritten of ["2024-05-01", "2025-06-01", "2023-01-01"]) {
      const res = await call(app, "POST", path, { body: body({ dateWritten }), cookie: staff() });
      expect(res.status).toBe(201);
    }
    const list = await call<PrescriptionView[]>(app, "GET", path, { cookie: staff() });
    expect(list.body.map((p) => p.dateWritten)).toEqual(["2025-06-01", "2024-05-01", "2023-01-01"]);

    const target = list.body[1];
    const edited = await call<PrescriptionView>(app, "PUT", `${path}/${target.id}`, {
      body: body({ dateWritten: "2024-05-01", prescriber: "Dr. New", rightEye: { sphere: "PL" } }),
      cookie: cookies.ADMIN,
    });
    expect(edited.status).toBe(200);
    expect(edited.body.prescriber).toBe("Dr. New");
    expect(edited.body.rightEye).toEqual({
      sphere: "0.00",
      cylinder: null,
      axis: null,
      add: null,
      prism: null,
    });

    const bad = await call<{ errors: Record<string, string> }>(app, "PUT", `${path}/${target.id}`, {
      body: body({ rightEye: { sphere: "-1", axis: 10 } }),
      cookie: staff(),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ "rightEye.axis": "Axis is given only with a cylinder" });

    const deleted = await call(app, "DELETE", `${path}/${list.body[0].id}`, {
      cookie: cookies.OWNER,
    });
    expect(deleted.status).toBe(200);
    const after = await call<PrescriptionView[]>(app, "GET", path, { cookie: staff() });
    expect(after.body.map((p) => p.dateWritten)).toEqual(["2024-05-01", "2023-01-01"]);

    const history = await call<HistoryEntry[]>(app, "GET", `/api/clients/${clientId}/history`, {
      cookie: staff(),
    });
    const summaries = history.body.map((h) => h.summary);
    expect(summaries).toContain("Prescription added: written 2025-06-01 by Dr. Okafor");
    expect(summaries).toContain("Prescription changed: written 2024-05-01 by Dr. New");
    expect(summaries).toContain("Prescription deleted: written 2025-06-01 by Dr. Okafor");
  });

  it("checks the session, the client and that the prescription is that client's", async () => {
    const clientId = await newClient();
    const other = await newClient();
    const path = `/api/clients/${clientId}/prescriptions`;
    expect((await call(app, "GET", path)).status).toBe(401);
    expect((await call(app, "POST", path, { body: body() })).status).toBe(401);
    const created = await call<PrescriptionView>(app, "POST", path, {
      body: body(),
      cookie: staff(),
    });
    const rxPath = `${path}/${created.body.id}`;
    expect((await call(app, "PUT", rxPath, { body: body() })).status).toBe(401);
    expect((await call(app, "DELETE", rxPath)).status).toBe(401);

    // Every staff role may manage a client's prescriptions, like the client's other details.
    for (const role of ["AUTHORIZED_USER", "ADMIN", "OWNER"] as const) {
      expect((await call(app, "GET", path, { cookie: cookies[role] })).status).toBe(200);
      expect((await call(app, "PUT", rxPath, { body: body(), cookie: cookies[role] })).status)
        .toBe(200);
    }

    const unknown = crypto.randomUUID();
    expect(
      (await call(app, "GET", `/api/clients/${unknown}/prescriptions`, { cookie: staff() }))
        .status,
    ).toBe(404);
    expect(
      (await call(app, "POST", `/api/clients/${unknown}/prescriptions`, {
        body: body(),
        cookie: staff(),
      })).status,
    ).toBe(404);
    expect((await call(app, "GET", "/api/clients/nope/prescriptions", { cookie: staff() })).status)
      .toBe(404);
    // Another client's path does not reach this prescription.
    const foreign = `/api/clients/${other}/prescriptions/${created.body.id}`;
    expect((await call(app, "PUT", foreign, { body: body(), cookie: staff() })).status).toBe(404);
    expect((await call(app, "DELETE", foreign, { cookie: staff() })).status).toBe(404);
    expect((await call(app, "DELETE", `${path}/not-a-uuid`, { cookie: staff() })).status).toBe(404);
  });

  it("goes with its client when the client is deleted", async () => {
    const clientId = await newClient();
    await call(app, "POST", `/api/clients/${clientId}/prescriptions`, {
      body: body(),
      cookie: staff(),
    });
    expect((await call(app, "DELETE", `/api/clients/${clientId}`, { cookie: staff() })).status)
      .toBe(200);
    const left = await app.db.selectFrom("prescriptions").select("id")
      .where("clientId", "=", clientId).execute();
    expect(left).toEqual([]);
  });
});
