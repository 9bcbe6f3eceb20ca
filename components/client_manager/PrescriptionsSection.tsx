import { type FormEvent, useId, useMemo, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Badge } from "../Badge.tsx";
import { ApiError, apiRequest } from "../api_client.ts";
import { formErrors } from "../../src/schemas/form_errors.ts";
import { prescriptionSchema } from "../../src/schemas/prescription.ts";
import type { EyeView, PrescriptionView } from "../../src/prescriptions/views.ts";
import {
  type CylinderForm,
  formatAxis,
  formatPower,
  formatPrism,
  isPrescriptionExpired,
  localToday,
  PRISM_BASES,
  transpose,
} from "../../src/prescriptions/rules.ts";
import { failureToast, successToast } from "./queries.ts";
import { RxTableHead } from "../RxTableHead.tsx";
import { FormActions } from "../FormActions.tsx";

const prescriptionsKey = (clientId: string) => ["client", clientId, "prescriptions"] as const;
const EYES = [["rightEye", "Right (OD)"], ["leftEye", "Left (OS)"]] as const;
type EyeKey = (typeof EYES)[number][0];

const EYE_FIELDS = ["sphere", "cylinder", "axis", "add", "prism.amount", "prism.base"] as const;
type EyeField = (typeof EYE_FIELDS)[number];
const FIELD_LABELS: Record<EyeField, string> = {
  sphere: "Sphere",
  cylinder: "Cylinder",
  axis: "Axis",
  add: "Add",
  "prism.amount": "Prism",
  "prism.base": "Base",
};
const PLACEHOLDERS: Partial<Record<EyeField, string>> = {
  sphere: "-2.25",
  cylinder: "-0.50",
  axis: "1–180",
  add: "+2.00",
  "prism.amount": "0.25–20",
};

/** The form holds every field as a string, keyed by the same dotted names as its errors. */
type FormValues = Record<string, string>;

function formValues(p?: PrescriptionView): FormValues {
  const values: FormValues = {
    dateWritten: p?.dateWritten ?? localToday(),
    prescriber: p?.prescriber ?? "",
    expiresOn: p?.expiresOn ?? "",
    notes: p?.notes ?? "",
  };
  for (const [eye] of EYES) {
    const e = p?.[eye];
    values[`${eye}.sphere`] = e ? formatPower(e.sphere).replace("PL", "0.00") : "";
    values[`${eye}.cylinder`] = e?.cylinder ? formatPower(e.cylinder).replace("PL", "0.00") : "";
    values[`${eye}.axis`] = e?.axis ? String(e.axis) : "";
    values[`${eye}.add`] = e?.add ? formatPower(e.add) : "";
    values[`${eye}.prism.amount`] = e?.prism?.amount ?? "";
    values[`${eye}.prism.base`] = e?.prism?.base ?? "";
  }
  return values;
}

/** The payload the shared schema and the API take. */
function payload(v: FormValues) {
  const eye = (e: EyeKey) => ({
    sphere: v[`${e}.sphere`],
    cylinder: v[`${e}.cylinder`],
    axis: v[`${e}.axis`],
    add: v[`${e}.add`],
    prism: v[`${e}.prism.amount`].trim() || v[`${e}.prism.base`]
      ? { amount: v[`${e}.prism.amount`], base: v[`${e}.prism.base`] }
      : null,
  });
  return {
    dateWritten: v.dateWritten,
    prescriber: v.prescriber,
    expiresOn: v.expiresOn,
    notes: v.notes,
    rightEye: eye("rightEye"),
    leftEye: eye("leftEye"),
  };
}

function check(values: FormValues): Record<string, string> {
  const result = prescriptionSchema.safeParse(payload(values));
  return result.success ? {} : formErrors(result.error);
}

/**
 * The client's spectacle prescriptions: the list (newest written first, an
 * expired one marked), a display-only plus/minus-cylinder toggle, and the
 * entry form, which checks each field as it is typed with the API's schema.
 */
export function PrescriptionsSection(
  { clientId, initial }: { clientId: string; initial?: PrescriptionView[] },
) {
  const list = useQuery({
    initialData: initial,
    queryKey: prescriptionsKey(clientId),
    queryFn: () =>
      apiRequest<PrescriptionView[]>(
        "GET",
        `/api/clients/${encodeURIComponent(clientId)}/prescriptions`,
      ),
  });
  const [editing, setEditing] = useState<PrescriptionView | "new" | null>(null);
  const [form, setForm] = useState<CylinderForm>("written");
  const today = localToday();
  const prescriptions = list.data ?? [];

  return (
    <section className="detail-section detail-section-wide" aria-labelledby="detail-rx">
      <div className="detail-section-head">
        <h3 id="detail-rx">Prescriptions</h3>
        {editing === null && (
          <button
            type="button"
            className="btn btn-outline btn-sm detail-section-action"
            onClick={() => setEditing("new")}
          >
            Add Prescription
          </button>
        )}
      </div>
      {editing !== null && (
        <PrescriptionForm
          clientId={clientId}
          prescription={editing === "new" ? undefined : editing}
          onDone={() => setEditing(null)}
        />
      )}
      {list.isPending
        ? <p className="loading" role="status">Loading...</p>
        : list.isError
        ? <p className="field-error" role="alert">Failed to load prescriptions</p>
        : prescriptions.length === 0
        ? <p className="muted">No prescriptions recorded.</p>
        : (
          <>
            <CylinderToggle value={form} onChange={setForm} />
            <ul className="rx-list">
              {prescriptions.map((p, index) => (
                <PrescriptionCard
                  key={p.id}
                  clientId={clientId}
                  prescription={p}
                  latest={index === 0}
                  expired={isPrescriptionExpired(p.expiresOn, today)}
                  form={form}
                  onEdit={editing === null ? () => setEditing(p) : undefined}
                />
              ))}
            </ul>
          </>
        )}
    </section>
  );
}

function CylinderToggle(
  { value, onChange }: { value: CylinderForm; onChange: (v: CylinderForm) => void },
) {
  const name = useId();
  const choices: Array<[CylinderForm, string]> = [
    ["written", "As written"],
    ["minus", "Minus cylinder"],
    ["plus", "Plus cylinder"],
  ];
  return (
    <fieldset className="rx-toggle">
      <legend>Show cylinder</legend>
      {choices.map(([v, label]) => (
        <label key={v} className="rx-toggle-choice">
          <input
            type="radio"
            name={name}
            value={v}
            checked={value === v}
            onChange={() => onChange(v)}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

function EyeRow({ label, eye, form }: { label: string; eye: EyeView; form: CylinderForm }) {
  const shown = transpose(eye, form);
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{formatPower(shown.sphere)}</td>
      <td>{formatPower(shown.cylinder)}</td>
      <td>{formatAxis(shown.axis)}</td>
      <td>{formatPower(eye.add)}</td>
      <td>{formatPrism(eye.prism?.amount ?? null, eye.prism?.base ?? null)}</td>
    </tr>
  );
}

function PrescriptionCard(
  { clientId, prescription: p, latest, expired, form, onEdit }: {
    clientId: string;
    prescription: PrescriptionView;
    latest: boolean;
    expired: boolean;
    form: CylinderForm;
    onEdit?: () => void;
  },
) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () =>
      apiRequest(
        "DELETE",
        `/api/clients/${encodeURIComponent(clientId)}/prescriptions/${p.id}`,
      ),
    onSuccess: async () => {
      successToast("Prescription deleted");
      await queryClient.invalidateQueries({ queryKey: prescriptionsKey(clientId) });
    },
    onError: (error) => failureToast(error, "Failed to delete prescription"),
  });
  const title = `Prescription written ${p.dateWritten}`;
  return (
    <li className={`rx-card${expired ? " rx-card-expired" : ""}`} aria-label={title}>
      <div className="rx-card-head">
        <p className="rx-card-title">
          <strong>Written {p.dateWritten}</strong> by {p.prescriber}
          {p.expiresOn && <span className="muted">· expires {p.expiresOn}</span>}
        </p>
        {latest && <Badge variant="info">Latest</Badge>}
        {expired && <Badge variant="destructive">Expired</Badge>}
      </div>
      <table className="rx-table">
        <caption className="sr-only">{title}</caption>
        <RxTableHead />
        <tbody>
          <EyeRow label="Right (OD)" eye={p.rightEye} form={form} />
          <EyeRow label="Left (OS)" eye={p.leftEye} form={form} />
        </tbody>
      </table>
      {p.notes && <p className="rx-notes">{p.notes}</p>}
      <div className="actions">
        {confirming
          ? (
            <>
              <span>Delete this prescription?</span>
              <button
                type="button"
                className="btn btn-danger btn-sm"
                disabled={remove.isPending}
                onClick={() => remove.mutate()}
              >
                {remove.isPending ? "Deleting..." : "Delete"}
              </button>
              <button
                type="button"
                className="btn btn-outline btn-sm"
                onClick={() => setConfirming(false)}
              >
                Keep
              </button>
            </>
          )
          : (
            <>
              {onEdit && (
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  onClick={onEdit}
                  aria-label={`Edit prescription written ${p.dateWritten}`}
                >
                  Edit
                </button>
              )}
              <button
                type="button"
                className="btn btn-outline btn-sm"
                onClick={() => setConfirming(true)}
                aria-label={`Delete prescription written ${p.dateWritten}`}
              >
                Delete
              </button>
            </>
          )}
      </div>
    </li>
  );
}

function PrescriptionForm(
  { clientId, prescription, onDone }: {
    clientId: string;
    prescription?: PrescriptionView;
    onDone: () => void;
  },
) {
  const id = useId();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<FormValues>(() => formValues(prescription));
  // A field's message shows once it has been typed in (or on submit), then follows every key.
  const [touched, setTouched] = useState<Set<string> | "all">(new Set());
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const errors = useMemo(() => {
    const all = { ...check(values), ...serverErrors };
    if (touched === "all") return all;
    return Object.fromEntries(Object.entries(all).filter(([k]) => touched.has(k)));
  }, [values, touched, serverErrors]);

  const path = prescription
    ? `/api/clients/${encodeURIComponent(clientId)}/prescriptions/${prescription.id}`
    : `/api/clients/${encodeURIComponent(clientId)}/prescriptions`;
  const save = useMutation({
    mutationFn: () => apiRequest(prescription ? "PUT" : "POST", path, payload(values)),
    onSuccess: async () => {
      successToast(prescription ? "Prescription updated" : "Prescription saved");
      await queryClient.invalidateQueries({ queryKey: prescriptionsKey(clientId) });
      onDone();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400 && error.fields) {
        setServerErrors(error.fields);
        setTouched("all");
      }
      failureToast(error, "Failed to save prescription");
    },
  });

  function set(name: string, value: string) {
    setServerErrors({});
    setValues((v) => ({ ...v, [name]: value }));
    setTouched((t) => (t === "all" ? t : new Set(t).add(name)));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    setTouched("all");
    const found = check(values);
    const first = Object.keys(found)[0];
    if (first) {
      event.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    save.mutate();
  }

  const fieldId = (name: string) => `${id}-${name.replace(/\./g, "-")}`;
  const errorOf = (name: string) =>
    errors[name] && <p id={`${fieldId(name)}-error`} className="field-error">{errors[name]}</p>;
  const described = (name: string) =>
    errors[name]
      ? { "aria-invalid": true as const, "aria-describedby": `${fieldId(name)}-error` }
      : {};
  const text = (name: string, label: string, type = "text", placeholder?: string) => (
    <div className="field">
      <label htmlFor={fieldId(name)}>{label}</label>
      <input
        id={fieldId(name)}
        name={name}
        type={type}
        value={values[name]}
        placeholder={placeholder}
        autoComplete="off"
        onChange={(e) => set(name, e.target.value)}
        disabled={save.isPending}
        {...described(name)}
      />
      {errorOf(name)}
    </div>
  );

  return (
    <form
      className="stack rx-form"
      onSubmit={onSubmit}
      noValidate
      aria-label={prescription ? "Edit prescription" : "New prescription"}
    >
      <div className="rx-form-head">
        {text("dateWritten", "Date written", "date")}
        {text("prescriber", "Prescriber", "text", "Dr. Name")}
        {text("expiresOn", "Expires on (optional)", "date")}
      </div>
      <table className="rx-table rx-form-table">
        <caption className="sr-only">Lens values per eye</caption>
        <thead>
          <tr>
            <th scope="col">Eye</th>
            {EYE_FIELDS.map((f) => <th key={f} scope="col">{FIELD_LABELS[f]}</th>)}
          </tr>
        </thead>
        <tbody>
          {EYES.map(([eye, eyeLabel]) => (
            <tr key={eye}>
              <th scope="row">{eyeLabel}</th>
              {EYE_FIELDS.map((f) => {
                const name = `${eye}.${f}`;
                const label = `${eyeLabel} ${FIELD_LABELS[f].toLowerCase()}`;
                return (
                  <td key={f}>
                    {f === "prism.base"
                      ? (
                        <select
                          id={fieldId(name)}
                          name={name}
                          aria-label={label}
                          value={values[name]}
                          onChange={(e) => set(name, e.target.value)}
                          disabled={save.isPending}
                          {...described(name)}
                        >
                          <option value="">—</option>
                          {PRISM_BASES.map((b) => <option key={b} value={b}>{b}</option>)}
                        </select>
                      )
                      : (
                        <input
                          id={fieldId(name)}
                          name={name}
                          aria-label={label}
                          inputMode={f === "axis" ? "numeric" : "text"}
                          autoComplete="off"
                          placeholder={PLACEHOLDERS[f]}
                          value={values[name]}
                          onChange={(e) => set(name, e.target.value)}
                          disabled={save.isPending}
                          {...described(name)}
                        />
                      )}
                    {errorOf(name)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="field">
        <label htmlFor={fieldId("notes")}>Notes</label>
        <textarea
          id={fieldId("notes")}
          name="notes"
          rows={2}
          value={values.notes}
          onChange={(e) => set("notes", e.target.value)}
          disabled={save.isPending}
          {...described("notes")}
        />
        {errorOf("notes")}
      </div>
      <FormActions label="Save Prescription" busy={save.isPending} onCancel={onDone} />
    </form>
  );
}
