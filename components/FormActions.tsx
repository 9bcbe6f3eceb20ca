/** A form's submit and Cancel buttons, both held while it saves. */
export function FormActions(
  { label, busy, onCancel }: { label: string; busy: boolean; onCancel: () => void },
) {
  return (
    <div className="actions">
      <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
        {busy ? "Saving..." : label}
      </button>
      <button type="button" className="btn btn-outline btn-sm" onClick={onCancel} disabled={busy}>
        Cancel
      </button>
    </div>
  );
}
