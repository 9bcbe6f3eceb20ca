// The reports' dates, one way on every table of /reports: days as "Nov 23, 2026",
// months as "Nov 2026" (the tables' YYYY-MM-DD and YYYY-MM keys as a person reads them).

const dayFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });
const monthFormat = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric" });

/** "2026-11-23" as "Nov 23, 2026". */
export function dayText(day: string): string {
  const [y, m, d] = day.split("-").map(Number);
  return dayFormat.format(new Date(y, m - 1, d));
}

/** "2026-11" as "Nov 2026". */
export function monthText(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return monthFormat.format(new Date(y, m - 1, 1));
}
