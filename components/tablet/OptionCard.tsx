import { formatMoney } from "../../src/quotes/money.ts";
import { Badge } from "../Badge.tsx";
import { CheckMark, PriceTable } from "./PriceTable.tsx";
import type { TabletOption } from "./tablet_view.ts";

export interface OptionCardProps {
  option: TabletOption;
  selected: boolean;
  /** Locked after confirmation, while saving, or on a closed quote. */
  locked: boolean;
  onToggle: (id: string) => void;
}

/**
 * One option as the client sees it. The title is the toggle; CSS stretches
 * its hit area over the whole card, so a tap anywhere toggles it while the
 * price table keeps its table semantics for screen readers.
 */
export function OptionCard({ option, selected, locked, onToggle }: OptionCardProps) {
  const titleId = `option-${option.id}-title`;
  const totalId = `option-${option.id}-total`;
  const showSubtotal = option.shippingCents > 0 || option.adjustment !== null;
  return (
    <li
      className={`tablet-card${selected ? " is-selected" : ""}${locked ? " is-locked" : ""}`}
      data-option-id={option.id}
    >
      <div className="tablet-card-head">
        <h2 className="tablet-card-title" id={titleId}>
          <button
            type="button"
            role="checkbox"
            aria-checked={selected}
            aria-disabled={locked || undefined}
            aria-describedby={totalId}
            className="card-cover tablet-card-toggle"
            onClick={() => {
              if (!locked) onToggle(option.id);
            }}
          >
            {option.title}
          </button>
        </h2>
        {selected && <Badge variant="default">Selected</Badge>}
        {
          /* The total beside the title as well: the Confirm bar along the bottom of
            the screen can sit over the table's last row, never over a card's head.
            (Screen readers hear the total row, which describes the toggle.) */
        }
        <span className="tablet-card-total" aria-hidden="true">
          {formatMoney(option.totalCents)}
        </span>
        <CheckMark />
      </div>
      <PriceTable
        title={option.title}
        lines={option.lines.map((line) => ({ ...line, amount: formatMoney(line.cents) }))}
        empty={formatMoney(0)}
        foot={{
          subtotal: showSubtotal ? formatMoney(option.subtotalCents) : null,
          shipping: option.shippingCents > 0 ? formatMoney(option.shippingCents) : null,
          adjustment: option.adjustment && {
            label: option.adjustment.label,
            amount: `${option.adjustment.cents > 0 ? "+" : ""}${
              formatMoney(option.adjustment.cents)
            }`,
            discount: option.adjustment.cents < 0,
          },
          total: formatMoney(option.totalCents),
        }}
        totalId={totalId}
      />
    </li>
  );
}
