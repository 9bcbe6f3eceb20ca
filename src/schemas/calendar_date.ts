// A calendar day as YYYY-MM-DD, checked without zod: the settings schema (its
// closed dates and their list), the prescription dates and the date of birth
// share it, each adding its own range; a module of its own keeps zod's other
// date fields out of the pages that import it.

/** YYYY-MM-DD naming a day that exists (2026-02-30 does not). */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T12:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}
