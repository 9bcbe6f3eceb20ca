import { formatMoney } from "../../src/money/amounts.ts";
import { OptionCardFrame } from "./PriceTable.tsx";
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
  const showSubtotal = option.shippingCents > 0 || option.adjustment !== null;
  const adjustment = option.adjustment;
  return (
    <OptionCardFrame
      optionId={option.id}
      title={option.title}
      titleId={`option-${option.id}-title`}
      selected={selected}
      locked={locked}
      onToggle={onToggle}
      headTotal={formatMoney(option.totalCents)}
      lines={option.lines.map((line) => ({ ...line, amount: formatMoney(line.cents) }))}
      empty={formatMoney(0)}
      foot={{
        subtotal: showSubtotal ? formatMoney(option.subtotalCents) : null,
        shipping: option.shippingCents > 0 ? formatMoney(option.shippingCents) : null,
        adjustment: adjustment && {
          label: adjustment.label,
          amount: `${adjustment.cents > 0 ? "+" : ""}${formatMoney(adjustment.cents)}`,
          discount: adjustment.cents < 0,
        },
        total: formatMoney(option.totalCents),
      }}
    />
  );
}
