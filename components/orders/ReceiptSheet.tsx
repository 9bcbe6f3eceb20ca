// The order's receipt: one Letter page with the jobs, the payments and the
// balance. Long lists are cut (the rest counted) so it stays one page.
import { InfoList } from "../print/InfoList.tsx";
import { formatDecimal, formatMoney } from "../../src/quotes/money.ts";
import { JOB_STATUS_LABELS, PAYMENT_METHOD_LABELS } from "../../src/orders/rules.ts";
import { shortenName } from "../../src/print/print_model.ts";
import type { OrderBundle } from "../../src/orders/views.ts";
import type { Branding } from "../../src/settings/settings.ts";
import { ColumnHeads } from "../ColumnHeads.tsx";

/** Most rows of each table a receipt shows; the rest are counted below it. */
export const RECEIPT_ROWS = 12;

const day = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const dayOf = (date: string) => day.format(new Date(`${date.slice(0, 10)}T00:00:00Z`));

export function ReceiptSheet({ bundle, branding }: { bundle: OrderBundle; branding: Branding }) {
  const { money } = bundle;
  const jobs = bundle.jobs.slice(0, RECEIPT_ROWS);
  const payments = bundle.payments.slice(-RECEIPT_ROWS);
  return (
    <article className="print-sheet print-sheet-client receipt-sheet" aria-label="Receipt">
      <header className="print-head">
        <div className="print-brand">
          <img src={branding.logoPrintUrl ?? branding.logoUrl} alt="" className="print-logo" />
          <div className="print-title-block">
            <h2 className="print-title">RECEIPT</h2>
            <p className="print-meta">
              <span>{shortenName(branding.storeName, 60)}</span>
              <span>{shortenName(branding.storePhone, 40)}</span>
            </p>
          </div>
        </div>
        <p className="print-meta print-meta-end">
          <span>Printed {dayOf(bundle.today)}</span>
        </p>
      </header>
      <section className="print-section">
        <InfoList
          rows={[
            [
              "Client",
              shortenName(`${bundle.client.firstName} ${bundle.client.lastName}`, 80),
            ],
            ["Quote", bundle.order.quoteNumber],
            ["Ordered", dayOf(bundle.order.createdAt)],
          ]}
        />
      </section>
      <section className="print-section">
        <h3 className="print-section-title">Jobs</h3>
        <table className="print-rx-table">
          <ColumnHeads columns={["Job", "Glasses", "Status", "Total"]} />
          <tbody>
            {jobs.map((j) => (
              <tr key={j.id}>
                <td>{j.jobNumber}</td>
                <td>{shortenName(j.optionLabel, 40)}</td>
                <td>{JOB_STATUS_LABELS[j.status]}</td>
                <td>{formatDecimal(j.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {bundle.jobs.length > jobs.length && (
          <p className="print-notes">…and {bundle.jobs.length - jobs.length} more jobs.</p>
        )}
      </section>
      <section className="print-section">
        <h3 className="print-section-title">Payments</h3>
        {payments.length === 0
          ? <p className="print-notes">No payments yet.</p>
          : (
            <table className="print-rx-table">
              <ColumnHeads columns={["Date", "Method", "Note", "Amount"]} />
              <tbody>
                {payments.map((p) => (
                  <tr key={p.id}>
                    <td>{dayOf(p.paidOn)}</td>
                    <td>{PAYMENT_METHOD_LABELS[p.method]}</td>
                    <td>{shortenName([p.note, p.reason].filter(Boolean).join(" · "), 50)}</td>
                    <td>{formatDecimal(p.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        {bundle.payments.length > payments.length && (
          <p className="print-notes">
            …and {bundle.payments.length - payments.length} earlier payments (in the totals).
          </p>
        )}
      </section>
      <section className="print-section receipt-totals">
        <InfoList
          rows={[
            ["Total", formatMoney(money.totalCents)],
            ["Paid", formatMoney(money.paidCents)],
            ["Balance due", formatMoney(money.balanceCents)],
            ...(money.creditCents > 0
              ? [["To refund", formatMoney(money.creditCents)] as [string, string]]
              : []),
          ]}
        />
      </section>
    </article>
  );
}
