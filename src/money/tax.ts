// Tax per document: the figures a tax office reads on a receipt (net, tax and
// gross per rate, and the totals) must add up exactly, to the minor unit, on
// every copy. Where tax goes wrong in other tools is a cent lost between
// rounding each line and rounding the document, or tax-included prices whose
// net and tax do not add back to the price. So: lines are grouped by rate, the
// tax of each group is rounded once (or per line where a store's authority asks
// for it), net/gross is derived from it by subtraction or addition, never
// rounded separately, and the totals are sums of the groups. Pure integer
// arithmetic in minor units; BigInt wherever amount × rate may pass 2^53.

/** A store's named tax rate: 2000 basis points = 20 %, 550 = 5.5 %, 0 = exempt. */
export interface TaxRate {
  id: string;
  name: string;
  basisPoints: number;
}

/** A line of a document: its total as entered (tax included or not, per the store), and its rate. */
export interface TaxLine {
  amountMinor: number;
  rateId: string;
}

export interface TaxRules {
  /** Prices entered with tax included (Europe) or without (the US). */
  pricesIncludeTax: boolean;
  /** Round the tax once per rate on the document (the default), or on each line and sum. */
  rounding: "document" | "line";
}

/** Net + tax = gross, exactly, in minor units. */
export interface TaxFigures {
  net: number;
  tax: number;
  gross: number;
}

export interface RateFigures extends TaxFigures {
  rateId: string;
}

/** One line's share of its rate's figures (for printing each line's net and tax). */
export interface LineFigures extends TaxFigures {
  rateId: string;
}

export interface DocumentTax {
  /** One entry per rate the lines use, in the order of the rates given. */
  rates: RateFigures[];
  /** The same order as the lines given; per rate they add up to that rate's figures. */
  lines: LineFigures[];
  /** The sums of the rates. */
  totals: TaxFigures;
}

/** Basis points in one whole: 10 000 = 100 %. */
const WHOLE = 10_000n;

/** Highest rate accepted, to catch a percentage typed where basis points were meant twice over. */
const MAX_BASIS_POINTS = 100_000;

/**
 * A line's exact tax as a fraction numerator / denominator (denominator > 0):
 * amount × r without tax included, amount × r / (1 + r) with it included.
 */
function exactTax(amount: bigint, basisPoints: number, included: boolean): [bigint, bigint] {
  const bp = BigInt(basisPoints);
  return [amount * bp, included ? WHOLE + bp : WHOLE];
}

/** numerator / denominator rounded half away from zero ("half-up" of accounting), denominator > 0. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  const q = (abs * 2n + denominator) / (denominator * 2n);
  return negative ? -q : q;
}

/** floor(numerator / denominator) for denominator > 0 (BigInt division truncates toward zero). */
function divideFloor(numerator: bigint, denominator: bigint): bigint {
  const q = numerator / denominator;
  return numerator % denominator !== 0n && numerator < 0n ? q - 1n : q;
}

function toSafe(value: bigint, what: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`${what} is too large: ${value}`);
  return n;
}

function checkInput(lines: readonly TaxLine[], rates: readonly TaxRate[]): void {
  const byId = new Map<string, TaxRate>();
  for (const rate of rates) {
    if (byId.has(rate.id)) throw new Error(`tax rate listed twice: ${rate.id}`);
    if (
      !Number.isSafeInteger(rate.basisPoints) || rate.basisPoints < 0 ||
      rate.basisPoints > MAX_BASIS_POINTS
    ) {
      throw new Error(`tax rate ${rate.id} has an invalid rate: ${rate.basisPoints} basis points`);
    }
    byId.set(rate.id, rate);
  }
  for (const line of lines) {
    if (!Number.isSafeInteger(line.amountMinor)) {
      throw new Error(`line amount is not a whole number of minor units: ${line.amountMinor}`);
    }
    if (!byId.has(line.rateId)) throw new Error(`line has an unknown tax rate: ${line.rateId}`);
  }
}

/**
 * The tax of a document. Per rate: with prices including tax, gross is the sum
 * of its lines and tax = round(gross × r / (1 + r)); without, net is the sum and
 * tax = round(net × r); rounding half away from zero to the minor unit, once per
 * rate ("document") or per line and summed ("line"). The other figure follows by
 * subtraction or addition, so net + tax = gross holds exactly for every rate,
 * every line and the totals. Each line's share of its rate's tax is its own
 * rounded tax under "line" rounding, and under "document" rounding the rate's tax
 * shared by largest remainder of the lines' exact taxes, so the lines add up.
 *
 * Note the tie with tax included: 69.99 at 20 % has an exact tax of 11.665,
 * which rounds half-up to 11.67 (net 58.32): the tax is what is rounded, as the
 * issue states, and the net is what remains.
 */
export function documentTax(
  lines: readonly TaxLine[],
  rates: readonly TaxRate[],
  rules: TaxRules,
): DocumentTax {
  checkInput(lines, rates);
  const included = rules.pricesIncludeTax;

  // Each line's tax, per the rule; its share under "document" rounding comes below.
  const lineTax: bigint[] = lines.map(() => 0n);
  const rateFigures: RateFigures[] = [];
  for (const rate of rates) {
    const members = lines.flatMap((line, i) => line.rateId === rate.id ? [i] : []);
    if (members.length === 0) continue;
    const sum = members.reduce((s, i) => s + BigInt(lines[i].amountMinor), 0n);
    let tax: bigint;
    if (rules.rounding === "line") {
      tax = 0n;
      for (const i of members) {
        const amount = BigInt(lines[i].amountMinor);
        lineTax[i] = divideRounded(...exactTax(amount, rate.basisPoints, included));
        tax += lineTax[i];
      }
    } else {
      tax = divideRounded(...exactTax(sum, rate.basisPoints, included));
      shareByLargestRemainder(tax, members, lines, rate.basisPoints, included, lineTax);
    }
    const net = included ? sum - tax : sum;
    const gross = included ? sum : sum + tax;
    rateFigures.push({
      rateId: rate.id,
      net: toSafe(net, "net"),
      tax: toSafe(tax, "tax"),
      gross: toSafe(gross, "gross"),
    });
  }

  const lineFigures = lines.map((line, i): LineFigures => {
    const amount = BigInt(line.amountMinor);
    const net = included ? amount - lineTax[i] : amount;
    const gross = included ? amount : amount + lineTax[i];
    return {
      rateId: line.rateId,
      net: toSafe(net, "net"),
      tax: toSafe(lineTax[i], "tax"),
      gross: toSafe(gross, "gross"),
    };
  });
  const sum = (key: keyof TaxFigures) =>
    toSafe(rateFigures.reduce((s, r) => s + BigInt(r[key]), 0n), `total ${key}`);
  const totals = { net: sum("net"), tax: sum("tax"), gross: sum("gross") };
  return { rates: rateFigures, lines: lineFigures, totals };
}

/**
 * Shares a rate's rounded tax among its lines: each gets the floor of its exact
 * tax, and the units left over (between 0 and the number of lines, since the
 * rate's tax is its exact sum rounded) go one each to the lines with the largest
 * fractional parts, the earlier line first on a tie.
 */
function shareByLargestRemainder(
  tax: bigint,
  members: readonly number[],
  lines: readonly TaxLine[],
  basisPoints: number,
  included: boolean,
  into: bigint[],
): void {
  const remainders: { i: number; remainder: bigint }[] = [];
  let left = tax;
  for (const i of members) {
    // Every line of a rate has the same denominator, so the remainders compare directly.
    const [n, d] = exactTax(BigInt(lines[i].amountMinor), basisPoints, included);
    const floor = divideFloor(n, d);
    into[i] = floor;
    left -= floor;
    remainders.push({ i, remainder: n - floor * d });
  }
  if (left < 0n || left > BigInt(members.length)) throw new Error("tax shares do not add up");
  const byRemainder = (a: { i: number; remainder: bigint }, b: { i: number; remainder: bigint }) =>
    a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1;
  remainders.sort(byRemainder);
  for (let k = 0; left > 0n; k++, left--) into[remainders[k].i] += 1n;
}
