import type { PriceBreakdown } from "../../src/quotes/price_breakdown.ts";
import { Notes } from "./InfoList.tsx";
import { PriceTable } from "./PriceTable.tsx";

/** An option's notes and its price breakdown, as both printed copies show them. */
export function OptionNotesAndPrices(
  { notes, fullNotes, table, fullPrices, optionName }: {
    notes: string;
    /** The notes and price lines before the sheet's fit shortened them (see Notes). */
    fullNotes: string;
    fullPrices: PriceBreakdown;
    /** The price table as the sheet's fit left it, with its "continued" note. */
    table: { prices: PriceBreakdown; note: string };
    optionName: string;
  },
) {
  return (
    <>
      <section className="print-section print-section-notes">
        <h3 className="print-section-title">Option Notes</h3>
        <Notes text={notes} full={fullNotes} />
      </section>
      <section className="print-section">
        <h3 className="print-section-title">Price Breakdown</h3>
        <PriceTable
          prices={table.prices}
          fullPrices={fullPrices}
          note={table.note}
          caption={`Price breakdown for ${optionName}`}
        />
      </section>
    </>
  );
}
