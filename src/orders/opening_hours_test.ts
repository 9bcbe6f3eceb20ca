import { describe, it } from "node:test";
import { expect } from "expect";
import { hoursText, nextOpenInstant, zonedInstant } from "./opening_hours.ts";
import { addDays } from "./rules.ts";

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

  it("waits past closed dates for the next day the store opens", () => {
    // Thursday 2026-12-24, 19:00 in Chicago; shut on Christmas and Boxing Day (a Saturday).
    const evening = new Date("2026-12-25T01:00:00Z");
    expect(nextOpenInstant(evening, chicago).toISOString()).toBe("2026-12-25T15:00:00.000Z");
    const shut = { ...chicago, closedDates: ["2026-12-25", "2026-12-26"] };
    // Sunday is not an opening day either: Monday 09:00.
    expect(nextOpenInstant(evening, shut).toISOString()).toBe("2026-12-28T15:00:00.000Z");
    // During opening hours of a closed date: the next opening too.
    expect(nextOpenInstant(new Date("2026-12-25T17:00:00Z"), shut).toISOString())
      .toBe("2026-12-28T15:00:00.000Z");
    // Shut from Monday 12-21 to Friday 01-01: from Sunday 12-20 the next opening is 13 days
    // away, past the week a search without closed dates needs.
    const holidays = Array.from({ length: 12 }, (_, i) => addDays("2026-12-21", i));
    expect(holidays.at(-1)).toBe("2027-01-01");
    expect(
      nextOpenInstant(new Date("2026-12-20T16:00:00Z"), { ...chicago, closedDates: holidays })
        .toISOString(),
    ).toBe("2027-01-02T15:00:00.000Z");
  });

  it("writes the hours for the e-mail", () => {
    expect(hoursText(chicago)).toBe("Mon–Sat 09:00–18:00");
    expect(hoursText({ ...chicago, openingDays: [0, 2, 3, 5] })).toBe(
      "Sun, Tue–Wed, Fri 09:00–18:00",
    );
  });
});
