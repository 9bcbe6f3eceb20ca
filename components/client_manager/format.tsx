import { useSyncExternalStore } from "react";
import type { ClientSummary } from "../../src/clients/views.ts";

type Named = Pick<ClientSummary, "firstName" | "middleName" | "lastName">;
type Addressed = Pick<ClientSummary, "address1" | "address2" | "city" | "state" | "zip">;

export const fullName = (c: Named) =>
  [c.firstName, c.middleName, c.lastName].map((p) => p?.trim()).filter(Boolean).join(" ");

/** "12 Main St, Apt 4, Springfield, IL 62701", or "" when nothing is known. */
export function formatAddress(c: Addressed): string {
  const stateZip = [c.state, c.zip].map((p) => p?.trim()).filter(Boolean).join(" ");
  return [c.address1, c.address2, c.city, stateZip].map((p) => p?.trim()).filter(Boolean)
    .join(", ");
}

const noSubscription = () => () => {};

/**
 * False on the server and while hydrating, true afterwards. The server does
 * not know the browser's time zone, so dates are first written in UTC and
 * switch to local time once hydrated, without a hydration mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}

const DATE_FORMAT: Intl.DateTimeFormatOptions = { month: "short", day: "numeric", year: "numeric" };
/**
 * One formatter per zone, made once: `toLocaleDateString` with options builds
 * a new formatter on every call, which was a fifth of the server's time
 * rendering a page of 50 clients.
 */
const utcDay = new Intl.DateTimeFormat("en-US", { ...DATE_FORMAT, timeZone: "UTC" });
let localDay: Intl.DateTimeFormat | undefined;

/** A moment in time (ISO timestamp) shown as the day it fell on, where the reader is. */
export function DateText({ iso }: { iso: string | null | undefined }) {
  const hydrated = useHydrated();
  if (!iso) return <>—</>;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return <>{iso}</>;
  const format = hydrated ? (localDay ??= new Intl.DateTimeFormat("en-US", DATE_FORMAT)) : utcDay;
  return <time dateTime={iso}>{format.format(date)}</time>;
}

/** A calendar date (YYYY-MM-DD, e.g. a birthday): no time zone applies. */
export function CalendarDate({ value }: { value: string | null | undefined }) {
  if (!value) return <>—</>;
  const day = value.slice(0, 10);
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return <>{value}</>;
  return (
    <time dateTime={day}>
      {utcDay.format(date)}
    </time>
  );
}
