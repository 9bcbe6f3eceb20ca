import { describe, it } from "node:test";
import { expect } from "expect";
import { hoursText, nextOpenInstant, zonedInstant } from "./opening_hours.ts";

const chicago = {
  openingDays: [1, 2, 3, 4, 5, 6],
  openingTime: "09:00",
  closingTime: "18:00",
  timeZone: "America/Chicago",
};

describe("opening hours", () => {
  it("finds the instant of a wall-clock time in a zone, across daylight saving", () => {
    expect(zonedInstant("2026-11-27", "09:00", "America/Chicago").toISOString())
      .toBe("2026-11-27T15:00:00.000Z");
    expect(zonedInstant("2026-07-01", "09:00", "America/Chicago").toISOString())
      .toBe("2026-07-01T14:00:00.000Z");
    expect(zonedInstant("2026-07-01", "09:00", "UTC").toISOString())
      .toBe("2026-07-01T09:00:00.000Z");
  });

  it("sends during opening hours at once, otherwise at the next opening", () => {
    // Friday 2026-11-27, 10:00 in Chicago: open.
    const open = new Date("2026-11-27T16:00:00Z");
    expect(nextOpenInstant(open, chicago)).toEqual(open);
    // Friday 07:00: at 09:00 the same day.
    expect(nextOpenInstant(new Date("2026-11-27T13:00:00Z"), chicago).toISOString())
      .toBe("2026-11-27T15:00:00.000Z");
    // Saturday 19:00: closed Sunday, so Monday 09:00.
    expect(nextOpenInstant(new Date("2026-11-29T01:00:00Z"), chicago).toISOString())
      .toBe("2026-11-30T15:00:00.000Z");
  });

  it("writes the hours for the e-mail", () => {
    expect(hoursText(chicago)).toBe("Mon–Sat 09:00–18:00");
    expect(hoursText({ ...chicago, openingDays: [0, 2, 3, 5] })).toBe(
      "Sun, Tue–Wed, Fri 09:00–18:00",
    );
  });
});
