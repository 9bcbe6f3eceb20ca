import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { HttpError, readQuery } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { reportQuerySchema } from "../../src/schemas/report.ts";
import { reportRange } from "../../src/reports/report_query.ts";
import { conversionReport, reportCsvHeader, reportCsvRows } from "../../src/reports/conversion.ts";
import { reportScope } from "../../src/reports/report_stores.ts";
import { toCsv } from "../../src/csv/csv.ts";
import {
  orderReportCsv,
  type OrderReportName,
  orderReports,
} from "../../src/orders/order_reports.ts";

/**
 * The conversion report as JSON and as CSV: ADMIN and OWNER. Each report is
 * of `store` (a store's id, or "all": store by store with the chain's total),
 * by default the current store; a one-store chain's are its only store's.
 */
export const reportsApi = new Hono<AppEnv>();
const admin = requireUser("ADMIN", "OWNER");

async function load(c: Context<AppEnv>) {
  const range = reportRange(readQuery(c, reportQuerySchema));
  if ("error" in range) throw new HttpError(400, range.error, { to: range.error });
  const scope = await reportScope(c, c.req.query("store"), { page: false });
  return await conversionReport(c.var.db, range, new Date(), scope);
}

reportsApi.get("/reports/conversion", admin, async (c) => c.json(await load(c)));

reportsApi.get("/reports/conversion.csv", admin, async (c) => {
  const report = await load(c);
  c.header("Content-Type", "text/csv; charset=utf-8");
  c.header(
    "Content-Disposition",
    `attachment; filename="conversion-${report.from}-to-${report.to}.csv"`,
  );
  c.header("Cache-Control", "no-store");
  // Optician names are typed by staff: guarded against formula injection.
  return c.body(toCsv(reportCsvHeader(report), reportCsvRows(report), ["optician"]));
});

/** The order reports, JSON and one CSV each. */
async function loadOrders(c: Context<AppEnv>) {
  const range = reportRange(readQuery(c, reportQuerySchema), c.var.clock());
  if ("error" in range) throw new HttpError(400, range.error, { to: range.error });
  const scope = await reportScope(c, c.req.query("store"), { page: false });
  return await orderReports(c.var.db, range, scope);
}

reportsApi.get("/reports/orders", admin, async (c) => c.json(await loadOrders(c)));

reportsApi.get(
  "/reports/orders/:file{(?:turnaround|remakes|payments|balances)\\.csv}",
  admin,
  async (c) => {
    const name = c.req.param("file").replace(/\.csv$/, "") as OrderReportName;
    const report = await loadOrders(c);
    const csv = orderReportCsv(name, report);
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header(
      "Content-Disposition",
      `attachment; filename="orders-${name}-${report.from}-to-${report.to}.csv"`,
    );
    c.header("Cache-Control", "no-store");
    return c.body(toCsv(csv.header, csv.rows, csv.guarded));
  },
);
