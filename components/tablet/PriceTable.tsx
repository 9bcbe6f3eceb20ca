// An option's card as the client sees it, shared by the tablet (which writes
// its amounts from cents) and the client's online quote page (whose amounts
// the server wrote, so that page ships no money code): the title is the
// toggle, CSS stretches its hit area over the whole card, and the price table
// keeps its table semantics for screen readers.

/** One line of the table, its amount already written. */
export interface PriceLine {
  kindLabel: string;
  name: string;
  qty: number;
  amount: string;
}

/** The table's foot: each row given only when the option has it. */
export interface PriceFoot {
  subtotal?: string | null;
  shipping?: string | null;
  adjustment?: { label: string; amount: string; discount: boolean } | null;
  total: string;
}

/**
 * A card's title as its toggle: a checkbox button whose hit area is stretched
 * over the whole card (`card-cover`), described by the card's total.
 */
export function CardToggleTitle(
  { title, id, selected, locked, totalId, onToggle }: {
    title: string;
    id?: string;
    selected: boolean;
    locked: boolean;
    totalId: string;
    onToggle: () => void;
  },
) {
  return (
    <h2 className="tablet-card-title" id={id}>
      <button
        type="button"
        role="checkbox"
        aria-checked={selected}
        aria-disabled={locked || undefined}
        aria-describedby={totalId}
        className="card-cover tablet-card-toggle"
        onClick={() => {
          if (!locked) onToggle();
        }}
      >
        {title}
      </button>
    </h2>
  );
}

/** The mark a selected card shows in its corner. */
export function CheckMark() {
  return (
    <span className="tablet-check" aria-hidden="true">
      <svg viewBox="0 0 24 24" width="24" height="24">
        <path d="M5 12.5l4.5 4.5L19 7.5" />
      </svg>
    </span>
  );
}

export function PriceTable(
  { title, lines, empty, foot, totalId }: {
    title: string;
    lines: PriceLine[];
    /** The row shown when there are no lines (the amount of nothing). */
    empty?: string;
    foot: PriceFoot;
    /** The total row's id, which describes the card's toggle. */
    totalId: string;
  },
) {
  return (
    <table className="tablet-prices">
      <caption className="sr-only">{`Price breakdown for ${title}`}</caption>
      <tbody>
        {lines.map((line, i) => (
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
        {lines.length === 0 && empty !== undefined && (
          <tr>
            <th scope="row" className="muted">No items yet</th>
            <td>{empty}</td>
          </tr>
        )}
      </tbody>
      <tfoot>
        {foot.subtotal && (
          <tr className="tablet-sum">
            <th scope="row">Subtotal</th>
            <td>{foot.subtotal}</td>
          </tr>
        )}
        {foot.shipping && (
          <tr>
            <th scope="row">Shipping</th>
            <td>{foot.shipping}</td>
          </tr>
        )}
        {foot.adjustment && (
          <tr className={foot.adjustment.discount ? "tablet-discount" : "tablet-surcharge"}>
            <th scope="row">{foot.adjustment.label}</th>
            <td>{foot.adjustment.amount}</td>
          </tr>
        )}
        <tr className="tablet-total" id={totalId}>
          <th scope="row">Total</th>
          <td>{foot.total}</td>
        </tr>
      </tfoot>
    </table>
  );
}

/** The whole card: its head (toggle, Selected, the total when given, the mark) and its prices. */
export function OptionCardFrame(
  { optionId, title, titleId, selected, locked, onToggle, headTotal, lines, empty, foot }: {
    optionId: string;
    title: string;
    titleId?: string;
    selected: boolean;
    locked: boolean;
    onToggle: (id: string) => void;
    /**
     * The total beside the title as well: a bar along the bottom of the screen
     * can sit over the table's last row, never over a card's head. (Screen
     * readers hear the total row, which describes the toggle.)
     */
    headTotal?: string;
    lines: PriceLine[];
    empty?: string;
    foot: PriceFoot;
  },
) {
  const totalId = `option-${optionId}-total`;
  return (
    <li
      className={`tablet-card${selected ? " is-selected" : ""}${locked ? " is-locked" : ""}`}
      data-option-id={optionId}
    >
      <div className="tablet-card-head">
        <CardToggleTitle
          title={title}
          id={titleId}
          selected={selected}
          locked={locked}
          totalId={totalId}
          onToggle={() => onToggle(optionId)}
        />
        {selected && <span className="badge badge-default">Selected</span>}
        {headTotal && <span className="tablet-card-total" aria-hidden="true">{headTotal}</span>}
        <CheckMark />
      </div>
      <PriceTable title={title} lines={lines} empty={empty} foot={foot} totalId={totalId} />
    </li>
  );
}
