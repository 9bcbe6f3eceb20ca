// A calendar day as YYYY-MM-DD, checked without zod: every date field of the
// app goes through it (the orders' dates, the report and history ranges, the
// prescription dates, the date of birth, the closed dates), each with its
// range; a module of its own keeps zod's other date fields out of the pages
// that import it.

/**
 * The widest range of days the app stores: a date outside it is a typing
 * mistake (0000-01-01, a five-digit year), which PostgreSQL would refuse or
 * store as something no report ever shows.
 */
export const DAY_RANGE = { from: "1900-01-01", to: "2999-12-31" } as const;

/** YYYY-MM-DD naming a day that exists (2026-02-30 does not), within `range` (both ends in). */
export function isCalendarDate(
  text: string,
  range: { from: string; to: string } = DAY_RANGE,
): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T12:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text &&
    text >= range.from && text <= range.to;
}
