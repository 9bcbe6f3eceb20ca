// When the store is open, in its own time zone: the ready-for-pickup e-mail
// goes out at opening, never at night. Pure, so tests give any instant.
import { addDays, localDate, weekday } from "./rules.ts";

export interface OpeningHours {
  openingDays: number[];
  /** Days shut on an opening day (YYYY-MM-DD): the e-mail waits past them. */
  closedDates?: readonly string[];
  /** "09:00" */
  openingTime: string;
  /** "18:00" */
  closingTime: string;
  timeZone: string;
}

const DAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** Minutes east of UTC of a time zone at an instant. */
function offsetMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const asUtc = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"));
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** The instant a wall-clock time ("09:00") on a date has in a time zone. */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const guess = new Date(`${date}T${time}:00Z`);
  const first = new Date(guess.getTime() - offsetMinutes(guess, timeZone) * 60_000);
  // Once more at the found instant: right across a daylight-saving change.
  return new Date(guess.getTime() - offsetMinutes(first, timeZone) * 60_000);
}

/**
 * `at` itself when the store is open then, else its next opening. A week of
 * weekdays plus every closed date is as far as the next opening can be; past
 * that (nothing opens), `at`.
 */
export function nextOpenInstant(at: Date, hours: OpeningHours): Date {
  const days = hours.openingDays.length ? hours.openingDays : [0, 1, 2, 3, 4, 5, 6];
  const closed = new Set(hours.closedDates ?? []);
  let date = localDate(at, hours.timeZone);
  for (let i = 0; i < 8 + closed.size; i++) {
    if (days.includes(weekday(date)) && !closed.has(date)) {
      const opens = zonedInstant(date, hours.openingTime, hours.timeZone);
      const closes = zonedInstant(date, hours.closingTime, hours.timeZone);
      if (at < opens) return opens;
      if (at < closes) return at;
    }
    date = addDays(date, 1);
  }
  return at;
}

/** "Mon–Sat 09:00–18:00" (runs of days joined), for {storeHours}. */
export function hoursText(hours: OpeningHours): string {
  const days = [...hours.openingDays].sort();
  const runs: string[] = [];
  let start = -1;
  for (let i = 0; i < days.length; i++) {
    if (start < 0) start = days[i];
    if (days[i + 1] !== days[i] + 1) {
      runs.push(start === days[i] ? DAY_NAMES[start] : `${DAY_NAMES[start]}–${DAY_NAMES[days[i]]}`);
      start = -1;
    }
  }
  return `${runs.join(", ")} ${hours.openingTime}–${hours.closingTime}`;
}
