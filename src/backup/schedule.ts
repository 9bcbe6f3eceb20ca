/** Parses BACKUP_AT ("HH:MM", the container's local time, see TZ). */
export function parseTimeOfDay(text: string): { hour: number; minute: number } {
  const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  if (!m) throw new Error(`BACKUP_AT must be a time of day like 02:30, got "${text}"`);
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/** The next moment after `now` at that local time of day (today or tomorrow). */
export function nextRunAt(now: Date, at: { hour: number; minute: number }): Date {
  const next = new Date(now);
  next.setHours(at.hour, at.minute, 0, 0);
  if (next.getTime() <= now.getTime()) {
    // setDate keeps the wall-clock time across a daylight-saving change.
    next.setDate(next.getDate() + 1);
    next.setHours(at.hour, at.minute, 0, 0);
  }
  return next;
}

/** Backups this tool wrote (by their name), so retention never touches anything else. */
const OURS = /^lensdesk-(embedded|server)-\d{8}-\d{6}\.sql$/;

/** Which of `names` to delete so that the newest `keep` backups remain. */
export function backupsToPrune(names: string[], keep: number): string[] {
  const ours = names.filter((n) => OURS.test(n));
  // The stamp sorts by time; compare it alone so the engine does not matter.
  const stamp = (n: string) => n.replace(/^lensdesk-(embedded|server)-/, "");
  ours.sort((a, b) => stamp(b).localeCompare(stamp(a)));
  return ours.slice(Math.max(keep, 1));
}
