// Changing a job's promised date (the lab said so): a date and the reason,
// kept in the order's history.
import { type FormEvent, useId, useState } from "react";
import { Dialog } from "../Dialog.tsx";

export function PromisedDateDialog(
  { job, busy, onClose, onSubmit }: {
    job: { jobNumber: string; promisedDate: string } | null;
    busy: boolean;
    onClose: () => void;
    onSubmit: (promisedDate: string, reason: string) => void;
  },
) {
  return (
    <Dialog
      open={job !== null}
      busy={busy}
      onClose={onClose}
      title={`Promised Date${job ? ` · ${job.jobNumber}` : ""}`}
      description="The new date and why are kept in the order's history."
    >
      {job && (
        <DateForm initial={job.promisedDate} busy={busy} onCancel={onClose} onSubmit={onSubmit} />
      )}
    </Dialog>
  );
}

function DateForm(
  { initial, busy, onCancel, onSubmit }: {
    initial: string;
    busy: boolean;
    onCancel: () => void;
    onSubmit: (promisedDate: string, reason: string) => void;
  },
) {
  const id = useId();
  const [date, setDate] = useState(initial);
  const [reason, setReason] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!busy && date && reason.trim()) onSubmit(date, reason.trim());
  }
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-date`}>Promised date</label>
        <input
          id={`${id}-date`}
          type="date"
          value={date}
          onChange={(e) => setDate(e.target.value)}
          disabled={busy}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-reason`}>Reason</label>
        <input
          id={`${id}-reason`}
          value={reason}
          maxLength={1000}
          onChange={(e) => setReason(e.target.value)}
          disabled={busy}
        />
      </div>
      <div className="dialog-footer">
        <button type="button" className="btn btn-outline" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={busy || !date || reason.trim() === ""}
        >
          {busy ? "Saving..." : "Save Date"}
        </button>
      </div>
    </form>
  );
}
