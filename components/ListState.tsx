import type { ReactNode } from "react";

/**
 * A list's states before its rows: loading, failed with nothing to show (and
 * Try Again), empty; else the rows. A failed refetch keeps the rows it has.
 */
export function ListState(
  { pending, failed, empty, what, emptyText, onRetry, children }: {
    pending: boolean;
    failed: boolean;
    empty: boolean;
    /** What the list holds, for "Failed to load {what}." */
    what: string;
    emptyText: string;
    onRetry: () => void;
    children: ReactNode;
  },
) {
  if (pending) return <p className="loading" role="status">Loading...</p>;
  if (failed && empty) {
    return (
      <div className="empty" role="alert">
        <p>Failed to load {what}.</p>
        <button type="button" className="btn btn-outline" onClick={onRetry}>
          Try Again
        </button>
      </div>
    );
  }
  if (empty) return <p className="empty">{emptyText}</p>;
  return <>{children}</>;
}
