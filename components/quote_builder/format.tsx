import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * The server does not know the reader's time zone: a date is written in UTC
 * first and in local time once hydrated, without a hydration mismatch.
 */
export function DayText({ iso }: { iso: string | null }) {
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  if (!iso) return <>—</>;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return <>{iso}</>;
  const text = date.toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: hydrated ? undefined : "UTC",
  });
  return <time dateTime={iso}>{text}</time>;
}

/** "62" → "62 mm"; "0" is the default for a value never measured. */
export const pdText = (value: string) => (Number(value) > 0 ? `${value} mm` : "Not measured");
