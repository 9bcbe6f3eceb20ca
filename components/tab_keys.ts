import type { KeyboardEvent } from "react";

/**
 * The keys of a WAI-ARIA tab list with automatic activation, shared by every
 * tab list so they all move the same way. Only the selected tab is in the Tab
 * order (roving tabindex), so arrows, Home and End are how the others are
 * reached: arrows wrap around, Home and End go to the first and last tab, and
 * the tab moved to is selected and focused. Any other key is left alone.
 */
export function moveBetweenTabs<K>(
  event: KeyboardEvent<HTMLElement>,
  { keys, index, select, tabId }: {
    /** Every tab's key, in the order shown. */
    keys: readonly K[];
    /** Where the key was pressed. */
    index: number;
    select: (key: K) => void;
    /** The id of a tab's element, to focus it. */
    tabId: (key: K) => string;
  },
): void {
  const last = keys.length - 1;
  const target = event.key === "ArrowRight"
    ? (index === last ? 0 : index + 1)
    : event.key === "ArrowLeft"
    ? (index === 0 ? last : index - 1)
    : event.key === "Home"
    ? 0
    : event.key === "End"
    ? last
    : undefined;
  if (target === undefined) return;
  event.preventDefault();
  select(keys[target]);
  document.getElementById(tabId(keys[target]))?.focus();
}
