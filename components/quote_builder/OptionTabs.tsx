import { moveBetweenTabs } from "../tab_keys.ts";
import { type DraftOption, optionTabLabel } from "../../src/quotes/rules.ts";

export const tabId = (optionId: string) => `qb-tab-${optionId}`;
export const PANEL_ID = "qb-option-panel";

/**
 * The options as tabs (WAI-ARIA tabs with automatic activation): arrows,
 * Home and End move between them, Tab goes on into the open option.
 */
export function OptionTabs(
  { options, activeId, problemOptions, onSelect }: {
    options: DraftOption[];
    activeId: string;
    /** Indexes of options the last save check found problems in. */
    problemOptions: Set<number>;
    onSelect: (id: string) => void;
  },
) {
  return (
    <div role="tablist" aria-label="Quote options" className="qb-tabs">
      {options.map((option, index) => {
        const active = option.id === activeId;
        const problem = problemOptions.has(index);
        return (
          <button
            key={option.id}
            type="button"
            role="tab"
            id={tabId(option.id)}
            aria-selected={active}
            aria-controls={active ? PANEL_ID : undefined}
            tabIndex={active ? 0 : -1}
            className={`qb-tab${problem ? " qb-tab-problem" : ""}`}
            onClick={() => onSelect(option.id)}
            onKeyDown={(e) =>
              moveBetweenTabs(e, {
                keys: options.map((o) => o.id),
                index,
                select: onSelect,
                tabId,
              })}
          >
            <span className="qb-tab-label">{optionTabLabel(option, index)}</span>
            {option.isChosen && (
              <span className="qb-tab-mark" title="Selected - Internal Print">
                <span aria-hidden="true">✓</span>
                <span className="sr-only">(selected)</span>
              </span>
            )}
            {problem && (
              <span className="qb-tab-alert">
                <span aria-hidden="true">!</span>
                <span className="sr-only">(needs attention)</span>
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
