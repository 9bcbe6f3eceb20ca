import type { ReactNode } from "react";
import { NA } from "../../src/print/print_model.ts";

export type InfoRow = [label: string, value: ReactNode];

/** Label and value pairs, aligned in two columns on paper. */
export function InfoList({ rows }: { rows: InfoRow[] }) {
  return (
    <dl className="print-info">
      {rows.map(([label, value], i) => (
        <div key={i} className="print-info-row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Address lines as printed on an envelope; the model leaves out blank ones. */
export function AddressLines({ lines }: { lines: string[] }) {
  if (lines.length === 0) return <>{NA}</>;
  return (
    <>
      {lines.map((line, i) => <span key={i} className="print-line">{line}</span>)}
    </>
  );
}

/**
 * Free text written by staff: line breaks kept, N/A when there is none.
 * `full` is the whole text when `text` was shortened for the sheet: the print
 * page's script (fit_sheets.ts) measures the sheet and gives back what fits.
 */
export function Notes({ text, full }: { text: string; full?: string }) {
  return (
    <p className="print-notes" data-full={full?.trim() ? full : undefined}>
      {text.trim() || NA}
    </p>
  );
}
