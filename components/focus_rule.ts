// The app's one focus rule: after an action re-renders the part of the page
// the focused control was in, focus goes to a sensible place there (the
// control again, the next control, the updated element or its heading),
// never back to the page's top.
//
// Without it a control disabled while its action runs (a job step, Record
// Payment) or removed by it (a closed date's Remove) drops focus to <body>:
// a keyboard or screen-reader user starts again from the top of the page.
import { useCallback, useEffect, useRef, useState } from "react";

/** What may take focus, best first; missing, removed, hidden and disabled ones are passed over. */
export type FocusCandidates = () => Array<Element | null | undefined>;

/** Whether focus was lost: on the page itself, as after its control was disabled or removed. */
export function focusLost(doc: Document = document): boolean {
  const active = doc.activeElement;
  return !active || active === doc.body || active === doc.documentElement;
}

/**
 * Focuses the first candidate that can take focus. One that cannot by itself
 * (a heading, a section) gets tabindex="-1" first: reachable by script, not
 * by Tab. Returns the element focused.
 */
export function moveFocus(candidates: Array<Element | null | undefined>): HTMLElement | undefined {
  for (const el of candidates) {
    if (!(el instanceof HTMLElement) || !el.isConnected || el.getClientRects().length === 0) {
      continue;
    }
    if ((el as HTMLButtonElement).disabled || el.closest("[inert]")) continue;
    if (el.tabIndex < 0 && !el.hasAttribute("tabindex")) el.tabIndex = -1;
    el.focus();
    if (el.ownerDocument.activeElement === el) return el;
  }
  return undefined;
}

/**
 * The rule as a hook: `focusAfter(candidates)` when an action is sent or
 * settles; after the next render in which `busy` is false, if focus was lost
 * it moves to the first candidate that can take it. Focus the user put
 * somewhere else meanwhile is left where it is.
 */
export function useFocusAfter(busy = false): (candidates: FocusCandidates) => void {
  const pending = useRef<FocusCandidates | null>(null);
  const [, rendered] = useState(0);
  useEffect(() => {
    const candidates = pending.current;
    if (busy || !candidates) return;
    pending.current = null;
    if (focusLost()) moveFocus(candidates());
  });
  return useCallback((candidates: FocusCandidates) => {
    pending.current = candidates;
    rendered((n) => n + 1);
  }, []);
}
