import { MeasurementsFields, measurementsFormValues } from "../MeasurementsFields.tsx";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { Dialog } from "../Dialog.tsx";
import { useValidatedForm } from "../use_validated_form.ts";
import { closeQuoteSchema } from "../../src/schemas/quote.ts";
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
      onClose={() => !busy && onClose()}
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

/** Closing needs a reason a colleague can read later; blank ones are refused here first. */
export function CloseQuoteDialog(
  { open, busy, unsaved, onClose, onSubmit }: {
    open: boolean;
    busy: boolean;
    unsaved: boolean;
    onClose: () => void;
    onSubmit: (reason: string) => void;
  },
) {
  return (
    <Dialog
      open={open}
      onClose={() => !busy && onClose()}
      title="Close Quote"
      description="Closing ends work on this quote. It can be reactivated later."
    >
      {/* Mounted only while open, so every opening starts with an empty reason. */}
      {open && (
        <CloseQuoteForm busy={busy} unsaved={unsaved} onCancel={onClose} onSubmit={onSubmit} />
      )}
    </Dialog>
  );
}

function CloseQuoteForm(
  { busy, unsaved, onCancel, onSubmit }: {
    busy: boolean;
    unsaved: boolean;
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
    const parsed = closeQuoteSchema.safeParse({ reason });
    if (!parsed.success) {
      setError(CLOSE_REASON_REQUIRED);
      toast({
        title: "Validation Error",
        description: CLOSE_REASON_REQUIRED,
        variant: "destructive",
      });
      return;
    }
    onSubmit(parsed.data.reason);
  }

  const inputId = `${id}-reason`;
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={inputId}>Reason for closing</label>
        <textarea
          id={inputId}
          rows={3}
          maxLength={1000}
          value={reason}
          placeholder="e.g. Client decided to wait"
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
      {unsaved && (
        <p className="notice notice-warning">
          This quote has unsaved changes. Closing it discards them.
        </p>
      )}
      <div className="dialog-footer">
        <button type="button" className="btn btn-outline" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn-danger" disabled={busy || reason === ""}>
          {busy ? "Closing..." : "Close Quote"}
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
      onClose={() => !busy && onClose()}
      title="Client Measurements"
      description={`Baseline measurements for ${clientName}.`}
    >
      {open && (
        <MeasurementsForm
          measurements={measurements}
          busy={busy}
          onCancel={onClose}
          onSubmit={onSubmit}
        />
      )}
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
