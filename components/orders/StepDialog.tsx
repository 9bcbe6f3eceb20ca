// The dialog of a job step that needs words: remake, cancel and reopen say
// why; a pickup with money owed takes an admin's or owner's override reason.
import { type FormEvent, useId, useState } from "react";
import { Dialog } from "../Dialog.tsx";
import { formatMoney } from "../../src/money/amounts.ts";
import type { JobStep } from "../../src/orders/rules.ts";

export interface PendingStep {
  jobId: string;
  jobNumber: string;
  step: JobStep;
  /** Set for a pickup with a balance due. */
  balanceCents?: number;
}

const TEXT: Record<string, { title: string; label: string; confirm: string; danger: boolean }> = {
  remake: {
    title: "Remake",
    label: "What is wrong (the check that failed, or the client's complaint)",
    confirm: "Send for Remake",
    danger: false,
  },
  cancel: {
    title: "Cancel Job",
    label: "Reason for cancelling",
    confirm: "Cancel Job",
    danger: true,
  },
  reopen: {
    title: "Reopen Job",
    label: "Reason for reopening",
    confirm: "Reopen Job",
    danger: false,
  },
  override: {
    title: "Hand Over With Balance Due",
    label: "Reason for handing over before payment",
    confirm: "Mark Picked Up",
    danger: true,
  },
};

export function StepDialog(
  { pending, mayOverride, busy, onClose, onSubmit }: {
    pending: PendingStep | null;
    mayOverride: boolean;
    busy: boolean;
    onClose: () => void;
    onSubmit: (reason: string) => void;
  },
) {
  const kind = pending?.balanceCents ? "override" : pending?.step.kind ?? "remake";
  const text = TEXT[kind] ?? TEXT.remake;
  return (
    <Dialog
      open={pending !== null}
      busy={busy}
      onClose={onClose}
      title={`${text.title}${pending ? ` · ${pending.jobNumber}` : ""}`}
      description={kind === "override"
        ? `This order has a balance due of ${formatMoney(pending!.balanceCents!)}.`
        : "The reason is kept in the job's history."}
    >
      {pending && (kind !== "override" || mayOverride) && (
        <ReasonForm
          label={text.label}
          confirm={text.confirm}
          danger={text.danger}
          busy={busy}
          onCancel={onClose}
          onSubmit={onSubmit}
        />
      )}
      {pending && kind === "override" && !mayOverride && (
        <>
          <p>
            Take the payment first. Only an admin or owner can hand glasses over with money owed.
          </p>
          <div className="dialog-footer">
            <button type="button" className="btn btn-outline" onClick={onClose}>Close</button>
          </div>
        </>
      )}
    </Dialog>
  );
}

function ReasonForm(
  { label, confirm, danger, busy, onCancel, onSubmit }: {
    label: string;
    confirm: string;
    danger: boolean;
    busy: boolean;
    onCancel: () => void;
    onSubmit: (reason: string) => void;
  },
) {
  const id = useId();
  const [reason, setReason] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!busy && reason.trim()) onSubmit(reason.trim());
  }
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-reason`}>{label}</label>
        <textarea
          id={`${id}-reason`}
          rows={3}
          maxLength={1000}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          disabled={busy}
          autoFocus
        />
      </div>
      <div className="dialog-footer">
        <button type="button" className="btn btn-outline" onClick={onCancel} disabled={busy}>
          Back
        </button>
        <button
          type="submit"
          className={`btn ${danger ? "btn-danger" : "btn-primary"}`}
          disabled={busy || reason.trim() === ""}
        >
          {busy ? "Saving..." : confirm}
        </button>
      </div>
    </form>
  );
}
