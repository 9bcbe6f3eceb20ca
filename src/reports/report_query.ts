import type { ReportQueryInput } from "../schemas/report.ts";
import { defaultRange, MAX_REPORT_DAYS, rangeDays } from "./conversion.ts";

/**
 * The range to report on: the one chosen, else the last 12 weeks; a missing
 * end is today, a missing start 12 weeks before the end. Ranges over 2 years
 * are refused with the message returned.
 */
export function reportRange(
  input: ReportQueryInput,
  now = new Date(),
): { from: string; to: string; optician?: string } | { error: string } {
  const fallback = defaultRange(now);
  const to = input.to ?? (input.from && input.from > fallback.to ? input.from : fallback.to);
  const from = input.from ?? (to < fallback.from ? to : fallback.from);
  if (rangeDays(from, to) > MAX_REPORT_DAYS) {
    return { error: "Choose a range of at most 2 years" };
  }
  return { from, to, optician: input.optician };
}
