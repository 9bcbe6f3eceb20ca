import { useEffect, useRef, useState } from "react";
import { moveBetweenTabs } from "../tab_keys.ts";
import { type DraftOption, optionTabLabel } from "../../src/quotes/rules.ts";

export const tabId = (optionId: string) => `qb-tab-${optionId}`;
export const PANEL_ID = "qb-option-panel";

/** Which ends of the strip have tabs out of sight. */
interface Hidden {
  start: boolean;
  end: boolean;
}

/**
 * Keeps `hidden` in step with the strip's scroll position and size, and
 * brings the selected tab into view.
 */
function useStripOverflow(activeId: string, count: number) {
  const strip = useRef<HTMLDivElement>(null);
  const [hidden, setHidden] = useState<Hidden>({ start: false, end: false });
  useEffect(() => {
    const el = strip.current;
    if (!el) return;
    const measure = () => {
      const start = el.scrollLeft > 1;
      const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setHidden((h) => h.start === start && h.end === end ? h : { start, end });
    };
    measure();
    el.addEventListener("scroll", measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => {
      el.removeEventListener("scroll", measure);
      observer.disconnect();
    };
  }, [count]);
  useEffect(() => {
    strip.current?.querySelector(`[id="${tabId(activeId)}"]`)?.scrollIntoView({
      block: "nearest",
      inline: "nearest",
    });
  }, [activeId]);
  return { strip, hidden };
}

/**
 * The options as tabs (WAI-ARIA tabs with automatic activation): arrows,
 * Home and End move between them, Tab goes on into the open option. When the
 * strip is wider than its card, a shadowed arrow at each end with tabs out of
 * sight says so and scrolls to them (a pointer's way; the keyboard's is the
 * arrow keys, which bring the selected tab into view).
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
  const { strip, hidden } = useStripOverflow(activeId, options.length);
  const scrollBy = (direction: 1 | -1) =>
    strip.current?.scrollBy({ left: direction * strip.current.clientWidth * 0.8 });
  return (
    <div className="qb-tabs-wrap">
      {hidden.start && (
        <button
          type="button"
          className="qb-tabs-more qb-tabs-more-start"
          tabIndex={-1}
          aria-label="Show earlier options"
          onClick={() => scrollBy(-1)}
        >
          ‹
        </button>
      )}
      <div role="tablist" aria-label="Quote options" className="qb-tabs" ref={strip}>
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
      {hidden.end && (
        <button
          type="button"
          className="qb-tabs-more qb-tabs-more-end"
          tabIndex={-1}
          aria-label="Show more options"
          onClick={() => scrollBy(1)}
        >
          ›
        </button>
      )}
    </div>
  );
}
