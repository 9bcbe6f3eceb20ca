import type { PriceBreakdown } from "../../src/quotes/price_breakdown.ts";
import { formatMoney } from "../../src/money/amounts.ts";

/** The priced lines of one option, then subtotal, shipping, adjustment and total. */
export function PriceTable(
  { prices, fullPrices, caption, note = "" }: {
    prices: PriceBreakdown;
    /** The same lines with their names whole (the fit may shorten names, never drop lines). */
    fullPrices?: PriceBreakdown;
    caption: string;
    note?: string;
  },
) {
  const { adjustment } = prices;
  return (
    <>
      <table className="print-prices">
        <caption className="sr-only">{caption}</caption>
        <tbody>
          {prices.lines.map((line, i) => (
            <tr key={i}>
              <td className="print-kind">{line.kindLabel}</td>
              <th scope="row">
                <span className="print-line-name" data-full={fullPrices?.lines[i]?.name}>
                  {line.name}
                </span>
                {line.qty > 1 && <span className="print-qty">{` × ${line.qty}`}</span>}
              </th>
              <td className="print-amount">{formatMoney(line.cents)}</td>
            </tr>
          ))}
          {prices.lines.length === 0 && (
            <tr>
              <td className="print-kind" />
              <th scope="row" className="print-muted">No items</th>
              <td className="print-amount">{formatMoney(0)}</td>
            </tr>
          )}
        </tbody>
        <tfoot>
          <tr className="print-subtotal">
            <th scope="row" colSpan={2}>Subtotal</th>
            <td className="print-amount">{formatMoney(prices.subtotalCents)}</td>
          </tr>
          {prices.shippingCents > 0 && (
            <tr>
              <th scope="row" colSpan={2}>Shipping</th>
              <td className="print-amount">{formatMoney(prices.shippingCents)}</td>
            </tr>
          )}
          {adjustment && (
            <tr className={adjustment.cents < 0 ? "print-discount" : "print-surcharge"}>
              <th scope="row" colSpan={2}>{adjustment.label}</th>
              <td className="print-amount">{formatMoney(adjustment.cents)}</td>
            </tr>
          )}
          <tr className="print-total">
            <th scope="row" colSpan={2}>Total</th>
            <td className="print-amount">{formatMoney(prices.totalCents)}</td>
          </tr>
        </tfoot>
      </table>
      {/* Always there, so the page's script can say what its own fit shortened. */}
      <p className="print-continued" data-table-note hidden={!note}>{note}</p>
    </>
  );
}
