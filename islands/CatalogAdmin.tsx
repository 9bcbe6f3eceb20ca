import { type FormEvent, useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, apiRequest, handleUnauthorized } from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { Badge } from "../components/Badge.tsx";
import { Dialog } from "../components/Dialog.tsx";
import { useValidatedForm } from "../components/use_validated_form.ts";
import { catalogItemSchema } from "../src/schemas/catalog.ts";
import type { CatalogItem } from "../src/catalog/catalog.ts";
import {
  type CatalogSectionInfo,
  type CatalogSectionKey,
  findCatalogSection,
  formatPrice,
  nameMismatchMessage,
} from "../components/catalog_admin/sections.ts";
import { ImportCsvDialog } from "../components/catalog_admin/ImportCsvDialog.tsx";
import { Checkbox } from "../components/Checkbox.tsx";

export interface CatalogAdminProps {
  section: CatalogSectionKey;
  initialItems: CatalogItem[];
}

/** What the form edits: text as typed, checked by the API's own schema. */
type FormValues = {
  name: string;
  description: string;
  price: string;
  sortOrder: string;
  active: boolean;
};

const EMPTY: FormValues = { name: "", description: "", price: "", sortOrder: "0", active: true };

function toValues(item: CatalogItem): FormValues {
  return {
    name: item.name,
    description: item.description ?? "",
    price: item.price,
    sortOrder: String(item.sortOrder),
    active: item.active,
  };
}

const failed = (verb: string, type: string) =>
  toast({
    title: "Error",
    description: `Failed to ${verb} ${type}. Please try again.`,
    variant: "destructive",
  });

export default function CatalogAdmin({ section: key, initialItems }: CatalogAdminProps) {
  const section = findCatalogSection(key)!;
  const queryKey = ["admin", "catalog", key];
  const queryClient = useQueryClient();
  const items = useQuery({
    queryKey,
    queryFn: () => apiRequest<CatalogItem[]>("GET", `/api/admin/${key}`),
    initialData: initialItems,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey });
  /** Shows a saved item at once (the refetch then brings the server's order). */
  const put = (saved: CatalogItem) =>
    queryClient.setQueryData<CatalogItem[]>(
      queryKey,
      (old = []) =>
        old.some((i) => i.id === saved.id)
          ? old.map((i) => (i.id === saved.id ? saved : i))
          : [...old, saved],
    );

  // null: closed; "new": adding; an item: editing it.
  const [editing, setEditing] = useState<CatalogItem | "new" | null>(null);
  const [deleting, setDeleting] = useState<CatalogItem | null>(null);

  const setActive = useMutation({
    mutationFn: ({ item, active }: { item: CatalogItem; active: boolean }) =>
      apiRequest<CatalogItem>("PUT", `/api/admin/${key}/${item.id}`, { active }),
    onSuccess: (item) => {
      put(item);
      toast({
        title: item.active ? `${section.title} Activated` : `${section.title} Deactivated`,
        description: `${item.name} is now ${item.active ? "active" : "inactive"}.`,
        variant: "success",
      });
    },
    onError: (error) => {
      if (!handleUnauthorized(error)) failed("update", section.type);
    },
    onSettled: refresh,
  });

  const [importing, setImporting] = useState(false);

  const isPackages = key === "packages";
  const rows = items.data;

  return (
    <section className="catalog-admin-panel" aria-labelledby="catalog-admin-title">
      <div className="catalog-admin-head">
        <div>
          <h2 id="catalog-admin-title">{section.label}</h2>
          <p className="muted">
            {rows.length}{" "}
            {rows.length === 1 ? "item" : "items"}; inactive items are hidden from quotes.
          </p>
        </div>
        <div className="actions">
          <a className="btn btn-outline" href={`/api/admin/${key}/export.csv`} download>
            Export CSV
          </a>
          <button type="button" className="btn btn-outline" onClick={() => setImporting(true)}>
            Import CSV
          </button>
          <button type="button" className="btn btn-primary" onClick={() => setEditing("new")}>
            Add {section.title}
          </button>
        </div>
      </div>

      <div className="data-table-wrap">
        <table
          className="data-table data-table-actions catalog-table"
          aria-labelledby="catalog-admin-title"
        >
          <thead>
            <tr>
              <th scope="col">Name</th>
              {isPackages && <th scope="col">Description</th>}
              <th scope="col" className="num">Price</th>
              <th scope="col" className="num">Sort Order</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={isPackages ? 6 : 5} className="catalog-empty muted">
                  No {section.label.toLowerCase()} yet.
                </td>
              </tr>
            )}
            {rows.map((item) => (
              <tr key={item.id} className={item.active ? undefined : "catalog-row-inactive"}>
                <th scope="row" className="catalog-name">{item.name}</th>
                {isPackages && <td className="catalog-description">{item.description}</td>}
                <td className="num">{formatPrice(item.price)}</td>
                <td className="num">{item.sortOrder}</td>
                <td>
                  <button
                    type="button"
                    className="catalog-badge-button"
                    title={item.active ? "Click to deactivate" : "Click to activate"}
                    disabled={setActive.isPending}
                    onClick={() =>
                      setActive.mutate({ item, active: !item.active })}
                  >
                    <Badge variant={item.active ? "success" : "secondary"}>
                      {item.active ? "Active" : "Inactive"}
                    </Badge>
                  </button>
                </td>
                <td>
                  <div className="catalog-row-actions">
                    <button
                      type="button"
                      className="btn btn-outline btn-sm"
                      aria-label={`Edit ${item.name}`}
                      onClick={() =>
                        setEditing(item)}
                    >
                      Edit
                    </button>
                    {item.active && (
                      <button
                        type="button"
                        className="btn btn-outline btn-sm"
                        aria-label={`Deactivate ${item.name}`}
                        disabled={setActive.isPending}
                        onClick={() => setActive.mutate({ item, active: false })}
                      >
                        Deactivate
                      </button>
                    )}
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm catalog-delete"
                      aria-label={`Delete ${item.name}`}
                      onClick={() => setDeleting(item)}
                    >
                      Delete
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {editing !== null && (
        <ItemDialog
          section={section}
          item={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            put(saved);
            setEditing(null);
            refresh();
          }}
        />
      )}
      {importing && (
        <ImportCsvDialog
          section={section}
          onClose={() => setImporting(false)}
          onImported={() => {
            setImporting(false);
            refresh();
          }}
        />
      )}
      {deleting && (
        <DeleteDialog
          section={section}
          item={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            queryClient.setQueryData<CatalogItem[]>(
              queryKey,
              (old = []) => old.filter((i) => i.id !== deleting.id),
            );
            setDeleting(null);
            refresh();
          }}
        />
      )}
    </section>
  );
}

function ItemDialog(
  { section, item, onClose, onSaved }: {
    section: CatalogSectionInfo;
    item: CatalogItem | null;
    onClose: () => void;
    onSaved: (saved: CatalogItem) => void;
  },
) {
  const uid = useId();
  const id = (name: string) => `${uid}-${name}`;
  const form = useValidatedForm(catalogItemSchema, item ? toValues(item) : EMPTY);
  const v = form.values;
  const e = form.errors;
  const isPackages = section.key === "packages";
  const formId = id("form");

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      item
        ? apiRequest<CatalogItem>("PUT", `/api/admin/${section.key}/${item.id}`, body)
        : apiRequest<CatalogItem>("POST", `/api/admin/${section.key}`, body),
    onSuccess: (saved) => {
      toast({
        title: item ? `${section.title} Updated` : `${section.title} Created`,
        description: `${saved.name} has been ${item ? "updated" : "added"}.`,
        variant: "success",
      });
      onSaved(saved);
    },
    onError: (error) => {
      if (handleUnauthorized(error)) return;
      if (error instanceof ApiError && error.status === 400 && error.fields) {
        form.setErrors(error.fields);
      }
      failed(item ? "update" : "create", section.type);
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const data = form.validate(event.currentTarget);
    if (!data) return;
    save.mutate({
      name: data.name,
      ...(isPackages ? { description: data.description } : {}),
      // The spec sends the price as a number.
      price: Number(data.price),
      active: data.active,
      sortOrder: data.sortOrder,
    });
  }

  const field = (
    name: "name" | "price" | "sortOrder",
    label: string,
    input: Record<string, unknown> = {},
  ) => (
    <div className="field">
      <label htmlFor={id(name)}>{label}</label>
      <input
        {...input}
        id={id(name)}
        name={name}
        value={v[name]}
        aria-invalid={e[name] ? true : undefined}
        aria-describedby={e[name] ? id(`${name}-error`) : undefined}
        onChange={(ev) => form.setField(name, ev.target.value)}
      />
      {e[name] && <p id={id(`${name}-error`)} className="field-error">{e[name]}</p>}
    </div>
  );

  return (
    <Dialog
      open
      onClose={onClose}
      title={item ? `Edit ${section.title}` : `Add ${section.title}`}
      footer={
        <>
          <button type="button" className="btn btn-outline" onClick={onClose}>Cancel</button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={save.isPending}>
            {save.isPending ? "Saving..." : item ? "Save Changes" : `Add ${section.title}`}
          </button>
        </>
      }
    >
      <form id={formId} className="catalog-form" noValidate onSubmit={onSubmit}>
        {field("name", "Name", { autoComplete: "off", maxLength: 120 })}
        {isPackages && (
          <div className="field">
            <label htmlFor={id("description")}>Description</label>
            <textarea
              id={id("description")}
              name="description"
              rows={3}
              maxLength={1000}
              value={v.description}
              onChange={(ev) => form.setField("description", ev.target.value)}
            />
            {e.description && <p className="field-error">{e.description}</p>}
          </div>
        )}
        <div className="form-grid">
          {field("price", "Price ($)", { inputMode: "decimal", placeholder: "0.00" })}
          {field("sortOrder", "Sort Order", { type: "number", step: 1, inputMode: "numeric" })}
        </div>
        <Checkbox
          label="Active (offered in quotes)"
          name="active"
          checked={v.active}
          onChange={(ev) => form.setField("active", ev.target.checked)}
        />
      </form>
    </Dialog>
  );
}

function DeleteDialog(
  { section, item, onClose, onDeleted }: {
    section: CatalogSectionInfo;
    item: CatalogItem;
    onClose: () => void;
    onDeleted: () => void;
  },
) {
  const uid = useId();
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | undefined>();
  const formId = `${uid}-form`;

  const remove = useMutation({
    mutationFn: () => apiRequest("DELETE", `/api/admin/${section.key}/${item.id}`),
    onSuccess: () => {
      toast({
        title: `${section.title} Deleted`,
        description: `${item.name} has been deleted.`,
        variant: "success",
      });
      onDeleted();
    },
    onError: (err) => {
      if (!handleUnauthorized(err)) failed("delete", section.type);
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (remove.isPending) return;
    if (typed.trim() !== item.name.trim()) {
      setError(nameMismatchMessage(section.type, item.name));
      return;
    }
    setError(undefined);
    remove.mutate();
  }

  return (
    <Dialog
      open
      size="sm"
      onClose={onClose}
      title={`Delete ${section.title}`}
      description={
        <>
          This permanently deletes{" "}
          <strong>{item.name}</strong>. Saved quotes keep their copy. This cannot be undone.
        </>
      }
      footer={
        <>
          <button type="button" className="btn btn-outline" onClick={onClose}>Cancel</button>
          <button
            type="submit"
            form={formId}
            className="btn btn-danger"
            disabled={remove.isPending}
          >
            {remove.isPending ? "Deleting..." : "Delete"}
          </button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={onSubmit} className="catalog-form">
        <div className="field">
          <label htmlFor={`${uid}-confirm`}>
            Type <strong>{item.name}</strong> to confirm
          </label>
          <input
            id={`${uid}-confirm`}
            name="confirmName"
            autoComplete="off"
            value={typed}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${uid}-confirm-error` : undefined}
            onChange={(ev) => setTyped(ev.target.value)}
          />
          {error && <p id={`${uid}-confirm-error`} className="field-error" role="alert">{error}</p>}
        </div>
      </form>
    </Dialog>
  );
}
