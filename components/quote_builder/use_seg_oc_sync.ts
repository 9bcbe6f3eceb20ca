import { useCallback, useEffect, useRef, useState } from "react";

export const SEG_OC_DEBOUNCE_MS = 400;

/** waiting: typed, not sent yet; sending; saved; failed: goes with the next save. */
export type SegOcStatus = "waiting" | "sending" | "saved" | "failed";

/**
 * SEG/OC of a saved option is written on its own, a short pause after each
 * edit, so a measurement taken at the chair is kept even if the quote is
 * never saved. Only the newest value of each option counts.
 */
export function useSegOcSync(send: (optionId: string, segOc: string) => Promise<unknown>) {
  const [status, setStatus] = useState<Record<string, SegOcStatus>>({});
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const latest = useRef(new Map<string, number>());
  const sendRef = useRef(send);
  useEffect(() => {
    sendRef.current = send;
  });
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  const mark = (optionId: string, next: SegOcStatus) =>
    setStatus((s) => (s[optionId] === next ? s : { ...s, [optionId]: next }));

  const schedule = useCallback((optionId: string, segOc: string) => {
    clearTimeout(timers.current.get(optionId));
    const call = (latest.current.get(optionId) ?? 0) + 1;
    latest.current.set(optionId, call);
    mark(optionId, "waiting");
    timers.current.set(
      optionId,
      setTimeout(async () => {
        timers.current.delete(optionId);
        mark(optionId, "sending");
        try {
          await sendRef.current(optionId, segOc);
          if (latest.current.get(optionId) === call) mark(optionId, "saved");
        } catch {
          if (latest.current.get(optionId) === call) mark(optionId, "failed");
        }
      }, SEG_OC_DEBOUNCE_MS),
    );
  }, []);

  /** A quote save carries every SEG/OC, so what failed before is stored now. */
  const settleFailed = useCallback(() => {
    setStatus((s) =>
      Object.fromEntries(
        Object.entries(s).map(([id, st]) => [id, st === "failed" ? "saved" : st]),
      )
    );
  }, []);

  const unsynced = Object.values(status).some((s) => s !== "saved");
  return { status, schedule, settleFailed, unsynced };
}
