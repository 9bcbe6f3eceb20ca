import { type InputHTMLAttributes, type ReactNode, useState } from "react";
import { centsToDecimal, parseCents } from "../../src/money/amounts.ts";
import { qtyProblem, qtyValue } from "../../src/quotes/rules.ts";

/** What an input needs to announce its message: set only when there is one. */
export function invalidProps(id: string, error: string | undefined, hintId?: string) {
  const describedBy = [error ? `${id}-error` : null, hintId ?? null].filter(Boolean).join(" ");
  return {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy || undefined,
  } as const;
}

export function Field(
  { id, label, error, hint, className = "", children }: {
    id: string;
    label: ReactNode;
    error?: string;
    hint?: ReactNode;
    className?: string;
    children: ReactNode;
  },
) {
  return (
    <div className={`field ${className}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <p id={`${id}-hint`} className="hint">{hint}</p>}
      {error && <p id={`${id}-error`} className="field-error">{error}</p>}
    </div>
  );
}

type TextInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange">;

/**
 * An amount typed freely; leaving the field tidies a readable amount to two
 * decimals ("129" → "129.00") and leaves anything else for the save check to
 * point at. `normalize` replaces that tidying (the adjustment's sign rule).
 */
export function MoneyInput(
  { value, onChange, normalize, ...rest }: TextInputProps & {
    value: string;
    onChange: (value: string) => void;
    normalize?: (value: string) => string;
  },
) {
  return (
    <div className="qb-money">
      <span className="qb-money-sign" aria-hidden="true">$</span>
      <input
        {...rest}
        inputMode="decimal"
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        // On a tablet the old amount is usually replaced, not edited.
        onFocus={(e) => e.target.select()}
        onBlur={() => {
          if (normalize) {
            const next = normalize(value);
            if (next !== value) onChange(next);
            return;
          }
          const cents = parseCents(value);
          if (cents !== undefined && centsToDecimal(cents) !== value) {
            onChange(centsToDecimal(cents));
          }
        }}
      />
    </div>
  );
}

/**
 * A quantity: what is typed stays visible while typing and the item holds it
 * as a number (text that is no number counts as 1, the spec's rule). A
 * fraction, 0 or more than the limit is said under the field at once, and the
 * save check refuses it, instead of quietly becoming 2 or 999.
 */
export function QtyInput(
  { id, value, onChange, error, ...rest }: TextInputProps & {
    id: string;
    value: number;
    onChange: (value: number) => void;
    /** The save check's message for this quantity, if any. */
    error?: string;
  },
) {
  const [text, setText] = useState<string | null>(null);
  const message = (text !== null ? qtyProblem(text) : qtyProblem(value)) ?? error;
  return (
    <>
      <input
        {...rest}
        id={id}
        inputMode="numeric"
        autoComplete="off"
        value={text ?? String(value)}
        onFocus={(e) => e.target.select()}
        onChange={(e) => {
          setText(e.target.value);
          const qty = qtyValue(e.target.value);
          if (qty !== value) onChange(qty);
        }}
        onBlur={() => setText(null)}
        {...invalidProps(id, message ?? undefined)}
      />
      {message && <p id={`${id}-error`} className="field-error">{message}</p>}
    </>
  );
}
