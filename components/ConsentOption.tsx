/**
 * One consent choice: a large tick box with the exact statement the client
 * agrees to, and a hint when the contact it needs is missing. Shared by the
 * intake and the Add New Client dialog so both read the same.
 */
export function ConsentOption(
  { id, name, title, statement, checked, onChange, disabled, missing }: {
    id: string;
    name: string;
    title: string;
    statement?: string;
    checked: boolean;
    onChange: (checked: boolean) => void;
    disabled: boolean;
    missing?: string;
  },
) {
  return (
    <div className="consent-option">
      {/* Checkbox.tsx's markup: the intake is a page a client holds (its note). */}
      <label className="checkbox checkbox-card">
        <input
          id={id}
          name={name}
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          disabled={disabled}
          aria-describedby={missing ? `${id}-missing` : undefined}
        />
        <span className="checkbox-label consent-text">
          <strong>{title}</strong>
          {statement && <span>{statement}</span>}
        </span>
      </label>
      {missing && <p id={`${id}-missing`} className="hint consent-missing">{missing}</p>}
    </div>
  );
}
