import { Badge } from "../Badge.tsx";
import {
  BELOW_ZERO,
  type DraftOption,
  optionTabLabel,
  summaryAmounts,
} from "../../src/quotes/rules.ts";
import { formatMoney } from "../../src/money/amounts.ts";

/**
 * An amount of the summary; one the builder cannot read is marked, never
 * shown as $0.00 (screen readers hear why).
 */
export function SummaryMoney({ cents }: { cents: number | null }) {
  if (cents === null) {
    return (
      <span className="qb-debit" title="An amount in this option cannot be read">
        <span aria-hidden="true">?</span>
        <span className="sr-only">cannot be read</span>
      </span>
    );
  }
  return <>{formatMoney(cents)}</>;
}

/** One line of the summary: its label and amount. */
function SummaryLine(
  { label, cents, className }: { label: string; cents: number | null; className?: string },
) {
  return (
    <div className={className}>
      <dt>{label}</dt>
      <dd>
        <SummaryMoney cents={cents} />
      </dd>
    </div>
  );
}

/**
 * Live totals of the option being edited, as the client copy will show them,
 * what cannot be read yet, and why they cannot be saved when a discount takes
 * the total below zero or the amounts exceed what a quote can hold.
 */
export function QuoteSummary(
  { option, index, problem }: { option: DraftOption; index: number; problem?: string },
) {
  const a = summaryAmounts(option);
  const shipping = a.shipping ?? 0;
  return (
    <div className="qb-summary">
      <p className="qb-summary-option">{optionTabLabel(option, index)}</p>
      <dl className="qb-lines" data-testid="quote-summary">
        <SummaryLine label="Frame" cents={a.frame} />
        <SummaryLine label="Lenses & Add-ons" cents={a.lenses} />
        <SummaryLine label="Other" cents={a.other} />
        <SummaryLine label="Subtotal" cents={a.subtotal} className="qb-line-sub" />
        {(a.shipping === null || shipping > 0) && (
          <SummaryLine label="Shipping" cents={a.shipping} />
        )}
        {a.adjustment !== 0 && (
          <SummaryLine
            label={option.adjustmentReason.trim() || "Promo"}
            cents={a.adjustment}
            className={a.adjustment === null || a.adjustment > 0 ? "qb-debit" : "qb-credit"}
          />
        )}
        <SummaryLine label="Total" cents={a.total} className="qb-line-total" />
      </dl>
      {a.unreadable.length > 0 && (
        <p className="field-error" data-testid="summary-unreadable">
          Cannot read: {a.unreadable.join(", ")}. The totals leave them out until they are fixed.
        </p>
      )}
      {a.total !== null && a.total < 0 && !problem && (
        <p className="field-error" role="alert" data-testid="summary-below-zero">
          The discount is more than the subtotal and shipping: {BELOW_ZERO}.
        </p>
      )}
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
            <span className="qb-option-link-total">
              <SummaryMoney cents={summaryAmounts(option).total} />
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
