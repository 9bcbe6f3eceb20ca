// The store's closed dates (holidays, a stocktake) in Settings: a date picker
// that adds a day and a list with a Remove button a day. The form keeps the
// dates as the server does, sorted and comma-separated, so a save sends what
// the list shows and the server's own schema checks it.
import { type KeyboardEvent, useRef, useState } from "react";
import { isCalendarDate } from "../../src/schemas/calendar_date.ts";
import { useFocusAfter } from "../focus_rule.ts";

/** "Fri, Dec 25, 2026": the weekday says whether the day was an opening day at all. */
const DAY = new Intl.DateTimeFormat("en-US", {
  weekday: "short",
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
export const closedDateText = (date: string) => DAY.format(new Date(`${date}T12:00:00Z`));

export function ClosedDatesField(
  { id, value, onChange, error, today }: {
    id: string;
    /** "2026-12-25,2027-01-01" */
    value: string;
    onChange: (value: string) => void;
    error?: string;
    /** The store's today, YYYY-MM-DD: earlier dates are marked past. */
    today: string;
  },
) {
  const [picked, setPicked] = useState("");
  const [problem, setProblem] = useState("");
  const dates = value.split(",").filter(Boolean);
  const shownError = problem || error;

  const add = () => {
    if (!isCalendarDate(picked)) {
      setProblem("Choose a date to add");
      return;
    }
    setProblem("");
    setPicked("");
    if (!dates.includes(picked)) onChange([...dates, picked].sort().join(","));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the day here instead of saving the whole form.
    if (event.key === "Enter") {
      event.preventDefault();
      add();
    }
  };
  const past = dates.filter((d) => d < today);
  // A Remove button goes with its date: focus moves to the date now in its
  // place (or the one before), else to the date picker, not the page's top.
  const listRef = useRef<HTMLUListElement>(null);
  const pickerRef = useRef<HTMLInputElement>(null);
  const focusAfter = useFocusAfter();
  const keepOnly = (keep: (date: string) => boolean, at = 0) => {
    onChange(dates.filter(keep).join(","));
    focusAfter(() => {
      const removes = Array.from(listRef.current?.querySelectorAll("button") ?? []);
      return [removes[at], removes[at - 1], pickerRef.current];
    });
  };

  return (
    <div className="field field-wide closed-dates">
      <label htmlFor={id}>Closed Dates</label>
      <div className="closed-dates-add">
        <input
          ref={pickerRef}
          id={id}
          type="date"
          value={picked}
          onChange={(e) => {
            setPicked(e.target.value);
            setProblem("");
          }}
          onKeyDown={onKeyDown}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={`${id}-hint${shownError ? ` ${id}-error` : ""}`}
        />
        <button type="button" className="btn btn-outline btn-sm" onClick={add}>
          Add Date
        </button>
      </div>
      <p id={`${id}-hint`} className="hint">
        Holidays and other days the store is shut: promised dates skip them, and the ready e-mail
        waits for the next day the store opens.
      </p>
      {shownError && <p id={`${id}-error`} className="field-error">{shownError}</p>}
      {dates.length === 0
        ? <p className="muted closed-dates-empty">No closed dates.</p>
        : (
          <ul className="closed-dates-list" aria-label="Closed dates" ref={listRef}>
            {dates.map((date, at) => (
              <li key={date}>
                <span>{closedDateText(date)}</span>
                {date < today && <span className="muted">(past)</span>}
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={`Remove ${closedDateText(date)}`}
                  onClick={() => keepOnly((d) => d !== date, at)}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
      {past.length > 0 && (
        <button
          type="button"
          className="btn btn-outline btn-sm closed-dates-clear"
          onClick={() => keepOnly((d) => d >= today)}
        >
          Remove Past Dates ({past.length})
        </button>
      )}
    </div>
  );
}
