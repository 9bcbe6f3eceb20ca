import { formatMoney } from "../../src/quotes/money.ts";
import { Badge } from "../Badge.tsx";
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
        <span className="tablet-check" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="24" height="24">
            <path d="M5 12.5l4.5 4.5L19 7.5" />
          </svg>
        </span>
      </div>
      <table className="tablet-prices">
        <caption className="sr-only">{`Price breakdown for ${option.title}`}</caption>
        <tbody>
          {option.lines.map((line, i) => (
            <tr key={i}>
              <th scope="row">
                <span className="tablet-kind">{line.kindLabel}</span>
                <span className="tablet-name">
                  {line.name}
                  {line.qty > 1 && <span className="tablet-qty">{` × ${line.qty}`}</span>}
                </span>
              </th>
              <td>{formatMoney(line.cents)}</td>
            </tr>
          ))}
          {option.lines.length === 0 && (
            <tr>
              <th scope="row" className="muted">No items yet</th>
              <td>{formatMoney(0)}</td>
            </tr>
          )}
        </tbody>
        <tfoot>
          {showSubtotal && (
            <tr className="tablet-sum">
              <th scope="row">Subtotal</th>
              <td>{formatMoney(option.subtotalCents)}</td>
            </tr>
          )}
          {option.shippingCents > 0 && (
            <tr>
              <th scope="row">Shipping</th>
              <td>{formatMoney(option.shippingCents)}</td>
            </tr>
          )}
          {option.adjustment && (
            <tr
              className={option.adjustment.cents < 0 ? "tablet-discount" : "tablet-surcharge"}
            >
              <th scope="row">{option.adjustment.label}</th>
              <td>
                {option.adjustment.cents > 0 ? "+" : ""}
                {formatMoney(option.adjustment.cents)}
              </td>
            </tr>
          )}
          <tr className="tablet-total" id={totalId}>
            <th scope="row">Total</th>
            <td>{formatMoney(option.totalCents)}</td>
          </tr>
        </tfoot>
      </table>
    </li>
  );
}
