import { useEffect, useRef } from "react";

/** The first wait before sending again; it doubles up to RESEND_MAX_MS. */
export const RESEND_FIRST_MS = 2_000;
export const RESEND_MAX_MS = 60_000;

/**
 * While `waiting`, calls `attempt` (which answers true once the work is done)
 * at once, whenever the browser says it is back online, whenever the page
 * becomes visible again, and on a timer that backs off. Background Sync is
 * not there on iPad browsers, so the page itself does the resending. Never
 * two attempts at once.
 */
export function useResend(waiting: boolean, attempt: () => Promise<boolean>) {
  const latest = useRef(attempt);
  latest.current = attempt;
  useEffect(() => {
    if (!waiting) return;
    let stopped = false;
    let running = false;
    let delay = RESEND_FIRST_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      if (stopped || running) return;
      running = true;
      clearTimeout(timer);
      let done = false;
      try {
        done = await latest.current();
      } finally {
        running = false;
      }
      if (done || stopped) return;
      timer = setTimeout(run, delay);
      delay = Math.min(delay * 2, RESEND_MAX_MS);
    };
    const soon = () => {
      // Back online or in view: try now, and start the back-off afresh.
      delay = RESEND_FIRST_MS;
      void run();
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") soon();
    };
    globalThis.addEventListener("online", soon);
    document.addEventListener("visibilitychange", onVisible);
    void run();
    return () => {
      stopped = true;
      clearTimeout(timer);
      globalThis.removeEventListener("online", soon);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [waiting]);
}
