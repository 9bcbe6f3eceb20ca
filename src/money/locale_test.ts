import { describe, it } from "node:test";
import { expect } from "expect";
import { readAmount } from "./amounts.ts";
import type { CurrencyCode } from "./currency.ts";
import {
  fallbackFirstDay,
  firstDayOfWeek,
  formatAmount,
  type MoneyLocale,
  readLocaleAmount,
} from "./locale.ts";

const FR: MoneyLocale = { locale: "fr-FR", currency: "EUR" };
const DE: MoneyLocale = { locale: "de-DE", currency: "EUR" };
const US: MoneyLocale = { locale: "en-US", currency: "USD" };
const CH: MoneyLocale = { locale: "de-CH", currency: "CHF" };
const JP: MoneyLocale = { locale: "ja-JP", currency: "JPY" };

/** Intl's own output, so the test does not depend on which space a locale uses. */
const intl = (locale: string, currency: string, value: number) =>
  new Intl.NumberFormat(locale, { style: "currency", currency }).format(value);

function reads(text: string, money: MoneyLocale): number | string {
  const reading = readLocaleAmount(text, money);
  return reading.ok ? reading.minor : reading.problem;
}

describe("formatAmount", () => {
  it("writes an amount as the locale does, from integer minor units", () => {
    expect(formatAmount(123450, FR)).toBe(intl("fr-FR", "EUR", 1234.5));
    // The shape: "1 234,50 €", whatever spaces Intl puts in (a narrow no-break one today).
    expect(formatAmount(123450, FR)).toMatch(/^1\s234,50\s€$/u);
    expect(formatAmount(123450, DE)).toBe("1.234,50\u00a0€");
    expect(formatAmount(123450, US)).toBe("$1,234.50");
    expect(formatAmount(-2500, US)).toBe("-$25.00");
    expect(formatAmount(123450, CH)).toBe(intl("de-CH", "CHF", 1234.5));
    expect(formatAmount(1234, JP)).toBe(intl("ja-JP", "JPY", 1234));
    expect(formatAmount(1234567, { locale: "en-US", currency: "BHD" }))
      .toBe(intl("en-US", "BHD", 1234.567));
    expect(formatAmount(0, US)).toBe("$0.00");
  });

  it("without the symbol, the number as an input shows it", () => {
    expect(formatAmount(123450, FR, { symbol: false })).toMatch(/^1\s234,50$/u);
    expect(formatAmount(123450, US, { symbol: false })).toBe("1,234.50");
    expect(formatAmount(1234, JP, { symbol: false })).toBe("1,234");
  });

  it("is exact past what a float holds", () => {
    expect(formatAmount(Number.MAX_SAFE_INTEGER, US)).toBe("$90,071,992,547,409.91");
  });
});

describe("readLocaleAmount", () => {
  it("reads amounts as typed in the locale", () => {
    expect(reads("1.234,50", DE)).toBe(123450);
    expect(reads("1.234,5", DE)).toBe(123450);
    expect(reads("1234,50", DE)).toBe(123450);
    expect(reads("1.234.567,89 €", DE)).toBe(123456789);
    expect(reads("1,234.50", US)).toBe(123450);
    expect(reads("$1,234.50", US)).toBe(123450);
    expect(reads("1,234,567", US)).toBe(123456700);
    expect(reads("1\u202f234,50 €", FR)).toBe(123450);
    expect(reads("1\u00a0234,50", FR)).toBe(123450);
    expect(reads("1 234,50", FR)).toBe(123450);
    expect(reads("1’234.50", CH)).toBe(123450);
    expect(reads("CHF 1'234.50", CH)).toBe(123450);
    expect(reads("1,23,456.50", { locale: "en-IN", currency: "USD" })).toBe(12345650);
  });

  it("reads 9.95 and 9,95 alike, as readAmount does", () => {
    for (const money of [DE, US, FR, CH]) {
      expect([money.locale, reads("9.95", money), reads("9,95", money)])
        .toEqual([money.locale, 995, 995]);
    }
  });

  it("signs and symbols: a leading minus, before or after the symbol, the symbol before or after", () => {
    expect(reads("-$25", US)).toBe(-2500);
    expect(reads("$-25", US)).toBe(-2500);
    expect(reads("-$-25", US)).toBe("invalid");
    expect(reads("-12,50 €", DE)).toBe(-1250);
    expect(reads("EUR 12,50", DE)).toBe(1250);
    expect(reads("eur 12,50", DE)).toBe(1250);
    expect(reads("12,50€", DE)).toBe(1250);
    expect(reads("CA$12.50", { locale: "en-US", currency: "CAD" })).toBe(1250);
    expect(reads("$12.50", { locale: "en-US", currency: "CAD" })).toBe(1250);
    expect(reads("−1 234,50 kr", { locale: "sv-SE", currency: "SEK" })).toBe(-123450);
    expect(reads("-0", US)).toBe(0);
    const zero = readLocaleAmount("-0", US);
    expect(zero.ok && Object.is(zero.minor, 0)).toBe(true);
  });

  it("refuses a single separator before three digits where it may be thousands or decimals", () => {
    for (const money of [US, DE, { locale: "en-GB", currency: "GBP" as const }]) {
      for (const text of ["1,234", "1.234", "12,345", "123.456"]) {
        expect([money.locale, text, reads(text, money)])
          .toEqual([money.locale, text, "ambiguous"]);
      }
    }
    const reading = readLocaleAmount("1,234", US, "Price");
    expect(reading).toEqual({
      ok: false,
      problem: "ambiguous",
      message: 'Price "1,234" is ambiguous (thousands or decimals?): write 1,234.00 for ' +
        "thousands, or use at most 2 decimals",
    });
    const german = readLocaleAmount("1.234", DE, "Preis");
    expect(!german.ok && german.message).toContain("write 1.234,00 for thousands");
    // en-IN writes 12,345 as a thousand too: still ambiguous.
    expect(reads("12,345", { locale: "en-IN", currency: "USD" })).toBe("ambiguous");
  });

  it("is not ambiguous where the locale groups with a space or an apostrophe", () => {
    expect(reads("1 234", FR)).toBe(123400);
    expect(reads("1\u202f234", FR)).toBe(123400);
    expect(reads("1’234", CH)).toBe(123400);
    // There `.` and `,` are decimal marks only: three decimals are too many for EUR and CHF.
    const french = readLocaleAmount("1.234", FR);
    expect(french).toEqual({
      ok: false,
      problem: "decimals",
      message: `Amount "1.234" has 3 decimals, but EUR amounts have at most 2 (for thousands, ` +
        `write ${formatAmount(123400, FR, { symbol: false })})`,
    });
    expect(reads("1,234", CH)).toBe("decimals");
    // And `.` cannot group thousands in fr-FR.
    expect(reads("1.234,50", FR)).toBe("invalid");
  });

  it("JPY has no decimals: 1,234 is 1234 yen, 12.5 is refused", () => {
    expect(reads("1,234", JP)).toBe(1234);
    expect(reads("￥1,234", JP)).toBe(1234);
    expect(reads("1234", JP)).toBe(1234);
    expect(reads("1,234", { locale: "en-US", currency: "JPY" })).toBe(1234);
    expect(readLocaleAmount("12.5", JP)).toEqual({
      ok: false,
      problem: "decimals",
      message: 'Amount "12.5" has decimals, but JPY amounts have none',
    });
    expect(reads("1,234.00", JP)).toBe("decimals");
  });

  it("BHD has three decimals: the locale's decimal mark before three digits is decimals", () => {
    const usBhd: MoneyLocale = { locale: "en-US", currency: "BHD" };
    const deBhd: MoneyLocale = { locale: "de-DE", currency: "BHD" };
    expect(reads("1.234", usBhd)).toBe(1234);
    expect(reads("1,234", deBhd)).toBe(1234);
    expect(reads("1,234.500", usBhd)).toBe(1234500);
    expect(reads("0.5", usBhd)).toBe(500);
    // The locale's group mark before three digits may still be either.
    expect(readLocaleAmount("1,234", usBhd)).toEqual({
      ok: false,
      problem: "ambiguous",
      message: 'Amount "1,234" is ambiguous (thousands or decimals?): write 1,234.000 for ' +
        "thousands, or 1.234 for decimals",
    });
    expect(reads("1.234", deBhd)).toBe("ambiguous");
    expect(reads("1.2345", usBhd)).toBe("decimals");
    expect(reads("1.5", { locale: "en-US", currency: "KWD" })).toBe(1500);
  });

  it("refuses more decimals than the currency has, and what is not an amount", () => {
    expect(readLocaleAmount("12.345", FR).ok).toBe(false);
    expect(reads("1234,567", DE)).toBe("decimals");
    expect(reads("0.234", US)).toBe("decimals");
    expect(readLocaleAmount("abc", US, "Price")).toEqual({
      ok: false,
      problem: "invalid",
      message: "Price must be written like 1,234.50",
    });
    expect(!readLocaleAmount("x", FR).ok && readLocaleAmount("x", FR)).toMatchObject({
      message: `Amount must be written like ${formatAmount(123450, FR, { symbol: false })}`,
    });
    expect(!readLocaleAmount("x", JP).ok && readLocaleAmount("x", JP))
      .toMatchObject({ message: "Amount must be written like 1,234" });
    for (
      const text of ["", " ", "1 234.50", "1,,234", "1,234,5", ".50", "1.", "12e3", "1-2", "--1"]
    ) {
      expect([text, reads(text, US)]).toEqual([text, "invalid"]);
    }
    expect(reads("12345678901", US)).toBe("too_large");
    expect(reads("9999999999.99", US)).toBe(999999999999);
    expect(reads("9999999999,999", { locale: "de-DE", currency: "KWD" })).toBe(9999999999999);
  });

  it("reads back what formatAmount writes, in every locale and currency", () => {
    const locales = [
      "en-US",
      "en-GB",
      "en-IN",
      "de-DE",
      "de-CH",
      "fr-FR",
      "fr-CA",
      "es-ES",
      "pt-BR",
      "sv-SE",
      "nb-NO",
      "da-DK",
      "ja-JP",
      "ar-EG",
      "ar-BH",
    ];
    const currencies: CurrencyCode[] = ["USD", "EUR", "CHF", "SEK", "JPY", "BHD"];
    const amounts = [0, 5, 99, 1234, 123450, 1234567, -98765, 9876543210];
    for (const locale of locales) {
      for (const currency of currencies) {
        for (const amount of amounts) {
          const money = { locale, currency };
          for (const symbol of [true, false]) {
            const text = formatAmount(amount, money, { symbol });
            expect([locale, currency, text, reads(text, money)])
              .toEqual([locale, currency, text, amount]);
          }
        }
      }
    }
  });

  it("in en-US/USD, agrees with readAmount on what it accepts and what is ambiguous", () => {
    const samples = [
      "0",
      "7",
      "0.1",
      "9.95",
      "9,95",
      "259,00",
      "007.50",
      "  9,95  ",
      "$9.95",
      "$ 9,95",
      "-25,50",
      "-$25.50",
      "$-25.50",
      "1,234.50",
      "1.234,50",
      "1,234,567.89",
      "1.234.567,89",
      "1,234,567",
      "1.234.567",
      "1,234",
      "1.234",
      "999,999",
      "12,345",
    ];
    for (const text of samples) {
      const old = readAmount(text);
      const now = readLocaleAmount(text, US);
      expect([text, now.ok ? now.minor : now.problem])
        .toEqual([text, old.ok ? old.cents : old.problem]);
    }
  });
});

describe("firstDayOfWeek", () => {
  it("is the locale's: Monday in Europe, Sunday in the US and Japan, Saturday in Egypt", () => {
    expect(firstDayOfWeek("fr-FR")).toBe(1);
    expect(firstDayOfWeek("de-DE")).toBe(1);
    expect(firstDayOfWeek("en-GB")).toBe(1);
    expect(firstDayOfWeek("en-US")).toBe(7);
    expect(firstDayOfWeek("ja-JP")).toBe(7);
    expect(firstDayOfWeek("ar-EG")).toBe(6);
    expect(firstDayOfWeek("en-US-u-fw-mon")).toBe(1);
  });

  it("the fallback table (engines without week info) agrees with this engine's data", () => {
    const locales = [
      "en-US",
      "en-CA",
      "fr-CA",
      "en-GB",
      "en-AU",
      "fr-FR",
      "de-DE",
      "de-CH",
      "sv-SE",
      "ja-JP",
      "pt-BR",
      "pt-PT",
      "ar-EG",
      "ar-BH",
      "ar-KW",
      "ar-SA",
      "he-IL",
      "dv-MV",
      "hi-IN",
      "en",
      "fr",
      "ar",
      "en-US-u-fw-mon",
      "en-GB-u-ca-gregory-fw-sun",
    ];
    for (const locale of locales) {
      expect([locale, fallbackFirstDay(locale)]).toEqual([locale, firstDayOfWeek(locale)]);
    }
  });
});
