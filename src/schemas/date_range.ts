import * as z from "zod";
import { isCalendarDate } from "./calendar_date.ts";

/** The days a report or history range may name. */
const RANGE_DAYS = { from: "2000-01-01", to: "2100-12-31" };

/** A calendar day as the date input sends it; blank means "not set". */
export const dayField = z.string().trim().optional().transform((v, ctx) => {
  if (!v) return undefined;
  if (!isCalendarDate(v, RANGE_DAYS)) {
    ctx.addIssue({ code: "custom", message: "Dates must be real days written as YYYY-MM-DD" });
    return z.NEVER;
  }
  return v;
});

/** Local midnight (the store's TZ) of a YYYY-MM-DD day. */
export function startOfDay(day: string): Date {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y, m - 1, d);
}

/** Local midnight of the day after: the exclusive end of a range that includes `day`. */
export function endOfDay(day: string): Date {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y, m - 1, d + 1);
}

/** YYYY-MM-DD of a local date. */
export function dayOf(date: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}

/** The check every from/to pair gets: the end not before the start. */
export const rangeIsOrdered = (r: { from?: string; to?: string }) =>
  !r.from || !r.to || r.from <= r.to;
export const rangeOrderMessage = () => ({
  message: "The start date must be on or before the end date",
  path: ["to"],
});
