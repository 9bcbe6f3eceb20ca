// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import {
  type Expected,
  expectedFor,
  insertReportQuotes,
  REPORT_RANGE,
  REPORT_WEEKS,
  reportQuotes,
  type SeedQuote,
  weekOf,
} from "../helpers/report_seed.ts";
import type { ConversionReport, Metrics } from "../../src/reports/conversion.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp, owner: string, admin: string, optician: string;
const quotes = reportQuotes();
const inRange = quotes.filter((q) =>
  weekOf(q.createdAt) >= REPORT_RANGE.from && weekOf(q.createdAt) <= REPORT_WEEKS[3]
);

useTestApp(async (started) => {
  ({ app } = started);
  const cookie = async (role: "OWNER" | "ADMIN" | "AUTHORIZED_USER") =>
    await sessionCookieFor(app.db, (await createTestUser(app.db, { role })).id);
  [owner, admin, optician] = await Promise.all([
    cookie("OWNER"),
    cookie("ADMIN"),
    cookie("AUTHORIZED_USER"),
  ]);
  await insertReportQuotes(app.db, quotes);
});

const money = (c: number) => `${Math.trunc(c / 100)}.${String(c % 100).padStart(2, "0")}`;

/** What the report must say for a set of quotes, from the test's own arithmetic. */
function metricsOf(e: Expected): Partial<Metrics> {
  return {
    created: e.created,
    accepted: e.accepted,
    finalized: e.finalized,
    closed: e.closed,
    expired: e.expired,
    won: e.won,
    wonValue: money(e.wonCents),
    conversionRate: e.created ? (Math.round((e.won / e.created) * 1000) / 10).toFixed(1) : null,
    averageAcceptedValue: e.won ? money(Math.round(e.wonCents / e.won)) : null,
  };
}

const opticianKey = (q: SeedQuote) => q.optician.trim().toLowerCase();

async function report(query: string, cookie = owner) {
  const res = await call<ConversionReport>(app, "GET", `/api/reports/conversion?${query}`, {
    cookie,
  });
  expect(res.status).toBe(200);
  return res.body;
}

describe("conversion report", () => {
  it("counts each week's quotes by creation week, as the test's own count says", async () => {
    // The seed holds quotes just outside the range and exactly on its edges.
    expect(inRange.length).toBe(quotes.length - 2);
    const now = new Date();
    const body = await report(`from=${REPORT_RANGE.from}&to=${REPORT_RANGE.to}`);
    expect(body.weeks.map((w) => w.week)).toEqual(REPORT_WEEKS);
    for (const week of body.weeks) {
      const own = inRange.filter((q) => weekOf(q.createdAt) === week.week);
      expect(own.length).toBeGreaterThan(0);
      expect(week).toMatchObject(metricsOf(expectedFor(own, now)));
    }
    const all = expectedFor(inRange, now);
    expect(body.totals).toMatchObject(metricsOf(all));
    // The seed covers every outcome.
    for (const k of ["accepted", "finalized", "closed", "expired", "won"] as const) {
      expect(all[k]).toBeGreaterThan(0);
      expect(all[k]).toBeLessThan(all.created);
    }
  });

  it("groups by optician case- and space-insensitively, and filters by one", async () => {
    const now = new Date();
    const body = await report(`from=${REPORT_RANGE.from}&to=${REPORT_RANGE.to}`);
    const keys = [...new Set(inRange.map(opticianKey))];
    expect(body.opticians.length).toBe(keys.length);
    for (const key of keys) {
      const own = inRange.filter((q) => opticianKey(q) === key);
      const row = body.opticians.find((o) =>
        key === "" ? o.optician === "No optician yet" : o.optician.toLowerCase() === key
      )!;
      expect(row).toMatchObject(metricsOf(expectedFor(own, now)));
    }
    const maria = await report(
      `from=${REPORT_RANGE.from}&to=${REPORT_RANGE.to}&optician=${
        encodeURIComponent("MARIA lopez")
      }`,
    );
    const own = inRange.filter((q) => opticianKey(q) === "maria lopez");
    expect(maria.totals).toMatchObject(metricsOf(expectedFor(own, now)));
    expect(maria.opticians.map((o) => o.optician)).toEqual(["Maria Lopez"]);
    const none = await report(
      `from=${REPORT_RANGE.from}&to=${REPORT_RANGE.to}&optician=${
        encodeURIComponent("No optician yet")
      }`,
    );
    expect(none.totals.created).toBe(inRange.filter((q) => opticianKey(q) === "").length);
  });

  it("a range that cuts a week counts only its days", async () => {
    const now = new Date();
    const body = await report("from=2025-01-08&to=2025-01-14");
    expect(body.weeks.map((w) => [w.week, w.from, w.to])).toEqual([
      ["2025-01-06", "2025-01-08", "2025-01-12"],
      ["2025-01-13", "2025-01-13", "2025-01-14"],
    ]);
    const own = quotes.filter((q) =>
      q.createdAt >= new Date(2025, 0, 8) && q.createdAt < new Date(2025, 0, 15)
    );
    expect(body.totals).toMatchObject(metricsOf(expectedFor(own, now)));
  });

  it("exports the week × optician rows as CSV whose sums match the report", async () => {
    const res = await fetch(
      `${app.baseUrl}/api/reports/conversion.csv?from=${REPORT_RANGE.from}&to=${REPORT_RANGE.to}`,
      { headers: { cookie: admin } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(
      'attachment; filename="conversion-2025-01-06-to-2025-02-02.csv"',
    );
    const lines = (await res.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "week_start,from,to,optician,created,accepted,finalized,closed,expired,won," +
        "conversion_rate_percent,won_value,average_accepted_value",
    );
    const rows = lines.slice(1).map((l) => l.split(","));
    const all = expectedFor(inRange, new Date());
    expect(rows.reduce((s, r) => s + Number(r[4]), 0)).toBe(all.created);
    expect(rows.reduce((s, r) => s + Number(r[9]), 0)).toBe(all.won);
    const wonCents = rows.reduce((s, r) => s + Math.round(Number(r[11]) * 100), 0);
    expect(wonCents).toBe(all.wonCents);
  });

  it("is for ADMIN and OWNER only, on the server", async () => {
    for (const path of ["/api/reports/conversion", "/api/reports/conversion.csv"]) {
      expect((await call(app, "GET", path, { cookie: optician })).status).toBe(403);
      expect((await call(app, "GET", path)).status).toBe(401);
      expect((await call(app, "GET", path, { cookie: admin })).status).toBe(200);
    }
    const page = await fetch(`${app.baseUrl}/reports`, { headers: { cookie: optician } });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("Admin or Owner access required");
    const out = await fetch(`${app.baseUrl}/reports`, { redirect: "manual" });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/staff?returnTo=%2Freports");
    await out.body?.cancel();
  });

  it("refuses bad ranges with a clear 400", async () => {
    const reversed = await call(
      app,
      "GET",
      "/api/reports/conversion?from=2025-02-01&to=2025-01-01",
      {
        cookie: owner,
      },
    );
    expect(reversed.status).toBe(400);
    expect(reversed.body).toMatchObject({
      message: "The start date must be on or before the end date",
    });
    const long = await call(app, "GET", "/api/reports/conversion?from=2020-01-01&to=2025-01-01", {
      cookie: owner,
    });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ message: "Choose a range of at most 2 years" });
    const bad = await call(app, "GET", "/api/reports/conversion?from=yesterday", { cookie: owner });
    expect(bad.status).toBe(400);
  });

  it("the page renders the chart and the tables on the server, with no island of its own", async () => {
    const res = await fetch(
      `${app.baseUrl}/reports?from=${REPORT_RANGE.from}&to=${REPORT_RANGE.to}`,
      { headers: { cookie: owner } },
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('role="img"');
    expect(html.match(/<rect /g)?.length).toBe(REPORT_WEEKS.length * 5);
    const all = expectedFor(inRange, new Date());
    expect(html).toContain(`data-testid="total-Created">${all.created}<`);
    // The staff bar's search box is the page's only island: the report itself needs no script.
    const islands = [...html.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]);
    expect(islands.filter((name) => name !== "SearchBox")).toEqual([]);
  });
});
