// Amounts in dollars, as the app counts them today: decimal strings at the edges
// (database NUMERIC, JSON), integer cents in arithmetic, never floating-point
// sums, and one reader for every amount a person types, so the builder, the
// catalog, the CSV import and the API cannot read the same text differently.
// It lives with the rest of money (currency.ts, locale.ts, tax.ts), which will
// take over per store currency and locale; until then this is the one in use.

/** Whole units an amount may have: NUMERIC(12,2) holds 10 digits before the point. */
const MAX_WHOLE_DIGITS = 10;

/** What an amount typed by a person reads as: whole cents, or why it cannot be read. */
export type AmountReading =
  | { ok: true; cents: number }
  | { ok: false; problem: "invalid" | "ambiguous" };

/** "1,234,567" with separator ",": groups of three after a first of one to three digits. */
function grouped(text: string, separator: string): boolean {
  const groups = text.split(separator);
  return groups.length > 1 && /^\d{1,3}$/.test(groups[0]) &&
    groups.slice(1).every((g) => /^\d{3}$/.test(g));
}

/**
 * The one reading of amounts people type, everywhere (quote builder, catalog
 * screens, catalog CSV, API): `9.95` and `9,95` are the same; a thousands
 * separator is read only where it cannot be a decimal one: beside the other
 * separator (`1,234.50`, `1.234,50`) or repeated (`1,234,567`). A single
 * separator followed by three digits (`1,234`, `1.234`) could be either, and
 * is refused as ambiguous rather than guessed. A `$` and a leading minus are
 * allowed; at most two decimals; anything else is refused.
 */
export function readAmount(value: string | number): AmountReading {
  if (typeof value === "number") {
    const cents = Math.round(value * 100);
    // A number is taken at its word: 12.345 has a fraction of a cent, and is refused.
    if (!Number.isFinite(value) || Math.abs(cents - value * 100) > 1e-6) {
      return { ok: false, problem: "invalid" };
    }
    return wholeCents(Math.abs(cents), value < 0);
  }
  const m = /^(-)?\s*\$?\s*(-)?([\d.,]+)$/.exec(value.trim());
  if (!m || (m[1] && m[2])) return { ok: false, problem: "invalid" };
  const negative = Boolean(m[1] || m[2]);
  const text = m[3];
  const lastComma = text.lastIndexOf(",");
  const lastDot = text.lastIndexOf(".");
  let whole: string;
  let fraction = "";
  if (lastComma >= 0 && lastDot >= 0) {
    // Both: the last one is the decimal separator, the other groups thousands.
    const decimal = lastComma > lastDot ? "," : ".";
    const thousands = decimal === "," ? "." : ",";
    const at = text.lastIndexOf(decimal);
    fraction = text.slice(at + 1);
    if (!grouped(text.slice(0, at), thousands) || !/^\d{1,2}$/.test(fraction)) {
      return { ok: false, problem: "invalid" };
    }
    whole = text.slice(0, at).replaceAll(thousands, "");
  } else if (lastComma >= 0 || lastDot >= 0) {
    const separator = lastComma >= 0 ? "," : ".";
    const parts = text.split(separator);
    if (parts.length === 2 && /^\d+$/.test(parts[0]) && /^\d{1,2}$/.test(parts[1])) {
      [whole, fraction] = parts;
    } else if (parts.length === 2 && /^\d{1,3}$/.test(parts[0]) && /^\d{3}$/.test(parts[1])) {
      return { ok: false, problem: "ambiguous" };
    } else if (parts.length > 2 && grouped(text, separator)) {
      whole = parts.join("");
    } else {
      return { ok: false, problem: "invalid" };
    }
  } else {
    whole = text;
  }
  whole = whole.replace(/^0+(?=\d)/, "");
  if (!/^\d+$/.test(whole) || whole.length > MAX_WHOLE_DIGITS) {
    return { ok: false, problem: "invalid" };
  }
  return wholeCents(Number(whole) * 100 + Number(fraction.padEnd(2, "0")), negative);
}

function wholeCents(cents: number, negative: boolean): AmountReading {
  if (!Number.isSafeInteger(cents) || cents >= 10 ** (MAX_WHOLE_DIGITS + 2)) {
    return { ok: false, problem: "invalid" };
  }
  return { ok: true, cents: negative && cents !== 0 ? -cents : cents };
}

/**
 * The message for an amount that cannot be read, naming its field:
 * "Price must be a number like 12.50", or why a separator is ambiguous.
 */
export function amountMessage(field: string, value: unknown, example = "12.50"): string {
  const reading = typeof value === "string" || typeof value === "number"
    ? readAmount(value)
    : undefined;
  if (reading && !reading.ok && reading.problem === "ambiguous") {
    const text = String(value).trim();
    const digits = text.replace(/\D/g, "");
    return `${field} "${text}" is ambiguous (thousands or decimals?): write ${digits}.00 for ` +
      `${digits} dollars, or use at most 2 decimals`;
  }
  return `${field} must be a number like ${example}`;
}

/** "12.5" or "12,5" → 1250, "-3" → -300; undefined when the text is not an amount (readAmount). */
export function parseCents(value: string | number | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const reading = readAmount(value);
  return reading.ok ? reading.cents : undefined;
}

/** Like parseCents, with 0 for anything blank or unreadable (the form's default). */
export function centsOrZero(value: string | number | null | undefined): number {
  return parseCents(value) ?? 0;
}

/** 1250 → "12.50": the decimal string stored and sent as JSON. */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** 123456 → "$1,234.56", -2500 → "-$25.00". */
export function formatMoney(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const [whole, frac] = centsToDecimal(Math.abs(cents)).split(".");
  return `${sign}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${frac}`;
}

/** The same, for a decimal string as stored ("12.5" → "$12.50"). */
export function formatDecimal(value: string | number | null | undefined): string {
  return formatMoney(centsOrZero(value));
}
