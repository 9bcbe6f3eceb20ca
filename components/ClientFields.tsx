import type { InputHTMLAttributes } from "react";
import type { ClientFormValues } from "../src/schemas/client.ts";
import { US_STATES } from "../src/schemas/us_states.ts";

type FieldName = keyof ClientFormValues;

interface FieldSpec {
  name: FieldName;
  label: string;
  required?: boolean;
  wide?: boolean;
  input: InputHTMLAttributes<HTMLInputElement>;
}

// Types, keyboards and autofill hints chosen for a tablet held by a client.
const PERSONAL: FieldSpec[] = [
  {
    name: "firstName",
    label: "First Name",
    required: true,
    input: { autoComplete: "given-name", autoCapitalize: "words" },
  },
  {
    name: "middleName",
    label: "Middle Name",
    input: { autoComplete: "additional-name", autoCapitalize: "words" },
  },
  {
    name: "lastName",
    label: "Last Name",
    required: true,
    input: { autoComplete: "family-name", autoCapitalize: "words" },
  },
  { name: "dob", label: "Date of Birth", input: { type: "date", autoComplete: "bday" } },
  {
    name: "email",
    label: "Email",
    wide: true,
    input: {
      type: "email",
      inputMode: "email",
      autoComplete: "email",
      autoCapitalize: "none",
      spellCheck: false,
    },
  },
  {
    name: "homePhone",
    label: "Home Phone",
    input: { type: "tel", inputMode: "tel", autoComplete: "tel" },
  },
  {
    name: "mobilePhone",
    label: "Mobile Phone",
    input: { type: "tel", inputMode: "tel", autoComplete: "tel" },
  },
];

const ADDRESS: FieldSpec[] = [
  {
    name: "address1",
    label: "Address Line 1",
    wide: true,
    input: { autoComplete: "address-line1" },
  },
  {
    name: "address2",
    label: "Address Line 2",
    wide: true,
    input: { autoComplete: "address-line2" },
  },
  {
    name: "city",
    label: "City",
    input: { autoComplete: "address-level2", autoCapitalize: "words" },
  },
  { name: "zip", label: "ZIP Code", input: { inputMode: "numeric", autoComplete: "postal-code" } },
];

export interface ClientFieldsProps {
  values: ClientFormValues;
  errors: Record<string, string>;
  onChange: (field: FieldName, value: string) => void;
  disabled?: boolean;
  /** Keeps ids unique when two forms are on one page. */
  idPrefix?: string;
  /** "cards" for the intake (one card per section), "plain" inside a dialog. */
  variant?: "cards" | "plain";
}

function TextField(
  { spec, props }: { spec: FieldSpec; props: ClientFieldsProps },
) {
  const id = `${props.idPrefix ?? "client"}-${spec.name}`;
  const error = props.errors[spec.name];
  const today = new Date().toISOString().slice(0, 10);
  return (
    <div className={`field${spec.wide ? " field-wide" : ""}`}>
      <label htmlFor={id}>
        {spec.label}
        {spec.required && <span className="required" aria-hidden="true">*</span>}
      </label>
      <input
        id={id}
        name={spec.name}
        {...spec.input}
        max={spec.input.type === "date" ? today : undefined}
        value={props.values[spec.name]}
        onChange={(e) => props.onChange(spec.name, e.target.value)}
        disabled={props.disabled}
        required={spec.required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && <p id={`${id}-error`} className="field-error">{error}</p>}
    </div>
  );
}

/** The personal and address fields of a client, shared by intake, add and edit. */
export function ClientFields(props: ClientFieldsProps) {
  const sectionClass = props.variant === "cards" ? "card form-card" : "form-section";
  const stateId = `${props.idPrefix ?? "client"}-state`;
  const stateError = props.errors.state;
  return (
    <>
      <section className={sectionClass} aria-labelledby={`${props.idPrefix ?? "client"}-personal`}>
        <h2 id={`${props.idPrefix ?? "client"}-personal`}>Personal Information</h2>
        <div className="form-grid">
          {PERSONAL.map((spec) => <TextField key={spec.name} spec={spec} props={props} />)}
        </div>
      </section>
      <section className={sectionClass} aria-labelledby={`${props.idPrefix ?? "client"}-address`}>
        <h2 id={`${props.idPrefix ?? "client"}-address`}>Address Information</h2>
        <div className="form-grid">
          {ADDRESS.slice(0, 3).map((spec) => (
            <TextField
              key={spec.name}
              spec={spec}
              props={props}
            />
          ))}
          <div className="field">
            <label htmlFor={stateId}>State</label>
            <select
              id={stateId}
              name="state"
              autoComplete="address-level1"
              value={props.values.state}
              onChange={(e) => props.onChange("state", e.target.value)}
              disabled={props.disabled}
              aria-invalid={stateError ? true : undefined}
              aria-describedby={stateError ? `${stateId}-error` : undefined}
            >
              <option value="">Select a state</option>
              {US_STATES.map(([code, name]) => (
                <option key={code} value={code}>{code} – {name}</option>
              ))}
            </select>
            {stateError && <p id={`${stateId}-error`} className="field-error">{stateError}</p>}
          </div>
          <TextField spec={ADDRESS[3]} props={props} />
        </div>
      </section>
    </>
  );
}
