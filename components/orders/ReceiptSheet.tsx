// The order's receipt: one Letter page under the store's name, address,
// phone and e-mail, with the jobs as the client chose them (option, frame),
// the payments and the balance. A cancelled job is struck through at 0.00,
// so the lines add up to the total. Long lists are cut (the rest counted) so
// it stays one page.
import { InfoList } from "../print/InfoList.tsx";
import { formatDecimal, formatMoney } from "../../src/money/amounts.ts";
import { JOB_STATUS_LABELS, PAYMENT_METHOD_LABELS } from "../../src/orders/rules.ts";
import { shortenName } from "../../src/print/print_model.ts";
import type { OrderBundle } from "../../src/orders/views.ts";
import type { Branding } from "../../src/settings/settings.ts";
import { ColumnHeads } from "../ColumnHeads.tsx";

/** Most rows of each table a receipt shows; the rest are counted below it. */
export const RECEIPT_ROWS = 12;

const day = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const dayOf = (date: string) => day.format(new Date(`${date.slice(0, 10)}T00:00:00Z`));

/** The store as the receipt's head names it: Settings' name, address, phone and e-mail. */
function StoreLines({ branding }: { branding: Branding }) {
  const contact = [branding.storePhone, branding.storeEmail, branding.storeWebsite]
    .filter((part) => part.trim());
  return (
    <div className="receipt-store">
      <p className="print-store">{branding.storeName}</p>
      <p className="receipt-store-line">{branding.storeAddress}</p>
      <p className="receipt-store-line">
        {contact.map((part) => <span key={part}>{part}</span>)}
      </p>
    </div>
  );
}

/**
 * A job as the client chose it: the option's name, then its frame by name
 * with the SKU small. Jobs made before option names were kept name the frame.
 */
function Glasses({ job }: { job: OrderBundle["jobs"][number] }) {
  const frame = job.items.find((i) => i.kind === "FRAME");
  const frameName = frame?.name.trim() ?? "";
  const sku = frame?.sku?.trim() ?? "";
  const option = job.optionName.trim() ||
    (job.optionLabel.trim() !== sku ? job.optionLabel.trim() : "") || frameName || "Glasses";
  return (
    <>
      <span className="receipt-option">{option}</span>
      {frameName && frameName !== option && (
        <span className="receipt-frame">
          Frame: {frameName}
          {sku && <span className="receipt-sku">{sku}</span>}
        </span>
      )}
    </>
  );
}

export function ReceiptSheet({ bundle, branding }: { bundle: OrderBundle; branding: Branding }) {
  const { money } = bundle;
  const jobs = bundle.jobs.slice(0, RECEIPT_ROWS);
  const payments = bundle.payments.slice(-RECEIPT_ROWS);
  return (
    <article className="print-sheet print-sheet-client receipt-sheet" aria-label="Receipt">
      <header className="print-head">
        <div className="print-brand">
          <img src={branding.logoPrintUrl ?? branding.logoUrl} alt="" className="print-logo" />
          <StoreLines branding={branding} />
        </div>
        <div className="print-title-block receipt-title-block">
          <h2 className="print-title">RECEIPT</h2>
          <p className="print-meta print-meta-end">
            <span>Printed {dayOf(bundle.today)}</span>
          </p>
        </div>
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
        <table className="print-rx-table receipt-jobs">
          <ColumnHeads
            columns={["Job", "Glasses", "Status", { label: "Amount", className: "num" }]}
          />
          <tbody>
            {jobs.map((j) => {
              const cancelled = j.status === "CANCELLED";
              return (
                <tr key={j.id} className={cancelled ? "receipt-cancelled" : undefined}>
                  <td>{j.jobNumber}</td>
                  <td>
                    {cancelled
                      ? (
                        <s>
                          <Glasses job={j} />
                        </s>
                      )
                      : <Glasses job={j} />}
                  </td>
                  <td>{cancelled ? "Cancelled, not charged" : JOB_STATUS_LABELS[j.status]}</td>
                  <td className="num">{cancelled ? formatMoney(0) : formatDecimal(j.total)}</td>
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr className="receipt-jobs-total">
              <th scope="row" colSpan={3}>Total</th>
              <td className="num">{formatMoney(money.totalCents)}</td>
            </tr>
          </tfoot>
        </table>
        {bundle.jobs.length > jobs.length && (
          <p className="print-notes">
            …and {bundle.jobs.length - jobs.length} more jobs (in the total).
          </p>
        )}
      </section>
      <section className="print-section">
        <h3 className="print-section-title">Payments</h3>
        {payments.length === 0
          ? <p className="print-notes">No payments yet.</p>
          : (
            <table className="print-rx-table">
              <ColumnHeads
                columns={["Date", "Method", "Note", { label: "Amount", className: "num" }]}
              />
              <tbody>
                {payments.map((p) => (
                  <tr key={p.id}>
                    <td>{dayOf(p.paidOn)}</td>
                    <td>{PAYMENT_METHOD_LABELS[p.method]}</td>
                    <td>{shortenName([p.note, p.reason].filter(Boolean).join(" · "), 50)}</td>
                    <td className="num">{formatDecimal(p.amount)}</td>
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
        {bundle.jobs.some((j) => j.status === "CANCELLED") && (
          <p className="print-notes print-muted">Cancelled jobs are not charged.</p>
        )}
      </section>
    </article>
  );
}
