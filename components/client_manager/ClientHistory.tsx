import { type ReactNode, useState } from "react";
import { tabIds, TabList } from "../Tabs.tsx";
import { HistoryPanel } from "../history/HistoryPanel.tsx";

type ClientTab = "details" | "history";
const TABS = [
  { key: "details" as const, label: "Details" },
  { key: "history" as const, label: "History" },
];

/**
 * The client dialog's two tabs: the details as they are, and the History of
 * who changed what (field by field, old → new). History loads when opened.
 */
export function ClientDetailTabs(
  { clientId, children }: { clientId: string; children: ReactNode },
) {
  const [tab, setTab] = useState<ClientTab>("details");
  const prefix = `client-${clientId}`;
  const panel = (key: ClientTab) => ({
    role: "tabpanel",
    id: tabIds(prefix, key).panel,
    "aria-labelledby": tabIds(prefix, key).tab,
    hidden: tab !== key,
    className: "tabs-panel",
  });
  return (
    <>
      <TabList
        tabs={TABS}
        selected={tab}
        onSelect={setTab}
        idPrefix={prefix}
        label="Client information"
      />
      <div {...panel("details")}>{children}</div>
      <div {...panel("history")}>
        {tab === "history" && (
          <HistoryPanel
            url={`/api/clients/${encodeURIComponent(clientId)}/history`}
            emptyText="No changes recorded yet."
          />
        )}
      </div>
    </>
  );
}
