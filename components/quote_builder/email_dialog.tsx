import { type FormEvent, useId, useState } from "react";
import { Dialog } from "../Dialog.tsx";
import { toast } from "../toast.tsx";
import { quoteEmailSchema } from "../../src/schemas/settings.ts";
import { formErrors } from "../../src/schemas/form_errors.ts";
import { invalidProps } from "./fields.tsx";
import { Checkbox } from "../Checkbox.tsx";

export interface EmailRequest {
  email: string;
  note: string;
  /** Also save this address as the client's e-mail. */
  updateClient: boolean;
}

export function EmailQuoteDialog(
  { open, busy, clientEmail, clientName, onClose, onSubmit }: {
    open: boolean;
    busy: boolean;
    clientEmail: string | null;
    clientName: string;
    onClose: () => void;
    onSubmit: (request: EmailRequest) => void;
  },
) {
  return (
    <Dialog
      open={open}
      busy={busy}
      onClose={onClose}
      title="Email Quote"
      description={`Send the client copy of this quote to ${clientName} as a PDF.`}
    >
      <EmailForm
        busy={busy}
        clientEmail={clientEmail}
        onCancel={onClose}
        onSubmit={onSubmit}
      />
    </Dialog>
  );
}

function EmailForm(
  { busy, clientEmail, onCancel, onSubmit }: {
    busy: boolean;
    clientEmail: string | null;
    onCancel: () => void;
    onSubmit: (request: EmailRequest) => void;
  },
) {
  const id = useId();
  const [email, setEmail] = useState(clientEmail ?? "");
  const [note, setNote] = useState("");
  const [updateClient, setUpdateClient] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [attempted, setAttempted] = useState(false);
  const changed = email.trim().toLowerCase() !== (clientEmail ?? "").trim().toLowerCase();

  function check(values: { email: string; note: string }) {
    const parsed = quoteEmailSchema.safeParse(values);
    return parsed.success ? {} : formErrors(parsed.error);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setAttempted(true);
    const found = check({ email, note });
    setErrors(found);
    if (found.email) {
      toast({ title: "Validation Error", description: found.email, variant: "destructive" });
      return;
    }
    onSubmit({ email: email.trim(), note, updateClient: changed && updateClient });
  }

  const emailId = `${id}-email`;
  const noteId = `${id}-note`;
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={emailId}>Client's email address</label>
        <input
          id={emailId}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            if (attempted) setErrors(check({ email: e.target.value, note }));
          }}
          disabled={busy}
          autoFocus
          {...invalidProps(emailId, errors.email)}
        />
        {errors.email && <p id={`${emailId}-error`} className="field-error">{errors.email}</p>}
      </div>
      {changed && email.trim() !== "" && (
        <Checkbox
          checked={updateClient}
          onChange={(e) => setUpdateClient(e.target.checked)}
          disabled={busy}
          label={clientEmail
            ? `Also change the client's email from ${clientEmail}`
            : "Also save this address to the client's record"}
        />
      )}
      <div className="field">
        <label htmlFor={noteId}>Note (optional)</label>
        <textarea
          id={noteId}
          rows={4}
          maxLength={5000}
          value={note}
          placeholder="A personal message for the client"
          onChange={(e) => setNote(e.target.value)}
          disabled={busy}
        />
      </div>
      <div className="dialog-footer">
        <button type="button" className="btn btn-outline" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Sending..." : "Send Email"}
        </button>
      </div>
    </form>
  );
}
