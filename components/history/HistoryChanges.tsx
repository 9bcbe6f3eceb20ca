import type { HistoryChange } from "../../src/audit/describe.ts";

/** The lines under a history entry: "Label: old → new", or a line of text. */
export function HistoryChanges({ changes }: { changes: HistoryChange[] }) {
  if (changes.length === 0) return null;
  return (
    <ul className="history-changes">
      {changes.map((change, i) => (
        <li key={i}>
          <span className="history-field">{change.label}:</span>{" "}
          {change.text !== undefined ? <span>{change.text}</span> : (
            <>
              <del className="history-from">{change.from}</del>
              <span className="history-arrow" aria-label="changed to">→</span>
              <ins className="history-to">{change.to}</ins>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

const whenFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });

/** An entry's time in the store's zone on the server, the browser's zone in islands. */
export function When({ iso }: { iso: string }) {
  return <time dateTime={iso}>{whenFormat.format(new Date(iso))}</time>;
}
