/**
 * The field of a second-factor code, one for every form that asks for it
 * (sign-in, turning on, turning off): the browser may offer the code from its
 * one-time-code store, and an error is read out with the field. `numeric`
 * brings up the digit keyboard where only the app's six digits are taken
 * (a recovery code has letters).
 */
export function CodeField(
  { id, label, value, onChange, error, numeric = false, autoFocus = false }: {
    id: string;
    label: string;
    value: string;
    onChange: (value: string) => void;
    error: string | null | undefined;
    numeric?: boolean;
    autoFocus?: boolean;
  },
) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name="code"
        inputMode={numeric ? "numeric" : undefined}
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        autoFocus={autoFocus}
      />
      {error && <p id={errorId} className="field-error">{error}</p>}
    </div>
  );
}
