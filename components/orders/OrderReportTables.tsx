// The order reports on /reports: four tables, each with its CSV. With "All
// stores" in a chain of more than one, each table leads with the store and
// ends with the chain's total, the sum of the stores' rows.
import type { OrderReports } from "../../src/orders/order_reports.ts";
import { formatDecimal } from "../../src/money/amounts.ts";
import { PAYMENT_METHOD_LABELS } from "../../src/orders/rules.ts";
import type { PaymentMethod } from "../../db/schema.ts";
import { dayText, monthText } from "../reports/report_dates.ts";

function Table(
  { id, title, csv, head, rows, empty, foot }: {
    id: string;
    title: string;
    csv: string;
    head: string[];
    rows: (string | number)[][];
    empty: string;
    /** The chain total row (store by store), its label first. */
    foot?: (string | number)[];
  },
) {
  return (
    <section className="card order-report" aria-labelledby={id}>
      <div className="order-report-head">
        <h2 id={id}>{title}</h2>
        <a className="btn btn-outline btn-sm" href={csv} download>Export CSV</a>
      </div>
      {rows.length === 0
        ? <p className="empty-inline">{empty}</p>
        : (
          <div className="data-table-wrap" tabIndex={0} aria-labelledby={id}>
            <table className="data-table" data-testid={id}>
              <thead>
                <tr>{head.map((h) => <th key={h} scope="col">{h}</th>)}</tr>
              </thead>
              <tbody>
                {rows.map((r, i) => <tr key={i}>{r.map((v, j) => <td key={j}>{v}</td>)}</tr>)}
              </tbody>
              {foot && (
                <tfoot>
                  <tr data-testid={`${id}-total`}>
                    <th scope="row">{foot[0]}</th>
                    {foot.slice(1).map((v, j) => <td key={j}>{v}</td>)}
                  </tr>
                </tfoot>
              )}
            </table>
          </div>
        )}
    </section>
  );
}

export function OrderReportTables({ report, query }: { report: OrderReports; query: string }) {
  const csv = (name: string) => `/api/reports/orders/${name}.csv?${query}`;
  // Store by store: a Store column first, and the chain's totals under it.
  const t = report.byStore ? report.totals : null;
  const head = (columns: string[]) => (t ? ["Store", ...columns] : columns);
  const row = (r: { store?: string }, cells: (string | number)[]) =>
    t ? [r.store ?? "", ...cells] : cells;
  const TOTAL = "Chain total";
  return (
    <>
      <h2 className="order-reports-title">Orders</h2>
      <Table
        id="report-turnaround"
        title="Turnaround per Lab (ordered → ready, days)"
        csv={csv("turnaround")}
        head={head(["Lab", "Month", "Jobs", "Median", "90th percentile"])}
        rows={report.turnaround.map((r) =>
          row(r, [r.lab, monthText(r.month), r.jobs, r.medianDays, r.p90Days])
        )}
        foot={t ? [TOTAL, "", "", t.turnaroundJobs, "", ""] : undefined}
        empty="No job ordered in this range is ready yet."
      />
      <Table
        id="report-remakes"
        title="Remake Rate per Lab"
        csv={csv("remakes")}
        head={head(["Lab", "Jobs", "Remade", "Remakes", "Rate"])}
        rows={report.remakes.map((r) =>
          row(r, [r.lab, r.jobs, r.remadeJobs, r.remakes, `${r.rate}%`])
        )}
        foot={t
          ? [
            TOTAL,
            "",
            t.remakes.jobs,
            t.remakes.remadeJobs,
            t.remakes.remakes,
            t.remakes.jobs
              ? `${Math.round(t.remakes.remadeJobs / t.remakes.jobs * 1000) / 10}%`
              : "0%",
          ]
          : undefined}
        empty="No jobs ordered in this range."
      />
      <Table
        id="report-payments"
        title="Payments by Week and Method"
        csv={csv("payments")}
        head={head(["Week of", "Method", "Payments", "Amount"])}
        rows={report.payments.map((r) =>
          row(r, [
            dayText(r.week),
            PAYMENT_METHOD_LABELS[r.method as PaymentMethod] ?? r.method,
            r.count,
            formatDecimal(r.amount),
          ])
        )}
        foot={t ? [TOTAL, "", "", t.payments.count, formatDecimal(t.payments.amount)] : undefined}
        empty="No payments in this range."
      />
      <Table
        id="report-balances"
        title="Outstanding Balances (now)"
        csv={csv("balances")}
        head={head(["Client", "Quote", "Total", "Paid", "Balance"])}
        rows={report.balances.map((r) =>
          row(r, [
            r.client,
            r.quoteNumber,
            formatDecimal(r.total),
            formatDecimal(r.paid),
            formatDecimal(r.balance),
          ])
        )}
        foot={t
          ? [
            TOTAL,
            "",
            "",
            formatDecimal(t.balances.total),
            formatDecimal(t.balances.paid),
            formatDecimal(t.balances.balance),
          ]
          : undefined}
        empty="Nothing is owed."
      />
    </>
  );
}
