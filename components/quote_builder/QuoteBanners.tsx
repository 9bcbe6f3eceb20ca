// The notices above the builder's editor: why the quote is read-only (with
// Reopen and Reactivate where they apply), that it expired, and that the
// client's measurements are still needed.
import type { QuoteBundle } from "../../src/quotes/views.ts";
import { DateText } from "../client_manager/format.tsx";

export function QuoteBanners(
  {
    quote,
    blocker,
    canReopen,
    canReactivate,
    busy,
    reactivating,
    onReopen,
    orderId,
    onCreateOrder,
    onReactivate,
    onEditMeasurements,
  }: {
    quote: QuoteBundle["quote"];
    /** Why the quote cannot be edited, or null. */
    blocker: string | null;
    canReopen: boolean;
    canReactivate: boolean;
    /** A status action is under way: the buttons wait. */
    busy: boolean;
    reactivating: boolean;
    onReopen: () => void;
    /** The order already made from this quote, linked instead of offering another. */
    orderId?: string | null;
    /** A finalized quote is ordered from here. */
    onCreateOrder?: () => void;
    onReactivate: () => void;
    onEditMeasurements: () => void;
  },
) {
  return (
    <>
      {blocker && (
        <div className="notice notice-info qb-banner" role="status">
          <div>
            <strong>{blocker}</strong>
            {quote.status === "CLOSED" && quote.closureReason && (
              <p className="qb-banner-text">Reason: {quote.closureReason}</p>
            )}
            {quote.status === "FINALIZED" && !canReopen && (
              <p className="qb-banner-text">Only an owner can reopen it.</p>
            )}
          </div>
          {quote.status === "FINALIZED" && orderId && (
            <a className="btn btn-primary" href={`/orders/${orderId}`}>Open Order</a>
          )}
          {quote.status === "FINALIZED" && !orderId && onCreateOrder && (
            <button type="button" className="btn btn-primary" onClick={onCreateOrder}>
              Create Order
            </button>
          )}
          {canReopen && (
            <button type="button" className="btn btn-outline" onClick={onReopen} disabled={busy}>
              Reopen
            </button>
          )}
          {quote.status === "CLOSED" && (
            <button
              type="button"
              className="btn btn-outline"
              onClick={onReactivate}
              disabled={busy}
            >
              {reactivating ? "Reactivating..." : "Reactivate Quote"}
            </button>
          )}
        </div>
      )}
      {quote.isExpired && (
        <div className="notice notice-warning qb-banner" role="status">
          <div>
            <strong>This quote has expired.</strong>
            <p className="qb-banner-text">
              It expired on <DateText iso={quote.expiresAt} />. {canReactivate
                ? "Reactivate it to give the client a new expiry date."
                : "A finalized quote keeps its dates."}
            </p>
          </div>
          {canReactivate && (
            <button
              type="button"
              className="btn btn-primary"
              onClick={onReactivate}
              disabled={busy}
            >
              {reactivating ? "Reactivating..." : "Reactivate Quote"}
            </button>
          )}
        </div>
      )}
      {quote.status === "PENDING_MEASUREMENTS" && (
        <div className="notice notice-warning qb-banner" role="status">
          <div>
            <strong>Measurements Needed</strong>
            <p className="qb-banner-text">
              This client's measurements are not complete. The quote stays Pending Measurements
              until they are marked complete.
            </p>
          </div>
          <button type="button" className="btn btn-outline" onClick={onEditMeasurements}>
            Edit Measurements
          </button>
        </div>
      )}
    </>
  );
}
