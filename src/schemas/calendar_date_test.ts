import { describe, it } from "node:test";
import { expect } from "expect";
import { DAY_RANGE, isCalendarDate } from "./calendar_date.ts";

describe("isCalendarDate", () => {
  it("takes days that exist, written YYYY-MM-DD", () => {
    for (const day of ["2026-02-28", "2028-02-29", "1900-01-01", "2999-12-31"]) {
      expect({ day, ok: isCalendarDate(day) }).toEqual({ day, ok: true });
    }
  });

  it("refuses days that do not exist, other spellings and years outside its range", () => {
    for (
      const day of [
        "2026-02-30",
        "2027-02-29",
        "2026-13-01",
        "2026-00-10",
        "0000-01-01",
        "1899-12-31",
        "3000-01-01",
        "99999-01-01",
        "2026-2-3",
        "2026-02-03T00:00",
        "",
      ]
    ) {
      expect({ day, ok: isCalendarDate(day) }).toEqual({ day, ok: false });
    }
    expect(DAY_RANGE).toEqual({ from: "1900-01-01", to: "2999-12-31" });
  });

  it("keeps to a narrower range when given one", () => {
    const range = { from: "2000-01-01", to: "2100-12-31" };
    expect(isCalendarDate("2100-12-31", range)).toBe(true);
    expect(isCalendarDate("1999-12-31", range)).toBe(false);
    expect(isCalendarDate("2101-01-01", range)).toBe(false);
  });
});
