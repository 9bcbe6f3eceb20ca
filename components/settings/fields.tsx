import type { InputHTMLAttributes, ReactNode } from "react";

/** A labelled input or textarea with its hint and error wired up for screen readers. */
export function SettingsField(
  { id, name, label, value, onChange, error, hint, wide, multiline, rows, input, disabled }: {
    id: string;
    name: string;
    label: string;
    value: string;
    onChange: (value: string) => void;
    error?: string;
    hint?: ReactNode;
    wide?: boolean;
    multiline?: boolean;
    rows?: number;
    input?: InputHTMLAttributes<HTMLInputElement>;
    disabled?: boolean;
  },
) {
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean)
    .join(" ") || undefined;
  const common = {
    id,
    name,
    value,
    disabled,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy,
  };
  return (
    <div className={`field${wide ? " field-wide" : ""}`}>
      <label htmlFor={id}>{label}</label>
      {multiline
        ? <textarea {...common} rows={rows ?? 3} onChange={(e) => onChange(e.target.value)} />
        : <input {...input} {...common} onChange={(e) => onChange(e.target.value)} />}
      {hint && <p id={`${id}-hint`} className="hint">{hint}</p>}
      {error && <p id={`${id}-error`} className="field-error">{error}</p>}
    </div>
  );
}

/** A card section of the settings page. */
export function SettingsCard(
  { id, title, description, children }: {
    id: string;
    title: string;
    description?: ReactNode;
    children: ReactNode;
  },
) {
  return (
    <section className="card settings-card" aria-labelledby={id}>
      <div className="settings-card-head">
        <h2 id={id}>{title}</h2>
        {description && <p className="muted">{description}</p>}
      </div>
      {children}
    </section>
  );
}
