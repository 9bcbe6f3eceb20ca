import type { OnlineOption } from "./online_view.ts";
import { OptionCardFrame } from "../tablet/PriceTable.tsx";

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
  return (
    <OptionCardFrame
      optionId={option.id}
      title={option.title}
      selected={selected}
      locked={locked}
      onToggle={onToggle}
      lines={option.lines}
      foot={option}
    />
  );
}
