import { useQuery } from "@tanstack/react-query";
import { apiRequest, errorDetail } from "../api_client.ts";
import type { HistoryEntry } from "../../src/audit/describe.ts";
import { HistoryChanges, When } from "./HistoryChanges.tsx";

/**
 * A record's history, newest first, loaded each time the tab opens so it
 * shows changes made since the page was loaded (the app never refetches on
 * its own otherwise).
 */
export function HistoryPanel({ url, emptyText }: { url: string; emptyText: string }) {
  const history = useQuery({
    queryKey: ["history", url],
    queryFn: () => apiRequest<HistoryEntry[]>("GET", url),
    refetchOnMount: "always",
  });
  if (history.isPending) return <p className="loading" role="status">Loading history...</p>;
  if (history.isError) {
    return (
      <p className="field-error" role="alert">
        Failed to load the history: {errorDetail(history.error)}
      </p>
    );
  }
  if (history.data.length === 0) return <p className="muted">{emptyText}</p>;
  return (
    <ol className="history-list" aria-label="Changes, newest first">
      {history.data.map((entry) => (
        <li key={entry.id} className="history-item">
          <div className="history-meta">
            <When iso={entry.at} />
            <span>by {entry.actor}</span>
          </div>
          <div className="history-summary">{entry.summary}</div>
          <HistoryChanges changes={entry.changes} />
        </li>
      ))}
    </ol>
  );
}
