// The client dialog's orders: each order with its jobs' numbers and states,
// carried by the client's details (no round trip of their own).
import { Badge } from "../Badge.tsx";
import { DateText } from "../client_manager/format.tsx";
import { JOB_STATUS_VARIANTS } from "./job_status.ts";
import { JOB_STATUS_LABELS } from "../../src/orders/rules.ts";
import type { ClientOrderRow as Row } from "../../src/clients/views.ts";

export function ClientOrdersSection({ orders, chain }: { orders: Row[]; chain?: boolean }) {
  const grouped = new Map<string, Row[]>();
  for (const row of orders) {
    grouped.set(row.orderId, [...grouped.get(row.orderId) ?? [], row]);
  }
  return (
    <section className="detail-section detail-section-wide" aria-labelledby="detail-orders">
      <h3 id="detail-orders">Orders</h3>
      {grouped.size === 0 ? <p className="muted">No orders yet.</p> : (
        <ul className="quote-rows">
          {[...grouped.values()].map((jobs) => (
            <li key={jobs[0].orderId} className="quote-row">
              <span className="quote-row-id">
                <span className="muted">{jobs[0].quoteNumber}</span>
                {chain && (
                  <span className="store-tag" title="The store it was ordered in">
                    {jobs[0].storeCode}
                  </span>
                )}
              </span>
              <span className="client-order-jobs">
                {jobs.map((j) => (
                  <span key={j.jobNumber}>
                    <code>{j.jobNumber}</code>{" "}
                    <Badge variant={JOB_STATUS_VARIANTS[j.status]}>
                      {JOB_STATUS_LABELS[j.status]}
                    </Badge>
                    {" "}
                  </span>
                ))}
              </span>
              <span className="quote-row-date">
                <DateText iso={jobs[0].createdAt} />
              </span>
              <a
                className="btn btn-outline btn-sm"
                href={`/orders/${jobs[0].orderId}`}
                aria-label={`View order ${jobs.map((j) => j.jobNumber).join(", ")}`}
              >
                View
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
