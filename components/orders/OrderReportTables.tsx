// The order reports on /reports: four tables, each with its CSV.
import type { OrderReports } from "../../src/orders/order_reports.ts";
import { formatDecimal } from "../../src/quotes/money.ts";
import { PAYMENT_METHOD_LABELS } from "../../src/orders/rules.ts";
import type { PaymentMethod } from "../../db/schema.ts";
import { dayText, monthText } from "../reports/report_dates.ts";

function Table(
  { id, title, csv, head, rows, empty }: {
    id: string;
    title: string;
    csv: string;
    head: string[];
    rows: (string | number)[][];
    empty: string;
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
            </table>
          </div>
        )}
    </section>
  );
}

export function OrderReportTables({ report, query }: { report: OrderReports; query: string }) {
  const csv = (name: string) => `/api/reports/orders/${name}.csv?${query}`;
  return (
    <>
      <h2 className="order-reports-title">Orders</h2>
      <Table
        id="report-turnaround"
        title="Turnaround per Lab (ordered → ready, days)"
        csv={csv("turnaround")}
        head={["Lab", "Month", "Jobs", "Median", "90th percentile"]}
        rows={report.turnaround.map((t) => [
          t.lab,
          monthText(t.month),
          t.jobs,
          t.medianDays,
          t.p90Days,
        ])}
        empty="No job ordered in this range is ready yet."
      />
      <Table
        id="report-remakes"
        title="Remake Rate per Lab"
        csv={csv("remakes")}
        head={["Lab", "Jobs", "Remade", "Remakes", "Rate"]}
        rows={report.remakes.map((t) => [t.lab, t.jobs, t.remadeJobs, t.remakes, `${t.rate}%`])}
        empty="No jobs ordered in this range."
      />
      <Table
        id="report-payments"
        title="Payments by Week and Method"
        csv={csv("payments")}
        head={["Week of", "Method", "Payments", "Amount"]}
        rows={report.payments.map((t) => [
          dayText(t.week),
          PAYMENT_METHOD_LABELS[t.method as PaymentMethod] ?? t.method,
          t.count,
          formatDecimal(t.amount),
        ])}
        empty="No payments in this range."
      />
      <Table
        id="report-balances"
        title="Outstanding Balances (now)"
        csv={csv("balances")}
        head={["Client", "Quote", "Total", "Paid", "Balance"]}
        rows={report.balances.map((t) => [
          t.client,
          t.quoteNumber,
          formatDecimal(t.total),
          formatDecimal(t.paid),
          formatDecimal(t.balance),
        ])}
        empty="Nothing is owed."
      />
    </>
  );
}
