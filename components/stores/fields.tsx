// A store's field that overrides one of the chain's settings: the chain's
// value as its placeholder and hint, and "Use chain setting" to go back to it.
import type { InputHTMLAttributes, ReactNode } from "react";

/** The button that clears an override; shown only while the store sets its own. */
export function UseChainButton(
  { label, onClick }: { label: string; onClick: () => void },
) {
  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm store-use-chain"
      onClick={onClick}
      aria-label={`Use chain setting for ${label.toLowerCase()}`}
    >
      Use chain setting
    </button>
  );
}

/** What the hint says of the chain's value ("Chain's: 09:00", or that it has none). */
export function chainHint(chainValue: string, own: boolean): ReactNode {
  const shown = chainValue.trim() === "" ? "none set" : chainValue;
  return own ? `Own setting. The chain's: ${shown}` : `Uses the chain's: ${shown}`;
}

export function OverrideField(
  { id, name, label, value, chainValue, onChange, error, wide, multiline, input }: {
    id: string;
    name: string;
    label: string;
    value: string;
    chainValue: string;
    onChange: (value: string) => void;
    error?: string;
    wide?: boolean;
    multiline?: boolean;
    input?: InputHTMLAttributes<HTMLInputElement>;
  },
) {
  const own = value.trim() !== "";
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const common = {
    id,
    name,
    value,
    placeholder: chainValue.split("\n")[0],
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${hintId} ${errorId}` : hintId,
  };
  return (
    <div className={`field store-field${wide ? " field-wide" : ""}`}>
      <div className="store-field-head">
        <label htmlFor={id}>{label}</label>
        {own && <UseChainButton label={label} onClick={() => onChange("")} />}
      </div>
      {multiline
        ? <textarea {...common} rows={3} onChange={(e) => onChange(e.target.value)} />
        : <input {...input} {...common} onChange={(e) => onChange(e.target.value)} />}
      <p id={hintId} className="hint">{chainHint(chainValue, own)}</p>
      {error && <p id={errorId} className="field-error">{error}</p>}
    </div>
  );
}
