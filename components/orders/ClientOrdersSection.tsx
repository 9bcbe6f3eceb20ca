// The client dialog's orders: each order with its jobs' numbers and states,
// loaded when the dialog opens (GET /api/clients/{id}/orders).
import { useQuery } from "@tanstack/react-query";
import { apiRequest } from "../api_client.ts";
import { Badge } from "../Badge.tsx";
import { DateText } from "../client_manager/format.tsx";
import { JOB_STATUS_VARIANTS } from "./job_status.ts";
import { JOB_STATUS_LABELS } from "../../src/orders/rules.ts";
import type { JobStatus } from "../../db/schema.ts";

interface Row {
  orderId: string;
  quoteNumber: string;
  createdAt: string;
  jobNumber: string;
  status: JobStatus;
}

export function ClientOrdersSection({ clientId }: { clientId: string }) {
  const orders = useQuery({
    queryKey: ["client-orders", clientId],
    queryFn: () => apiRequest<Row[]>("GET", `/api/clients/${clientId}/orders`),
  });
  const grouped = new Map<string, Row[]>();
  for (const row of orders.data ?? []) {
    grouped.set(row.orderId, [...grouped.get(row.orderId) ?? [], row]);
  }
  return (
    <section className="detail-section detail-section-wide" aria-labelledby="detail-orders">
      <h3 id="detail-orders">Orders</h3>
      {orders.isPending
        ? <p className="loading" role="status">Loading orders...</p>
        : orders.isError
        ? <p className="muted" role="alert">Could not load the orders.</p>
        : grouped.size === 0
        ? <p className="muted">No orders yet.</p>
        : (
          <ul className="quote-rows">
            {[...grouped.values()].map((jobs) => (
              <li key={jobs[0].orderId} className="quote-row">
                <span className="quote-row-id">
                  <span className="muted">{jobs[0].quoteNumber}</span>
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
