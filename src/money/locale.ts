// Locale: how a store writes and reads its amounts, and where its week starts.
// A store outside the US must see `1 234,50 €`, not `$1,234.50`, and a person
// must be able to type an amount the way their country writes it. Writing is
// Intl's job (fed an exact decimal string, never a float); reading is ours,
// because Intl cannot parse, and because a misread amount is worse than a
// refused one: `1,234` may be a thousand or one and a quarter, so wherever the
// locale and the currency leave both readings open, the reader refuses it and
// says how to write it, in the spirit of `readAmount` (amounts.ts).

import { type CurrencyCode, currencyOf, minorToDecimal } from "./currency.ts";

/** How a store counts and writes money: a BCP 47 locale and its ISO 4217 currency. */
export interface MoneyLocale {
  locale: string;
  currency: CurrencyCode;
}

// Constructing an Intl formatter is costly; a store uses a handful of them.
const formatters = new Map<string, Intl.NumberFormat>();

function formatter(money: MoneyLocale, symbol: boolean): Intl.NumberFormat {
  const key = `${money.locale}|${money.currency}|${symbol}`;
  let found = formatters.get(key);
  if (!found) {
    const digits = currencyOf(money.currency).minorUnit;
    found = new Intl.NumberFormat(money.locale, {
      ...(symbol ? { style: "currency", currency: money.currency } : {}),
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formatters.set(key, found);
  }
  return found;
}

/**
 * An integer amount of minor units as the locale writes it: 123450 in EUR is
 * `1 234,50 €` in fr-FR and `1.234,50 €` in de-DE, 1234 in JPY `￥1,234` in ja-JP.
 * With `symbol: false`, the number alone (`1 234,50`), as an input shows it.
 */
export function formatAmount(
  minor: number,
  money: MoneyLocale,
  options: { symbol?: boolean } = {},
): string {
  // Intl formats a decimal string exactly: no float ever holds the amount.
  const decimal = minorToDecimal(minor, money.currency) as `${number}`;
  return formatter(money, options.symbol ?? true).format(decimal);
}

/** What a typed amount reads as: minor units, or why it cannot be read and what to say. */
export type LocaleAmountReading =
  | { ok: true; minor: number }
  | {
    ok: false;
    problem: "invalid" | "ambiguous" | "decimals" | "too_large";
    message: string;
  };

/** The marks a locale writes numbers with, learnt from Intl once per locale and currency. */
interface Marks {
  decimal: string;
  group: string;
  /** The locale's own digits 0–9 when it does not write ASCII ones (ar-EG: ٠–٩). */
  digits: string[];
  /** Minus signs and currency symbols (its symbol, narrow symbol, ISO code) a person may type. */
  minus: string[];
  symbols: string[];
  /** Digits in the last group (3) and in the groups before it (3; 2 in en-IN's 1,23,456). */
  primary: number;
  secondary: number;
}

const SPACES = new Set([" ", "\u00a0", "\u202f", "\u2009"]);
const APOSTROPHES = new Set(["'", "\u2019", "\u02bc"]);
const PUNCTUATION = new Set([".", ","]);
/** Bidi marks Intl puts around numbers in right-to-left locales: never meaningful when read. */
const BIDI_MARKS = /[\u200e\u200f\u061c]/g;

const marksCache = new Map<string, Marks>();

function marksOf(money: MoneyLocale): Marks {
  const key = `${money.locale}|${money.currency}`;
  const cached = marksCache.get(key);
  if (cached) return cached;
  const parts = new Intl.NumberFormat(money.locale, {
    style: "currency",
    currency: money.currency,
    minimumFractionDigits: 1,
  }).formatToParts(-1234567890.5);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const integers = parts.filter((p) => p.type === "integer").map((p) => p.value.length);
  const digitText = new Intl.NumberFormat(money.locale, { useGrouping: false }).format(9876543210);
  const narrow = new Intl.NumberFormat(money.locale, {
    style: "currency",
    currency: money.currency,
    currencyDisplay: "narrowSymbol",
  }).formatToParts(1).find((p) => p.type === "currency")?.value;
  const marks: Marks = {
    decimal: part("decimal") || ".",
    group: part("group") || ",",
    digits: [...digitText].reverse(),
    minus: [...new Set(["-", "\u2212", part("minusSign") || "-"])],
    symbols: [...new Set([part("currency"), narrow ?? "", money.currency])]
      .map((symbol) => symbol.replace(BIDI_MARKS, "")).filter(Boolean)
      // Longest first, so "CA$" is taken whole rather than as "$".
      .sort((a, b) => b.length - a.length),
    primary: integers.at(-1) ?? 3,
    secondary: integers.length > 2 ? integers.at(-2)! : integers.at(-1) ?? 3,
  };
  marksCache.set(key, marks);
  return marks;
}

/** Spaces of every width are one mark, and so are the apostrophes (de-CH `1’234`). */
function sameMark(a: string, b: string): boolean {
  return a === b || (SPACES.has(a) && SPACES.has(b)) || (APOSTROPHES.has(a) && APOSTROPHES.has(b));
}

/**
 * Can the mark group thousands here? The locale's own group mark can; so can `.`
 * or `,` where the locale groups with one of them (a person used to the other
 * convention types it). Where the locale groups with a space or an apostrophe,
 * `.` and `,` can only be decimal: its grouping makes `1.234` unambiguous there.
 */
function canGroup(mark: string, marks: Marks): boolean {
  return sameMark(mark, marks.group) || (PUNCTUATION.has(mark) && PUNCTUATION.has(marks.group));
}

/** Can the mark be the decimal one? The locale's own, and `.` or `,` anywhere (`9.95` = `9,95`). */
function canBeDecimal(mark: string, marks: Marks): boolean {
  return mark === marks.decimal || PUNCTUATION.has(mark);
}

/** Digit runs grouped as the locale groups them (`1,23,456` in en-IN) or by threes. */
function groupedWell(runs: readonly string[], marks: Marks): boolean {
  if (runs.length < 2 || !/^[1-9]\d*$/.test(runs[0])) return false;
  const fits = (secondary: number, primary: number) =>
    runs[0].length <= (runs.length > 2 ? secondary : Math.max(secondary, primary)) &&
    runs.slice(1, -1).every((r) => r.length === secondary) &&
    runs.at(-1)!.length === primary;
  return fits(marks.secondary, marks.primary) || fits(3, 3);
}

/** Removes one leading (or trailing) minus sign or currency symbol; returns what is left. */
function strip(
  text: string,
  candidates: readonly string[],
  at: "start" | "end",
): [string, boolean] {
  for (const c of candidates) {
    const matches = at === "start"
      ? text.toUpperCase().startsWith(c.toUpperCase())
      : text.toUpperCase().endsWith(c.toUpperCase());
    if (matches) {
      const rest = at === "start" ? text.slice(c.length) : text.slice(0, -c.length);
      return [rest.replace(/^\s+|\s+$/g, ""), true];
    }
  }
  return [text, false];
}

/** Whole units an amount may have: today's NUMERIC(12,2) columns hold 10 digits before the point. */
const MAX_WHOLE_DIGITS = 10;

/**
 * An amount typed in the store's locale, read into minor units. `1.234,50` in
 * de-DE and `1,234.50` in en-US are 123450; `9.95` and `9,95` are the same
 * anywhere; the locale's currency symbol or code and a leading minus are
 * allowed; the locale's own digits are read (ar-EG). Refused, with a message
 * naming `field`:
 * - ambiguous: a single `.` or `,` followed by three digits (`1,234`, `1.234`)
 *   where the locale groups with `.` or `,`, so it may be thousands or decimals.
 *   Two cases are not ambiguous: a currency with no decimals (JPY: `1,234` is
 *   1234 yen), and the locale's decimal mark in a currency of three decimals
 *   (BHD in en-US: `1.234` is 1.234, written as every amount of it is).
 *   Where the locale groups with a space or an apostrophe (fr-FR, de-CH), `.` and
 *   `,` are decimal marks only, so `1 234` is 1234 and `1.234` has 3 decimals.
 * - decimals: more decimals than the currency has (JPY none, EUR 2, BHD 3).
 * - too_large: more than 10 whole digits.
 * - invalid: anything else.
 */
export function readLocaleAmount(
  value: string,
  money: MoneyLocale,
  field = "Amount",
): LocaleAmountReading {
  const marks = marksOf(money);
  const minorUnit = currencyOf(money.currency).minorUnit;
  const shown = value.trim();
  const fail = (problem: "invalid" | "ambiguous" | "decimals" | "too_large", message: string) => ({
    ok: false as const,
    problem,
    message,
  });
  const plain = (minor: number) => formatAmount(minor, money, { symbol: false });
  // 1,234.50 in EUR, 1,234 in JPY, 1,234.500 in BHD: the locale's marks in the currency's decimals.
  const example = plain(1234 * 10 ** minorUnit + (minorUnit ? 5 * 10 ** (minorUnit - 1) : 0));
  const invalid = () => fail("invalid", `${field} must be written like ${example}`);

  let text = [...shown.replace(BIDI_MARKS, "")]
    .map((ch) => {
      const d = marks.digits.indexOf(ch);
      return d >= 0 ? String(d) : ch;
    })
    .join("");
  // A minus before or after the currency symbol (`-€12` or `€-12`), not both; the symbol may also trail.
  let minusBefore: boolean, minusAfter: boolean, symbol: boolean;
  [text, minusBefore] = strip(text, marks.minus, "start");
  [text, symbol] = strip(text, marks.symbols, "start");
  [text, minusAfter] = strip(text, marks.minus, "start");
  if (!symbol) [text, symbol] = strip(text, marks.symbols, "end");
  if (minusBefore && minusAfter) return invalid();
  const negative = minusBefore || minusAfter;

  // Digit runs and the single marks between them.
  if (!/^\d+(?:\D\d+)*$/u.test(text)) return invalid();
  const runs = text.split(/\D/u);
  const seps = [...text.replace(/\d/g, "")];

  type Reading = { whole: string; fraction: string };
  let asGroups: Reading | undefined;
  let asDecimal: Reading | undefined;
  if (seps.length === 0) {
    asDecimal = { whole: text, fraction: "" };
  } else {
    // Every mark groups thousands: `1,234,567`, `1 234`.
    if (
      seps.every((s) => sameMark(s, seps[0]) && canGroup(s, marks)) && groupedWell(runs, marks)
    ) {
      asGroups = { whole: runs.join(""), fraction: "" };
    }
    // The last mark is the decimal one, any before it group: `1.234,50`, `12,5`.
    const last = seps.at(-1)!;
    const before = seps.slice(0, -1);
    if (
      canBeDecimal(last, marks) &&
      before.every((s) => sameMark(s, before[0]) && !sameMark(s, last) && canGroup(s, marks)) &&
      (before.length === 0 || groupedWell(runs.slice(0, -1), marks))
    ) {
      asDecimal = { whole: runs.slice(0, -1).join(""), fraction: runs.at(-1)! };
    }
  }

  let reading: Reading | undefined;
  if (asGroups && asDecimal) {
    const fractionLength = asDecimal.fraction.length;
    if (minorUnit === 0) reading = asGroups;
    else if (fractionLength === minorUnit && seps[0] === marks.decimal) reading = asDecimal;
    else {
      const thousands = plain(Number(asGroups.whole) * 10 ** minorUnit);
      const decimals = fractionLength <= minorUnit
        ? `${
          plain(Number(asDecimal.whole + asDecimal.fraction.padEnd(minorUnit, "0")))
        } for decimals`
        : `use at most ${minorUnit} decimals`;
      return fail(
        "ambiguous",
        `${field} "${shown}" is ambiguous (thousands or decimals?): write ${thousands} for ` +
          `thousands, or ${decimals}`,
      );
    }
  } else {
    reading = asGroups ?? asDecimal;
  }
  if (!reading) return invalid();

  if (reading.fraction.length > minorUnit) {
    // `1.234` in fr-FR was perhaps meant as a thousand: say how to write one.
    const thousands = seps.length === 1 && reading.fraction.length === 3 &&
      /^[1-9]\d{0,2}$/.test(reading.whole);
    const hint = thousands
      ? ` (for thousands, write ${
        plain(Number(reading.whole + reading.fraction) * 10 ** minorUnit)
      })`
      : "";
    return fail(
      "decimals",
      minorUnit === 0
        ? `${field} "${shown}" has decimals, but ${money.currency} amounts have none${hint}`
        : `${field} "${shown}" has ${reading.fraction.length} decimals, but ${money.currency} ` +
          `amounts have at most ${minorUnit}${hint}`,
    );
  }
  const whole = reading.whole.replace(/^0+(?=\d)/, "");
  if (whole.length > MAX_WHOLE_DIGITS) return fail("too_large", `${field} is too large`);
  const minor = Number(whole) * 10 ** minorUnit + Number(reading.fraction.padEnd(minorUnit, "0"));
  if (!Number.isSafeInteger(minor)) return fail("too_large", `${field} is too large`);
  return { ok: true, minor: negative && minor !== 0 ? -minor : minor };
}

/** ISO weekday: 1 = Monday … 7 = Sunday. */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/**
 * Regions whose week does not start on Monday (CLDR, as V8 ships it), for
 * engines without Intl.Locale week info.
 */
const FIRST_DAY_BY_REGION: Record<string, Weekday> = {
  MV: 5,
  ...Object.fromEntries(
    "AF BH DJ DZ EG IQ IR JO KW LY OM QA SD SY".split(" ").map((r) => [r, 6]),
  ),
  ...Object.fromEntries(
    ("AG AS BD BR BS BT BW BZ CA CO DM DO ET GT GU HK HN ID IL IN JM JP KE KH KR LA MH MM MO " +
      "MT MX MZ NI NP PA PE PH PK PR PT PY SA SG SV TH TT TW UM US VE VI WS YE ZA ZW")
      .split(" ").map((r) => [r, 7]),
  ),
};

const FW_KEYWORDS: Record<string, Weekday> = {
  mon: 1,
  tue: 2,
  wed: 3,
  thu: 4,
  fri: 5,
  sat: 6,
  sun: 7,
};

/** The first day of the week from the fallback table: the `fw` keyword, else the region's. */
export function fallbackFirstDay(locale: string): Weekday {
  const loc = new Intl.Locale(locale);
  const fw = /-u(?:-[a-z0-9]{2,8})*?-fw-([a-z]{3})(?:-|$)/i.exec(loc.toString())?.[1]
    ?.toLowerCase();
  if (fw && FW_KEYWORDS[fw]) return FW_KEYWORDS[fw];
  const region = loc.region ?? loc.maximize().region ?? "";
  return FIRST_DAY_BY_REGION[region] ?? 1;
}

interface WeekInfo {
  firstDay: number;
}

/**
 * The first day of the week in the locale's date pickers: 1 = Monday (fr-FR,
 * de-DE, en-GB), 7 = Sunday (en-US, ja-JP), 6 = Saturday (ar-EG). From
 * `Intl.Locale.prototype.getWeekInfo` (V8, Safari) or the older `weekInfo`
 * accessor, else the fallback table.
 */
export function firstDayOfWeek(locale: string): Weekday {
  const loc = new Intl.Locale(locale) as Intl.Locale & {
    getWeekInfo?: () => WeekInfo;
    weekInfo?: WeekInfo;
  };
  const info = typeof loc.getWeekInfo === "function" ? loc.getWeekInfo() : loc.weekInfo;
  const day = info?.firstDay;
  if (typeof day === "number" && day >= 1 && day <= 7) return day as Weekday;
  return fallbackFirstDay(locale);
}
