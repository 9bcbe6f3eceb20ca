import { orderReports } from "../../src/orders/order_reports.ts";
import { OrderReportTables } from "../../components/orders/OrderReportTables.tsx";
import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { FilterSelect } from "../../components/FilterSelect.tsx";
import { renderUnauthorized } from "./unauthorized.tsx";
import { isAdminRole } from "../../components/StaffNav.tsx";
import { UNAUTHORIZED_SETTINGS_TEXT } from "./admin_settings.tsx";
import { reportQuerySchema } from "../../src/schemas/report.ts";
import { formErrors } from "../../src/schemas/form_errors.ts";
import { reportRange } from "../../src/reports/report_query.ts";
import {
  type ConversionReport,
  conversionReport,
  defaultRange,
  listReportOpticians,
  type Metrics,
  NO_OPTICIAN,
} from "../../src/reports/conversion.ts";
import { formatDecimal } from "../../src/money/amounts.ts";
import { ConversionChart } from "../../components/reports/ConversionChart.tsx";
import { dayText } from "../../components/reports/report_dates.ts";
import { reportScope, storeWords } from "../../src/reports/report_stores.ts";
import { StoreSelect } from "../../components/StoreSelect.tsx";

/** Same words as the settings screen: the report is for ADMIN and OWNER. */
export const UNAUTHORIZED_REPORTS_TEXT = UNAUTHORIZED_SETTINGS_TEXT;

const rate = (m: Metrics) => (m.conversionRate === null ? "—" : `${m.conversionRate}%`);
const average = (m: Metrics) =>
  m.averageAcceptedValue === null ? "—" : formatDecimal(m.averageAcceptedValue);

const COLUMNS = ["Created", "Accepted", "Finalized", "Closed", "Expired", "Conversion"];

function MetricCells({ m }: { m: Metrics }) {
  return (
    <>
      <td className="num">{m.created}</td>
      <td className="num">{m.accepted}</td>
      <td className="num">{m.finalized}</td>
      <td className="num">{m.closed}</td>
      <td className="num">{m.expired}</td>
      <td className="num">{rate(m)}</td>
      <td className="num">{average(m)}</td>
    </>
  );
}

/**
 * Metrics by week, optician or store. `second` adds a column after the row's
 * label (the week, in the store by week table); `totalLabel` names the foot.
 */
function MetricTable(
  { id, caption, first, second, rows, totals, totalLabel = "Total" }: {
    id: string;
    caption: string;
    first: string;
    second?: string;
    rows: { key: string; label: string; detail?: string; m: Metrics }[];
    totals: Metrics;
    totalLabel?: string;
  },
) {
  return (
    <div className="data-table-wrap" tabIndex={0} aria-labelledby={id}>
      <table className="data-table report-table">
        <caption id={id} className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{first}</th>
            {second && <th scope="col">{second}</th>}
            {COLUMNS.map((c) => <th key={c} scope="col" className="num">{c}</th>)}
            <th scope="col" className="num">Avg. accepted value</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <th scope="row">{r.label}</th>
              {second && <td>{r.detail}</td>}
              <MetricCells m={r.m} />
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={second ? 2 : undefined}>{totalLabel}</th>
            <MetricCells m={totals} />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

const weekLabel = (w: { week: string; from: string; to: string }) =>
  w.from === w.week && w.to >= w.week
    ? dayText(w.week)
    : `${dayText(w.week)} (from ${dayText(w.from)})`;

/** "All stores" in a chain of more than one: each store's figures, and the chain's total. */
function StoreSections({ report }: { report: ConversionReport }) {
  if (!report.stores || !report.storeWeeks) return null;
  const label = (r: { storeCode: string; storeName: string | null }) =>
    r.storeName ? `${r.storeName} (${r.storeCode})` : r.storeCode;
  return (
    <section className="card report-section" aria-labelledby="report-stores-title">
      <h2 id="report-stores-title">By Store</h2>
      <MetricTable
        id="report-stores-caption"
        caption="Quotes by the store they were made in; the chain total is their sum"
        first="Store"
        rows={report.stores.map((r) => ({ key: r.storeId, label: label(r), m: r }))}
        totals={report.totals}
        totalLabel="Chain total"
      />
      <h3 className="report-subtitle">By Store and Week</h3>
      {report.storeWeeks.length === 0
        ? <p className="muted">No quotes were created in this range.</p>
        : (
          <MetricTable
            id="report-store-weeks-caption"
            caption="Quotes by store and by the week they were created"
            first="Store"
            second="Week of"
            rows={report.storeWeeks.map((r) => ({
              key: `${r.storeId}~${r.week}`,
              label: label(r),
              detail: weekLabel(r),
              m: r,
            }))}
            totals={report.totals}
            totalLabel="Chain total"
          />
        )}
    </section>
  );
}

function ReportBody({ report, csvHref }: { report: ConversionReport; csvHref: string }) {
  const t = report.totals;
  return (
    <>
      <dl className="report-summary" aria-label="Totals for the range">
        {[
          ["Created", String(t.created)],
          ["Accepted", String(t.accepted)],
          ["Finalized", String(t.finalized)],
          ["Closed", String(t.closed)],
          ["Expired", String(t.expired)],
          ["Conversion rate", rate(t)],
          ["Avg. accepted value", average(t)],
        ].map(([label, value]) => (
          <div key={label} className="card report-stat">
            <dt>{label}</dt>
            <dd data-testid={`total-${label}`}>{value}</dd>
          </div>
        ))}
      </dl>
      <section className="card report-section" aria-labelledby="report-weeks-title">
        <div className="page-head">
          <h2 id="report-weeks-title">By Week</h2>
          <a className="btn btn-outline btn-sm" href={csvHref} download>Download CSV</a>
        </div>
        <ConversionChart weeks={report.weeks} />
        <MetricTable
          id="report-weeks-caption"
          caption="Quotes by the week they were created"
          first="Week of"
          rows={report.weeks.map((w) => ({ key: w.week, label: weekLabel(w), m: w }))}
          totals={t}
        />
      </section>
      <StoreSections report={report} />
      <section className="card report-section" aria-labelledby="report-opticians-title">
        <h2 id="report-opticians-title">By Optician</h2>
        {report.opticians.length === 0
          ? <p className="muted">No quotes were created in this range.</p>
          : (
            <MetricTable
              id="report-opticians-caption"
              caption="Quotes by optician"
              first="Optician"
              rows={report.opticians.map((o) => ({ key: o.optician, label: o.optician, m: o }))}
              totals={t}
            />
          )}
      </section>
      <section className="card report-section" aria-labelledby="report-definitions-title">
        <h2 id="report-definitions-title">How These Are Counted</h2>
        <dl className="report-definitions">
          <dt>Week</dt>
          <dd>
            Every number counts the quotes created in that week (Monday to Sunday), whenever the
            event happened: a quote made this week and accepted next week counts as accepted in this
            week's row.
          </dd>
          <dt>Accepted / Finalized</dt>
          <dd>
            Confirmed by the client on the tablet / finalized by staff at any time, even if the
            quote moved on afterwards.
          </dd>
          <dt>Closed / Expired</dt>
          <dd>
            Closed now / past its expiry date now and neither closed nor finalized.
          </dd>
          <dt>Conversion</dt>
          <dd>Quotes accepted or finalized (won), divided by quotes created.</dd>
          <dt>Avg. accepted value</dt>
          <dd>
            The won quotes' totals (the chosen options, else the first option) divided by their
            number, to the cent.
          </dd>
        </dl>
      </section>
    </>
  );
}

export function reportsPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  // A GET form that reloads the page: the report needs no JavaScript.
  app.get("/reports", async (c) => {
    const user = c.var.user!;
    if (!isAdminRole(user.role)) {
      return renderUnauthorized(c, manifest, UNAUTHORIZED_REPORTS_TEXT, "Reports");
    }
    const db = c.var.db;
    const raw = c.req.query();
    const parsed = reportQuerySchema.safeParse(raw);
    const chosen = parsed.success ? reportRange(parsed.data) : undefined;
    const error = !parsed.success
      ? Object.values(formErrors(parsed.error))[0]
      : chosen && "error" in chosen
      ? chosen.error
      : undefined;
    const range = chosen && !("error" in chosen) ? chosen : defaultRange();
    // The current store's reports, or the one picked, or "All stores" store by store.
    const { listing, ...scope } = await reportScope(c, raw.store, { page: true });
    const [report, opticians, orders] = await Promise.all([
      conversionReport(db, range, new Date(), scope),
      listReportOpticians(db),
      orderReports(db, range, scope),
    ]);
    const params = new URLSearchParams({ from: report.from, to: report.to });
    if (report.optician) params.set("optician", report.optician);
    // The exports are of the stores on the screen.
    const ordersParams = new URLSearchParams({ from: report.from, to: report.to });
    if (listing) {
      params.set("store", listing.selected);
      ordersParams.set("store", listing.selected);
    }
    return renderPage(
      c,
      manifest,
      <div className="reports-page">
        <div className="page-head">
          <div>
            <h1>Reports</h1>
            <p className="muted">
              From {dayText(report.from)} to {dayText(report.to)}: the quotes created
              {report.optician ? ` by ${report.optician}` : ""}
              {storeWords(listing)}{" "}
              and what became of them, then the orders and payments of the same days.
            </p>
          </div>
        </div>
        <form method="get" action="/reports" className="card filter-bar">
          <div className="field">
            <label htmlFor="report-from">From</label>
            <input id="report-from" type="date" name="from" defaultValue={report.from} required />
          </div>
          <div className="field">
            <label htmlFor="report-to">To</label>
            <input
              id="report-to"
              type="date"
              name="to"
              defaultValue={report.to}
              required
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "report-error" : undefined}
            />
          </div>
          {listing && <StoreSelect id="report-store" listing={listing} />}
          <FilterSelect
            id="report-optician"
            label="Optician"
            name="optician"
            value={report.optician ?? undefined}
            anyLabel="All opticians"
            choices={[...opticians, NO_OPTICIAN].map((name) => ({ value: name, label: name }))}
          />
          <div className="filter-actions">
            <button type="submit" className="btn btn-primary">Show Report</button>
          </div>
        </form>
        {error && (
          <p id="report-error" className="notice notice-warning" role="alert">
            {error}. Showing the last 12 weeks instead.
          </p>
        )}
        <ReportBody report={report} csvHref={`/api/reports/conversion.csv?${params}`} />
        <OrderReportTables
          report={orders}
          query={ordersParams.toString()}
        />
      </div>,
      { title: "Reports" },
    );
  });

  return app;
}
