// Currencies: what a store's amounts are counted in. An amount is always an
// integer of the currency's minor unit (cents, yen, fils), so the one fact the
// arithmetic needs is how many decimals that unit has (ISO 4217: JPY 0, USD 2,
// BHD 3), and, for stores that round cash payments, the smallest coin in
// circulation. Integers only: a float never touches money here.

import * as z from "zod";

/** A currency the app supports: its ISO 4217 minor unit and its cash increment. */
export interface Currency {
  /** Decimals of the minor unit (ISO 4217 "minor unit"): 2 for EUR, 0 for JPY, 3 for BHD. */
  readonly minorUnit: 0 | 2 | 3;
  /**
   * The step a cash payment is rounded to, in minor units, where the smallest
   * coin is larger than the minor unit (1 where cash is paid to the minor unit).
   */
  readonly cashIncrement: number;
}

/**
 * The supported currencies. Cash increments follow the coins actually in use
 * (CLDR's cashRounding): CHF 0.05, CAD and AUD 0.05 (no one-cent coins),
 * DKK 0.50 (the 50 øre coin is the smallest), SEK and NOK 1.00.
 */
export const CURRENCIES = {
  USD: { minorUnit: 2, cashIncrement: 1 },
  EUR: { minorUnit: 2, cashIncrement: 1 },
  GBP: { minorUnit: 2, cashIncrement: 1 },
  CAD: { minorUnit: 2, cashIncrement: 5 },
  AUD: { minorUnit: 2, cashIncrement: 5 },
  CHF: { minorUnit: 2, cashIncrement: 5 },
  SEK: { minorUnit: 2, cashIncrement: 100 },
  NOK: { minorUnit: 2, cashIncrement: 100 },
  DKK: { minorUnit: 2, cashIncrement: 50 },
  JPY: { minorUnit: 0, cashIncrement: 1 },
  BHD: { minorUnit: 3, cashIncrement: 1 },
  KWD: { minorUnit: 3, cashIncrement: 1 },
} as const satisfies Record<string, Currency>;

export type CurrencyCode = keyof typeof CURRENCIES;

/** The codes, in the table's order (for selects and the schema). */
export const CURRENCY_CODES = Object.keys(CURRENCIES) as [CurrencyCode, ...CurrencyCode[]];

/** A store's currency as sent by a form or the API: one of the supported ISO 4217 codes. */
export const currencyCodeSchema = z.enum(CURRENCY_CODES, {
  error: `currency must be one of ${CURRENCY_CODES.join(", ")}`,
});

/** The supported currency of a code; throws on an unsupported one (validate with the schema first). */
export function currencyOf(code: CurrencyCode): Currency {
  const found: Currency | undefined = Object.hasOwn(CURRENCIES, code)
    ? CURRENCIES[code]
    : undefined;
  if (!found) throw new Error(`unsupported currency: ${code}`);
  return found;
}

/** Throws unless the amount is a whole number of minor units a float can hold exactly. */
export function assertMinor(minor: number, what = "amount"): void {
  if (!Number.isSafeInteger(minor)) {
    throw new Error(`${what} is not a whole number of minor units: ${minor}`);
  }
}

/** 123450 in EUR → "1234.50", 1234 in JPY → "1234", -5 in BHD → "-0.005": for NUMERIC and Intl. */
export function minorToDecimal(minor: number, code: CurrencyCode): string {
  assertMinor(minor);
  const digits = currencyOf(code).minorUnit;
  const sign = minor < 0 ? "-" : "";
  const text = String(Math.abs(minor)).padStart(digits + 1, "0");
  if (digits === 0) return `${sign}${text}`;
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** A cash amount rounded to the coins in use, and the rounding line the receipt shows. */
export interface CashRounding {
  /** What the client pays in cash, in minor units. */
  amount: number;
  /** amount − the amount due: its own line on the receipt (may be negative or 0). */
  rounding: number;
}

/**
 * The amount due rounded to the currency's cash increment, half away from zero
 * (CHF 12.33 → 12.35, 12.32 → 12.30; SEK 10.50 → 11.00; a refund of −12.33 → −12.35),
 * so a refund mirrors a sale. Currencies paid to the minor unit are unchanged.
 */
export function cashRound(minor: number, code: CurrencyCode): CashRounding {
  assertMinor(minor);
  const step = currencyOf(code).cashIncrement;
  const abs = Math.abs(minor);
  const rest = abs % step;
  const roundedAbs = rest * 2 >= step ? abs - rest + step : abs - rest;
  const amount = minor < 0 ? -roundedAbs : roundedAbs;
  // `|| 0` keeps a rounded −0 from printing as "-0.00".
  return { amount: amount || 0, rounding: amount - minor || 0 };
}
