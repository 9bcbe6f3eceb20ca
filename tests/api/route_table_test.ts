// One engine: who may call each route is decided above the database.
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, type TestApp } from "../helpers/test_app.ts";
import {
  appRoutes,
  CALLERS,
  cookieFor,
  expectedFor,
  Fixtures,
  ROUTES,
} from "../helpers/route_table.ts";
import { ensureDefaultCatalog } from "../../src/catalog/default_catalog.ts";
import { useTestApp } from "../helpers/suite.ts";

// Every route of the app, called as every kind of caller, against the role
// table in tests/helpers/route_table.ts (the spec's roles: pages send
// signed-out visitors to sign in and show other roles the unauthorized
// notice; APIs answer 401 and 403).

let app: TestApp, fx: Fixtures;

useTestApp(async (started) => {
  ({ app } = started);
  await ensureDefaultCatalog(app.db);
  fx = new Fixtures(app);
});

describe("the route table", () => {
  it("has an entry for every route of the app, and no entry for a route that is gone", () => {
    const inApp = appRoutes(app.app);
    const inTable = new Set(ROUTES.map((r) => `${r.method} ${r.pattern}`));
    expect([...inApp].filter((r) => !inTable.has(r))).toEqual([]);
    expect([...inTable].filter((r) => !inApp.has(r))).toEqual([]);
    expect(inTable.size).toBe(ROUTES.length);
  });

  it("every route answers every caller as the role table says", async () => {
    const mismatches: string[] = [];
    let calls = 0;
    for (const entry of ROUTES) {
      for (const caller of CALLERS) {
        const want = expectedFor(entry, caller);
        const request = await entry.request(fx);
        const method = entry.method === "ALL" ? "GET" : entry.method;
        const res = await call(app, method, request.path, {
          body: request.body,
          cookie: await cookieFor(app.db, caller, fx),
          headers: request.headers,
        });
        calls++;
        const location = res.headers.get("location") ?? "";
        const problems = [
          res.status !== want.status && `status ${res.status}, want ${want.status}`,
          want.location && !want.location.test(location) && `location ${location}`,
          want.text && !res.text.includes(want.text) && `no "${want.text}"`,
          // Whatever the answer, an API error is JSON with a message.
          !entry.page && res.status >= 400 &&
          typeof (res.body as { message?: unknown })?.message !== "string" && "no JSON message",
        ].filter(Boolean);
        if (problems.length) {
          mismatches.push(
            `${entry.method} ${entry.pattern} as ${caller} (${request.path}): ${
              problems.join("; ")
            } — ${res.text.slice(0, 120)}`,
          );
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(calls).toBe(ROUTES.length * CALLERS.length);
  });
});
