import { Badge } from "../Badge.tsx";
import {
  breakdownCents,
  type DraftOption,
  optionTabLabel,
  subtotalCents,
  totalCents,
} from "../../src/quotes/rules.ts";
import { centsOrZero, formatMoney } from "../../src/quotes/money.ts";

/**
 * Live totals of the option being edited, as the client copy will show them,
 * and why they cannot be saved when they exceed what a quote can hold.
 */
export function QuoteSummary(
  { option, index, problem }: { option: DraftOption; index: number; problem?: string },
) {
  const parts = breakdownCents(option.items);
  const shipping = centsOrZero(option.shipping);
  const adjustment = centsOrZero(option.adjustmentAmount);
  return (
    <div className="qb-summary">
      <p className="qb-summary-option">{optionTabLabel(option, index)}</p>
      <dl className="qb-lines" data-testid="quote-summary">
        <div>
          <dt>Frame</dt>
          <dd>{formatMoney(parts.frame)}</dd>
        </div>
        <div>
          <dt>Lenses &amp; Add-ons</dt>
          <dd>{formatMoney(parts.lenses)}</dd>
        </div>
        <div>
          <dt>Other</dt>
          <dd>{formatMoney(parts.other)}</dd>
        </div>
        <div className="qb-line-sub">
          <dt>Subtotal</dt>
          <dd>{formatMoney(subtotalCents(option.items))}</dd>
        </div>
        {shipping > 0 && (
          <div>
            <dt>Shipping</dt>
            <dd>{formatMoney(shipping)}</dd>
          </div>
        )}
        {adjustment !== 0 && (
          <div className={adjustment < 0 ? "qb-credit" : "qb-debit"}>
            <dt>{option.adjustmentReason.trim() || "Promo"}</dt>
            <dd>{formatMoney(adjustment)}</dd>
          </div>
        )}
        <div className="qb-line-total">
          <dt>Total</dt>
          <dd>{formatMoney(totalCents(option))}</dd>
        </div>
      </dl>
      {problem && <p className="field-error" role="alert">{problem}</p>}
    </div>
  );
}

/** Every option with its total; choosing one opens its tab. */
export function OptionList(
  { options, activeId, onPick }: {
    options: DraftOption[];
    activeId: string;
    onPick: (id: string) => void;
  },
) {
  return (
    <ul className="qb-option-list">
      {options.map((option, index) => (
        <li key={option.id}>
          <button
            type="button"
            className="qb-option-link"
            aria-current={option.id === activeId ? "true" : undefined}
            onClick={() => onPick(option.id)}
          >
            <span className="qb-option-link-name">
              {optionTabLabel(option, index)}
              {option.isChosen && <Badge variant="success">Selected</Badge>}
            </span>
            <span className="qb-option-link-total">{formatMoney(totalCents(option))}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
