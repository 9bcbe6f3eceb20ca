import type { OnlineOption } from "./online_view.ts";

export interface OnlineOptionCardProps {
  option: OnlineOption;
  selected: boolean;
  locked: boolean;
  onToggle: (id: string) => void;
}

/**
 * One option on the online quote page, with the tablet's card styles: the
 * title is the toggle (its hit area stretched over the card), the price table
 * keeps its table semantics. Amounts arrive as text written by the server.
 */
export function OnlineOptionCard({ option, selected, locked, onToggle }: OnlineOptionCardProps) {
  const totalId = `option-${option.id}-total`;
  return (
    <li
      className={`tablet-card${selected ? " is-selected" : ""}${locked ? " is-locked" : ""}`}
      data-option-id={option.id}
    >
      <div className="tablet-card-head">
        <h2 className="tablet-card-title">
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
        {selected && <span className="badge badge-default">Selected</span>}
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
              <td>{line.amount}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {option.subtotal && (
            <tr className="tablet-sum">
              <th scope="row">Subtotal</th>
              <td>{option.subtotal}</td>
            </tr>
          )}
          {option.shipping && (
            <tr>
              <th scope="row">Shipping</th>
              <td>{option.shipping}</td>
            </tr>
          )}
          {option.adjustment && (
            <tr className={option.adjustment.discount ? "tablet-discount" : "tablet-surcharge"}>
              <th scope="row">{option.adjustment.label}</th>
              <td>{option.adjustment.amount}</td>
            </tr>
          )}
          <tr className="tablet-total" id={totalId}>
            <th scope="row">Total</th>
            <td>{option.total}</td>
          </tr>
        </tfoot>
      </table>
    </li>
  );
}
