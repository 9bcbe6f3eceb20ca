import { useId } from "react";
import type { ClientMeasurementsView } from "../src/clients/views.ts";
import { Checkbox } from "./Checkbox.tsx";

export interface MeasurementsValues extends Record<string, string | boolean> {
  pdBinocular: string;
  pdNear: string;
  measurementsComplete: boolean;
}

// "0" means not measured: an empty box with a hint reads better than a zero.
const pdInput = (value: string) => (Number(value) > 0 ? value : "");

/** Form values for editing stored measurements. */
export function measurementsFormValues(m: ClientMeasurementsView): MeasurementsValues {
  return {
    pdBinocular: pdInput(m.pdBinocular),
    pdNear: pdInput(m.pdNear),
    measurementsComplete: m.measurementsComplete,
  };
}

/**
 * PD distance, PD near and "Mark measurements as complete": the same fields
 * wherever baseline measurements are edited (client details, quote builder).
 */
export function MeasurementsFields(
  { values, errors, onChange, disabled }: {
    values: MeasurementsValues;
    errors: Record<string, string>;
    onChange: <K extends keyof MeasurementsValues>(field: K, value: MeasurementsValues[K]) => void;
    disabled: boolean;
  },
) {
  const id = useId();
  const pd = (name: "pdBinocular" | "pdNear", label: string) => {
    const inputId = `${id}-${name}`;
    const error = errors[name];
    return (
      <div className="field">
        <label htmlFor={inputId}>{label}</label>
        <div className="input-unit">
          <input
            id={inputId}
            name={name}
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g. 62.5"
            value={values[name]}
            onChange={(e) => onChange(name, e.target.value)}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${inputId}-error` : undefined}
          />
          <span className="input-unit-label" aria-hidden="true">mm</span>
        </div>
        {error && <p id={`${inputId}-error`} className="field-error">{error}</p>}
      </div>
    );
  };
  return (
    <>
      <div className="form-grid">
        {pd("pdBinocular", "PD Distance")}
        {pd("pdNear", "PD Near")}
      </div>
      <Checkbox
        label="Mark measurements as complete"
        name="measurementsComplete"
        checked={values.measurementsComplete}
        onChange={(e) => onChange("measurementsComplete", e.target.checked)}
        disabled={disabled}
      />
    </>
  );
}
