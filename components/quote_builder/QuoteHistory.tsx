import { tabIds, TabList } from "../Tabs.tsx";
import { HistoryPanel } from "../history/HistoryPanel.tsx";

/** The builder's two views: the quote itself, and its History. */
export type QuoteView = "quote" | "history";
const TABS = [
  { key: "quote" as const, label: "Quote" },
  { key: "history" as const, label: "History" },
];
const PREFIX = "qb-view";

export function QuoteViewTabs(
  { view, onSelect }: { view: QuoteView; onSelect: (v: QuoteView) => void },
) {
  return (
    <TabList
      tabs={TABS}
      selected={view}
      onSelect={onSelect}
      idPrefix={PREFIX}
      label="Quote views"
    />
  );
}

/** What makes an element the panel of one view; hidden while another view is open. */
export const quotePanelProps = (key: QuoteView, view: QuoteView) => ({
  role: "tabpanel",
  id: tabIds(PREFIX, key).panel,
  "aria-labelledby": tabIds(PREFIX, key).tab,
  hidden: key !== view,
});

/**
 * Who changed the quote and when: status changes old → new, and each save's
 * option changes as counts and totals. Loaded each time the tab opens.
 */
export function QuoteHistoryPanel({ quoteId, view }: { quoteId: string; view: QuoteView }) {
  return (
    <section className="card tabs-panel qb-history" {...quotePanelProps("history", view)}>
      <h2 className="sr-only">Quote History</h2>
      {view === "history" && (
        <HistoryPanel
          url={`/api/quotes/${encodeURIComponent(quoteId)}/history`}
          emptyText="No changes recorded yet."
        />
      )}
    </section>
  );
}
