import { MeasurementsFields, measurementsFormValues } from "../MeasurementsFields.tsx";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { Dialog } from "../Dialog.tsx";
import { useValidatedForm } from "../use_validated_form.ts";
import {
  closeQuoteSchema,
  REOPEN_REASON_REQUIRED,
  reopenQuoteSchema,
} from "../../src/schemas/quote.ts";
import { type MeasurementsInput, measurementsSchema } from "../../src/schemas/client.ts";
import type { ClientMeasurementsView } from "../../src/clients/views.ts";
import { toast } from "../toast.tsx";
import { invalidProps } from "./fields.tsx";

export function ConfirmDialog(
  { open, title, description, confirmLabel, busyLabel, danger, busy, onConfirm, onClose }: {
    open: boolean;
    title: string;
    description: ReactNode;
    confirmLabel: string;
    busyLabel?: string;
    danger?: boolean;
    busy?: boolean;
    onConfirm: () => void;
    onClose: () => void;
  },
) {
  return (
    <Dialog
      open={open}
      busy={busy}
      onClose={onClose}
      title={title}
      description={description}
      size="sm"
      footer={
        <>
          <button type="button" className="btn btn-outline" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button
            type="button"
            className={`btn ${danger ? "btn-danger" : "btn-primary"}`}
            onClick={onConfirm}
            disabled={busy}
          >
            {busy && busyLabel ? busyLabel : confirmLabel}
          </button>
        </>
      }
    />
  );
}

const CLOSE_REASON_REQUIRED = "Please provide a reason for closing the quote.";

/** What differs between the two "say why" dialogs (close and reopen). */
interface ReasonFormText {
  title: string;
  description: string;
  label: string;
  placeholder: string;
  confirmLabel: string;
  busyLabel: string;
  required: string;
  schema: typeof closeQuoteSchema | typeof reopenQuoteSchema;
  danger: boolean;
}

const CLOSE_TEXT: ReasonFormText = {
  title: "Close Quote",
  description: "Closing ends work on this quote. It can be reactivated later.",
  label: "Reason for closing",
  placeholder: "e.g. Client decided to wait",
  confirmLabel: "Close Quote",
  busyLabel: "Closing...",
  required: CLOSE_REASON_REQUIRED,
  schema: closeQuoteSchema,
  danger: true,
};

const REOPEN_TEXT: ReasonFormText = {
  title: "Reopen Quote",
  description: "Reopening a finalized quote lets staff change it again. Your reason is recorded.",
  label: "Reason for reopening",
  placeholder: "e.g. Client changed the lens package before ordering",
  confirmLabel: "Reopen Quote",
  busyLabel: "Reopening...",
  required: REOPEN_REASON_REQUIRED,
  schema: reopenQuoteSchema,
  danger: false,
};

interface ReasonDialogProps {
  open: boolean;
  busy: boolean;
  onClose: () => void;
  onSubmit: (reason: string) => void;
}

/** Closing needs a reason a colleague can read later; blank ones are refused here first. */
export function CloseQuoteDialog({ unsaved, ...props }: ReasonDialogProps & { unsaved: boolean }) {
  const note = unsaved ? "This quote has unsaved changes. Closing it discards them." : null;
  return <ReasonDialog {...props} text={CLOSE_TEXT} note={note} />;
}

/**
 * An owner takes a finalized quote back to work. The reason is kept in the
 * audit log, so the button waits until one is typed.
 */
export function ReopenQuoteDialog(props: ReasonDialogProps) {
  return <ReasonDialog {...props} text={REOPEN_TEXT} note={null} />;
}

function ReasonDialog(
  { open, busy, text, note, onClose, onSubmit }: ReasonDialogProps & {
    text: ReasonFormText;
    note: string | null;
  },
) {
  return (
    <Dialog
      open={open}
      busy={busy}
      onClose={onClose}
      title={text.title}
      description={text.description}
    >
      <ReasonForm text={text} busy={busy} note={note} onCancel={onClose} onSubmit={onSubmit} />
    </Dialog>
  );
}

function ReasonForm(
  { text, busy, note, onCancel, onSubmit }: {
    text: ReasonFormText;
    busy: boolean;
    note: string | null;
    onCancel: () => void;
    onSubmit: (reason: string) => void;
  },
) {
  const id = useId();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const parsed = text.schema.safeParse({ reason });
    if (!parsed.success) {
      setError(text.required);
      toast({ title: "Validation Error", description: text.required, variant: "destructive" });
      return;
    }
    onSubmit(parsed.data.reason);
  }

  const inputId = `${id}-reason`;
  // Spaces are no reason: the button waits for text (the schema checks again on submit).
  const blank = reason.trim() === "";
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={inputId}>{text.label}</label>
        <textarea
          id={inputId}
          rows={3}
          maxLength={1000}
          value={reason}
          placeholder={text.placeholder}
          onChange={(e) => {
            setReason(e.target.value);
            if (error && e.target.value.trim()) setError(null);
          }}
          disabled={busy}
          autoFocus
          {...invalidProps(inputId, error ?? undefined)}
        />
        {error && <p id={`${inputId}-error`} className="field-error">{error}</p>}
      </div>
      {note && <p className="notice notice-warning">{note}</p>}
      <div className="dialog-footer">
        <button type="button" className="btn btn-outline" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button
          type="submit"
          className={`btn ${text.danger ? "btn-danger" : "btn-primary"}`}
          disabled={busy || blank}
        >
          {busy ? text.busyLabel : text.confirmLabel}
        </button>
      </div>
    </form>
  );
}

export function MeasurementsDialog(
  { open, clientName, measurements, busy, onClose, onSubmit }: {
    open: boolean;
    clientName: string;
    measurements: ClientMeasurementsView;
    busy: boolean;
    onClose: () => void;
    onSubmit: (input: MeasurementsInput) => void;
  },
) {
  return (
    <Dialog
      open={open}
      busy={busy}
      onClose={onClose}
      title="Client Measurements"
      description={`Baseline measurements for ${clientName}.`}
    >
      <MeasurementsForm
        measurements={measurements}
        busy={busy}
        onCancel={onClose}
        onSubmit={onSubmit}
      />
    </Dialog>
  );
}

function MeasurementsForm(
  { measurements, busy, onCancel, onSubmit }: {
    measurements: ClientMeasurementsView;
    busy: boolean;
    onCancel: () => void;
    onSubmit: (input: MeasurementsInput) => void;
  },
) {
  const form = useValidatedForm(measurementsSchema, measurementsFormValues(measurements));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const data = form.validate(event.currentTarget);
    if (data) onSubmit(data);
  }

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <MeasurementsFields
        values={form.values}
        errors={form.errors}
        onChange={form.setField}
        disabled={busy}
      />
      <div className="dialog-footer">
        <button type="button" className="btn btn-outline" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Saving..." : "Save Measurements"}
        </button>
      </div>
    </form>
  );
}
