// Money: decimal strings at the edges (database NUMERIC, JSON), integer cents
// in arithmetic, never floating-point sums.

const DECIMAL = /^(-)?(\d{1,10})(?:\.(\d{1,2}))?$/;

/** "12.5" → 1250, "-3" → -300; undefined when the text is not an amount. */
export function parseCents(value: string | number | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = typeof value === "number" ? (Number.isFinite(value) ? value.toFixed(2) : "") : value
    .trim().replace(/^\$/, "").replace(/,/g, "");
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const cents = Number(m[2]) * 100 + Number((m[3] ?? "").padEnd(2, "0"));
  return m[1] && cents !== 0 ? -cents : cents;
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
