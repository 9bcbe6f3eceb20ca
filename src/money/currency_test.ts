import { describe, it } from "node:test";
import { expect } from "expect";
import {
  cashRound,
  CURRENCIES,
  CURRENCY_CODES,
  currencyCodeSchema,
  currencyOf,
  minorToDecimal,
} from "./currency.ts";

describe("currencies", () => {
  it("knows each supported currency's ISO 4217 minor unit", () => {
    expect(CURRENCY_CODES).toEqual(
      expect.arrayContaining(
        ["USD", "EUR", "GBP", "CAD", "AUD", "CHF", "SEK", "NOK", "DKK", "JPY", "BHD", "KWD"],
      ),
    );
    expect(currencyOf("JPY").minorUnit).toBe(0);
    expect(currencyOf("EUR").minorUnit).toBe(2);
    expect(currencyOf("BHD").minorUnit).toBe(3);
    expect(currencyOf("KWD").minorUnit).toBe(3);
  });

  it("agrees with Intl on the minor unit of every supported currency", () => {
    for (const code of CURRENCY_CODES) {
      const intl = new Intl.NumberFormat("en", { style: "currency", currency: code })
        .resolvedOptions().maximumFractionDigits;
      expect([code, intl]).toEqual([code, CURRENCIES[code].minorUnit]);
    }
  });

  it("a currency code is one of the supported ones, written as ISO writes it", () => {
    expect(currencyCodeSchema.parse("EUR")).toBe("EUR");
    for (const bad of ["eur", "XYZ", "", 978, null]) {
      const result = currencyCodeSchema.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0].message).toBe(
        "currency must be one of USD, EUR, GBP, CAD, AUD, CHF, SEK, NOK, DKK, JPY, BHD, KWD",
      );
    }
    expect(() => currencyOf("XYZ" as "EUR")).toThrow("unsupported currency: XYZ");
  });
});

describe("minorToDecimal", () => {
  it("writes minor units as the decimal string NUMERIC and Intl take", () => {
    expect(minorToDecimal(123450, "EUR")).toBe("1234.50");
    expect(minorToDecimal(5, "USD")).toBe("0.05");
    expect(minorToDecimal(-5, "USD")).toBe("-0.05");
    expect(minorToDecimal(0, "USD")).toBe("0.00");
    expect(minorToDecimal(-0, "USD")).toBe("0.00");
    expect(minorToDecimal(1234, "JPY")).toBe("1234");
    expect(minorToDecimal(-5, "BHD")).toBe("-0.005");
    expect(minorToDecimal(1234567, "KWD")).toBe("1234.567");
    expect(minorToDecimal(Number.MAX_SAFE_INTEGER, "USD")).toBe("90071992547409.91");
    expect(() => minorToDecimal(12.5, "USD")).toThrow("not a whole number of minor units");
  });
});

describe("cashRound", () => {
  it("CHF rounds cash to 0.05, half up, with the rounding as its own line", () => {
    expect(cashRound(1233, "CHF")).toEqual({ amount: 1235, rounding: 2 });
    expect(cashRound(1232, "CHF")).toEqual({ amount: 1230, rounding: -2 });
    expect(cashRound(1235, "CHF")).toEqual({ amount: 1235, rounding: 0 });
    expect(cashRound(1238, "CHF")).toEqual({ amount: 1240, rounding: 2 });
  });

  it("SEK and NOK round cash to 1.00, 0.50 up", () => {
    expect(cashRound(1050, "SEK")).toEqual({ amount: 1100, rounding: 50 });
    expect(cashRound(1049, "SEK")).toEqual({ amount: 1000, rounding: -49 });
    expect(cashRound(19999, "NOK")).toEqual({ amount: 20000, rounding: 1 });
  });

  it("DKK rounds cash to 0.50 (the smallest coin), 0.25 up", () => {
    expect(cashRound(1025, "DKK")).toEqual({ amount: 1050, rounding: 25 });
    expect(cashRound(1024, "DKK")).toEqual({ amount: 1000, rounding: -24 });
    expect(cashRound(1076, "DKK")).toEqual({ amount: 1100, rounding: 24 });
  });

  it("CAD and AUD round cash to 0.05 (no one-cent coins)", () => {
    expect(cashRound(1001, "CAD")).toEqual({ amount: 1000, rounding: -1 });
    expect(cashRound(1003, "AUD")).toEqual({ amount: 1005, rounding: 2 });
  });

  it("a refund mirrors a sale, and a currency paid to the minor unit is unchanged", () => {
    expect(cashRound(-1233, "CHF")).toEqual({ amount: -1235, rounding: -2 });
    expect(cashRound(-1232, "CHF")).toEqual({ amount: -1230, rounding: 2 });
    expect(cashRound(-2, "CHF")).toEqual({ amount: 0, rounding: 2 });
    expect(Object.is(cashRound(-2, "CHF").amount, 0)).toBe(true);
    for (const code of ["USD", "EUR", "GBP", "JPY", "BHD", "KWD"] as const) {
      expect(cashRound(12345, code)).toEqual({ amount: 12345, rounding: 0 });
    }
    expect(() => cashRound(0.5, "CHF")).toThrow("not a whole number of minor units");
  });
});
