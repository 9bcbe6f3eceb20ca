import type { OnlineOption } from "./online_view.ts";
import { CheckMark, PriceTable } from "../tablet/PriceTable.tsx";

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
        <CheckMark />
      </div>
      <PriceTable
        title={option.title}
        lines={option.lines}
        foot={option}
        totalId={totalId}
      />
    </li>
  );
}
