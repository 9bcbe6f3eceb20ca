import { describe, it } from "node:test";
import { expect } from "expect";
import {
  formatPower,
  formatPrism,
  hundredthsText,
  isPrescriptionExpired,
  parseHundredths,
  transpose,
} from "./rules.ts";

describe("prescription display rules", () => {
  it("shows signed powers with two decimals and PL for zero", () => {
    expect(formatPower("-2.25")).toBe("-2.25");
    expect(formatPower("1.00")).toBe("+1.00");
    expect(formatPower("0.00")).toBe("PL");
    expect(formatPower("-0.25")).toBe("-0.25");
    expect(formatPower("30")).toBe("+30.00");
    expect(formatPower(null)).toBe("—");
    expect(formatPrism("2.00", "up")).toBe("2.00 BU");
    expect(formatPrism(null, null)).toBe("—");
  });

  it("parses and prints hundredths without floating point", () => {
    expect(parseHundredths("-2.25")).toBe(-225);
    expect(parseHundredths("+.5")).toBe(50);
    expect(parseHundredths("")).toBe(null);
    expect(parseHundredths("1e2")).toBeNaN();
    expect(hundredthsText(-5)).toBe("-0.05");
    expect(hundredthsText(1500)).toBe("15.00");
  });

  it("transposes between plus and minus cylinder (display only)", () => {
    const plus = { sphere: "-2.00", cylinder: "1.50", axis: 30 };
    const minus = transpose(plus, "minus");
    expect(minus).toEqual({ sphere: "-0.50", cylinder: "-1.50", axis: 120 });
    expect(transpose(minus, "plus")).toEqual(plus);
    expect(transpose({ sphere: "1.00", cylinder: "-0.75", axis: 180 }, "plus"))
      .toEqual({ sphere: "0.25", cylinder: "0.75", axis: 90 });
    expect(transpose(plus, "plus")).toBe(plus);
    expect(transpose(plus, "written")).toBe(plus);
    const sphereOnly = { sphere: "-1.00", cylinder: null, axis: null };
    expect(transpose(sphereOnly, "minus")).toBe(sphereOnly);
  });

  it("marks a prescription expired the day after its expiry date", () => {
    expect(isPrescriptionExpired("2025-05-01", "2025-05-01")).toBe(false);
    expect(isPrescriptionExpired("2025-05-01", "2025-05-02")).toBe(true);
    expect(isPrescriptionExpired(null, "2099-01-01")).toBe(false);
  });
});
