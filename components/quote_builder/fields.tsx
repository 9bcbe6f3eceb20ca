import { type InputHTMLAttributes, type ReactNode, useState } from "react";
import { centsToDecimal, parseCents } from "../../src/quotes/money.ts";
import { parseQty } from "../../src/quotes/rules.ts";

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
 * A quantity: what is typed stays visible while typing, the item always holds
 * parseQty's reading of it (so anything unreadable counts as 1), and leaving
 * the field shows that number.
 */
export function QtyInput(
  { value, onChange, ...rest }: TextInputProps & {
    value: number;
    onChange: (value: number) => void;
  },
) {
  const [text, setText] = useState<string | null>(null);
  return (
    <input
      {...rest}
      inputMode="numeric"
      autoComplete="off"
      value={text ?? String(value)}
      onFocus={(e) => e.target.select()}
      onChange={(e) => {
        setText(e.target.value);
        const qty = parseQty(e.target.value);
        if (qty !== value) onChange(qty);
      }}
      onBlur={() => setText(null)}
    />
  );
}
