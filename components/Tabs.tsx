import { moveBetweenTabs } from "./tab_keys.ts";

export interface TabInfo<K extends string> {
  key: K;
  label: string;
}

/** The ids a tab and its panel share, from one prefix per tab list. */
export const tabIds = (prefix: string, key: string) => ({
  tab: `${prefix}-tab-${key}`,
  panel: `${prefix}-panel-${key}`,
});

/**
 * A WAI-ARIA tab list with automatic activation: arrows, Home and End move
 * between tabs. The caller renders each panel (role="tabpanel", the ids from
 * tabIds), so an existing layout can become a panel without being re-nested.
 */
export function TabList<K extends string>(
  { tabs, selected, onSelect, idPrefix, label }: {
    tabs: TabInfo<K>[];
    selected: K;
    onSelect: (key: K) => void;
    idPrefix: string;
    label: string;
  },
) {
  return (
    <div role="tablist" aria-label={label} className="tabs-list">
      {tabs.map((tab, index) => {
        const ids = tabIds(idPrefix, tab.key);
        const active = tab.key === selected;
        return (
          <button
            key={tab.key}
            type="button"
            role="tab"
            id={ids.tab}
            aria-selected={active}
            aria-controls={ids.panel}
            tabIndex={active ? 0 : -1}
            className="tabs-tab"
            onClick={() => onSelect(tab.key)}
            onKeyDown={(e) =>
              moveBetweenTabs(e, {
                keys: tabs.map((t) => t.key),
                index,
                select: onSelect,
                tabId: (key) => tabIds(idPrefix, key).tab,
              })}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
