import { describe, it } from "node:test";
import { expect } from "expect";
import { backupsToPrune, nextRunAt, parseTimeOfDay } from "./schedule.ts";

describe("nightly backup schedule", () => {
  it("runs at the next occurrence of the time of day", () => {
    const at = parseTimeOfDay("02:30");
    const evening = new Date(2025, 0, 10, 21, 0);
    expect(nextRunAt(evening, at)).toEqual(new Date(2025, 0, 11, 2, 30));
    const earlyMorning = new Date(2025, 0, 10, 1, 0);
    expect(nextRunAt(earlyMorning, at)).toEqual(new Date(2025, 0, 10, 2, 30));
    // Exactly at the time: the run that just happened is not repeated.
    expect(nextRunAt(new Date(2025, 0, 10, 2, 30), at)).toEqual(new Date(2025, 0, 11, 2, 30));
  });

  it("refuses a time it cannot read", () => {
    expect(() => parseTimeOfDay("2.30")).toThrow(/BACKUP_AT/);
    expect(() => parseTimeOfDay("24:00")).toThrow(/BACKUP_AT/);
    expect(parseTimeOfDay("7:05")).toEqual({ hour: 7, minute: 5 });
  });

  it("keeps the newest backups and never touches other files", () => {
    const names = [
      "lensdesk-server-20250101-023000.sql",
      "lensdesk-server-20250103-023000.sql",
      "lensdesk-embedded-20250102-023000.sql",
      "lensdesk-server-20250104-023000.sql",
      "lensdesk-server-20250104-023000.sql.partial",
      "notes.txt",
      "my-copy.sql",
    ];
    expect(backupsToPrune(names, 2)).toEqual([
      "lensdesk-embedded-20250102-023000.sql",
      "lensdesk-server-20250101-023000.sql",
    ]);
    expect(backupsToPrune(names, 10)).toEqual([]);
    // Keeping none would delete the backup just written.
    expect(backupsToPrune(names, 0)).toHaveLength(3);
  });
});
