// The labs catalog (ADMIN/OWNER): where jobs are made and in how many
// business days. A lab is deactivated rather than deleted: jobs name it.
import { type FormEvent, useId, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { ApiError, apiRequest, errorDetail, isUnauthorized } from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { Dialog } from "../components/Dialog.tsx";
import { Badge } from "../components/Badge.tsx";
import { labSchema } from "../src/schemas/order.ts";
import type { LabView } from "../src/orders/views.ts";
import { ColumnHeads } from "../components/ColumnHeads.tsx";
import { Checkbox } from "../components/Checkbox.tsx";

export interface LabsAdminProps {
  labs: LabView[];
}

type Draft = {
  name: string;
  email: string;
  phone: string;
  accountNumber: string;
  turnaroundDays: string;
  active: boolean;
};

const EMPTY: Draft = {
  name: "",
  email: "",
  phone: "",
  accountNumber: "",
  turnaroundDays: "5",
  active: true,
};

const toDraft = (l: LabView): Draft => ({
  name: l.name,
  email: l.email ?? "",
  phone: l.phone ?? "",
  accountNumber: l.accountNumber ?? "",
  turnaroundDays: String(l.turnaroundDays),
  active: l.active,
});

export default function LabsAdmin(props: LabsAdminProps) {
  const [labs, setLabs] = useState(props.labs);
  const [editing, setEditing] = useState<{ id: string | null; draft: Draft } | null>(null);
  return (
    <div className="labs-admin">
      <div className="page-head">
        <div>
          <h1>Labs</h1>
          <p className="muted">
            Where jobs are made. A job is promised the order day plus the lab's turnaround in the
            store's business days.
          </p>
        </div>
        <div className="order-head-actions">
          <a className="btn btn-outline" href="/admin">Back to Admin</a>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => setEditing({ id: null, draft: EMPTY })}
          >
            Add Lab
          </button>
        </div>
      </div>
      {labs.length === 0
        ? <p className="empty-inline">No labs yet. Add the first one to start taking orders.</p>
        : (
          <div className="data-table-wrap" tabIndex={0} aria-labelledby="labs-caption">
            <table className="data-table">
              <caption id="labs-caption" className="sr-only">Labs</caption>
              <ColumnHeads
                columns={[
                  "Name",
                  "E-mail",
                  "Phone",
                  "Account",
                  { label: "Turnaround", className: "num" },
                  "Status",
                  "Actions",
                ]}
              />
              <tbody>
                {labs.map((l) => (
                  <tr key={l.id}>
                    <td>{l.name}</td>
                    <td>{l.email ?? "—"}</td>
                    <td>{l.phone ?? "—"}</td>
                    <td>{l.accountNumber ?? "—"}</td>
                    <td className="num">{l.turnaroundDays} days</td>
                    <td>
                      {l.active
                        ? <Badge variant="success">Active</Badge>
                        : <Badge variant="secondary">Inactive</Badge>}
                    </td>
                    <td>
                      <button
                        type="button"
                        className="btn btn-outline btn-sm"
                        aria-label={`Edit ${l.name}`}
                        onClick={() => setEditing({ id: l.id, draft: toDraft(l) })}
                      >
                        Edit
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      <Dialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.id ? "Edit Lab" : "Add Lab"}
      >
        {editing && (
          <LabForm
            id={editing.id}
            initial={editing.draft}
            onCancel={() => setEditing(null)}
            onSaved={(lab) => {
              setLabs((all) =>
                (editing.id ? all.map((l) => l.id === lab.id ? lab : l) : [...all, lab])
                  .sort((a, b) => a.name.localeCompare(b.name))
              );
              setEditing(null);
              toast({ title: "Lab Saved", description: lab.name, variant: "success" });
            }}
          />
        )}
      </Dialog>
    </div>
  );
}

function LabForm(
  { id, initial, onCancel, onSaved }: {
    id: string | null;
    initial: Draft;
    onCancel: () => void;
    onSaved: (lab: LabView) => void;
  },
) {
  const uid = useId();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (body: unknown) =>
      id
        ? apiRequest<LabView>("PUT", `/api/admin/labs/${id}`, body)
        : apiRequest<LabView>("POST", "/api/admin/labs", body),
    onSuccess: onSaved,
    onError: (error) => {
      if (error instanceof ApiError && error.fields) setErrors(error.fields);
      if (!isUnauthorized(error)) {
        toast({ title: "Lab not saved", description: errorDetail(error), variant: "destructive" });
      }
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    const parsed = labSchema.safeParse(draft);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  }

  const field = (name: keyof Draft, label: string, type = "text") => (
    <div className="field">
      <label htmlFor={`${uid}-${name}`}>{label}</label>
      <input
        id={`${uid}-${name}`}
        type={type}
        value={draft[name] as string}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${uid}-${name}-error` : undefined}
      />
      {errors[name] && <p id={`${uid}-${name}-error`} className="field-error">{errors[name]}</p>}
    </div>
  );

  return (
    <form className="stack" onSubmit={submit} noValidate>
      {field("name", "Name")}
      {field("email", "E-mail (work orders go here)", "email")}
      {field("phone", "Phone", "tel")}
      {field("accountNumber", "Account number")}
      {field("turnaroundDays", "Turnaround (business days)")}
      <Checkbox
        label="Active (offered on new orders)"
        checked={draft.active}
        onChange={(e) => setDraft({ ...draft, active: e.target.checked })}
      />
      <div className="dialog-footer">
        <button type="button" className="btn btn-outline" onClick={onCancel}>Cancel</button>
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? "Saving..." : "Save Lab"}
        </button>
      </div>
    </form>
  );
}
