import { describe, it } from "node:test";
import { expect } from "expect";
import { averageCents, mondayOf, ratePercent, weeksOf } from "./conversion.ts";

describe("conversion report arithmetic", () => {
  it("cuts the range into Monday weeks, the first and last cut to the range", () => {
    expect(mondayOf("2025-03-05")).toBe("2025-03-03"); // a Wednesday
    expect(mondayOf("2025-03-03")).toBe("2025-03-03");
    expect(mondayOf("2025-03-09")).toBe("2025-03-03"); // a Sunday
    expect(weeksOf("2025-03-05", "2025-03-18")).toEqual([
      { week: "2025-03-03", from: "2025-03-05", to: "2025-03-09" },
      { week: "2025-03-10", from: "2025-03-10", to: "2025-03-16" },
      { week: "2025-03-17", from: "2025-03-17", to: "2025-03-18" },
    ]);
    expect(weeksOf("2025-03-09", "2025-03-09")).toEqual([
      { week: "2025-03-03", from: "2025-03-09", to: "2025-03-09" },
    ]);
  });

  it("averages money in whole cents, half up, without floats", () => {
    expect(averageCents(1000, 3)).toBe(333); // 3.333…
    expect(averageCents(1001, 2)).toBe(501); // 5.005 → 5.01
    expect(averageCents(99_999_999_999_999, 7)).toBe(14_285_714_285_714); // …714.14
  });

  it("gives the conversion rate with one decimal", () => {
    expect(ratePercent(5, 12)).toBe("41.7");
    expect(ratePercent(1, 3)).toBe("33.3");
    expect(ratePercent(2, 3)).toBe("66.7");
    expect(ratePercent(0, 4)).toBe("0.0");
    expect(ratePercent(4, 4)).toBe("100.0");
    expect(ratePercent(0, 0)).toBeNull();
  });
});
