import { type FormEvent, useId, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { ApiError, apiUpload, errorDetail, handleUnauthorized } from "../api_client.ts";
import { toast } from "../toast.tsx";
import { Badge, type BadgeVariant } from "../Badge.tsx";
import { Dialog } from "../Dialog.tsx";
import { CATALOG_CSV_MAX_BYTES, CATALOG_CSV_TOO_LARGE } from "../../src/schemas/catalog.ts";
import type { ImportPreview, PreviewRow, PreviewStatus } from "../../src/catalog/catalog_csv.ts";
import { type CatalogSectionInfo, formatPrice } from "./sections.ts";
import { ColumnHeads } from "../ColumnHeads.tsx";

const STATUS: Record<PreviewStatus, { label: string; variant: BadgeVariant }> = {
  new: { label: "New", variant: "info" },
  changed: { label: "Changed", variant: "warning" },
  unchanged: { label: "Unchanged", variant: "secondary" },
  invalid: { label: "Invalid", variant: "destructive" },
};

const FIELD_LABELS: Record<string, string> = {
  name: "Name",
  description: "Description",
  price: "Price",
  active: "Active",
  sortOrder: "Sort order",
};

const shown = (field: string, value: string) =>
  field === "price" ? formatPrice(value) : value === "" ? "(empty)" : value;

/** Rows worth looking at first: problems, then changes; unchanged rows last. */
const ORDER: PreviewStatus[] = ["invalid", "changed", "new", "unchanged"];
const PREVIEW_ROWS_SHOWN = 500;

/**
 * Import CSV: pick a file, see what it would do (new, changed, unchanged and
 * invalid rows with reasons), then apply it, all or nothing. The file is sent
 * as itself (text/csv), up to 5 MB; the import carries the preview's
 * fingerprint so a section changed in between is refused, not overwritten.
 */
export function ImportCsvDialog(
  { section, onClose, onImported }: {
    section: CatalogSectionInfo;
    onClose: () => void;
    onImported: () => void;
  },
) {
  const uid = useId();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const base = `/api/admin/${section.key}`;

  const previewCall = useMutation({
    mutationFn: (f: File) => apiUpload<ImportPreview>(`${base}/import/preview`, f, "text/csv"),
    onSuccess: setPreview,
    onError: (error) => {
      if (handleUnauthorized(error)) return;
      setFileError(errorDetail(error) ?? "The file could not be read.");
    },
  });
  const importCall = useMutation({
    mutationFn: ({ f, fingerprint }: { f: File; fingerprint: string }) =>
      apiUpload<{ created: number; updated: number; unchanged: number }>(
        `${base}/import?fingerprint=${fingerprint}`,
        f,
        "text/csv",
      ),
    onSuccess: (result) => {
      toast({
        title: "Import Complete",
        description: `${section.label}: ${result.created} added, ${result.updated} changed.`,
        variant: "success",
      });
      onImported();
    },
    onError: (error) => {
      if (handleUnauthorized(error)) return;
      // A stale preview or rows that became invalid: show why, keep the dialog open.
      setPreview(null);
      setFileError(
        error instanceof ApiError ? error.detail : errorDetail(error) ?? "Import failed",
      );
      toast({ title: "Import Failed", description: errorDetail(error), variant: "destructive" });
    },
  });

  function onPick(picked: File | null) {
    setFile(picked);
    setPreview(null);
    setFileError(null);
    if (picked && picked.size > CATALOG_CSV_MAX_BYTES) setFileError(CATALOG_CSV_TOO_LARGE);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!file) {
      setFileError("Choose a CSV file first.");
      return;
    }
    if (file.size > CATALOG_CSV_MAX_BYTES || previewCall.isPending) return;
    setFileError(null);
    previewCall.mutate(file);
  }

  const counts = preview?.counts;
  const toApply = counts ? counts.new + counts.changed : 0;
  const canImport = !!preview && counts!.invalid === 0 && toApply > 0 && !importCall.isPending;
  const formId = `${uid}-form`;
  const rows = preview
    ? [...preview.rows].sort((a, b) =>
      ORDER.indexOf(a.status) - ORDER.indexOf(b.status) || a.line - b.line
    )
    : [];

  return (
    <Dialog
      open
      size="lg"
      onClose={onClose}
      title={`Import ${section.label} from CSV`}
      description={
        <>
          Rows with an id update that item; rows without one update the item of the same name, or
          are added. Items not in the file stay as they are. Nothing changes until you import, and
          then all rows go in together or none do.
        </>
      }
      footer={
        <>
          <button type="button" className="btn btn-outline" onClick={onClose}>Cancel</button>
          {preview
            ? (
              <button
                type="button"
                className="btn btn-primary"
                disabled={!canImport}
                onClick={() =>
                  file && importCall.mutate({ f: file, fingerprint: preview.fingerprint })}
              >
                {importCall.isPending
                  ? "Importing..."
                  : `Import ${toApply} ${toApply === 1 ? "Change" : "Changes"}`}
              </button>
            )
            : (
              <button
                type="submit"
                form={formId}
                className="btn btn-primary"
                disabled={previewCall.isPending}
              >
                {previewCall.isPending ? "Reading..." : "Preview"}
              </button>
            )}
        </>
      }
    >
      <form id={formId} className="stack csv-import-form" noValidate onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor={`${uid}-file`}>CSV file (up to 5 MB)</label>
          <input
            id={`${uid}-file`}
            type="file"
            name="file"
            accept=".csv,text/csv"
            aria-invalid={fileError ? true : undefined}
            aria-describedby={`${uid}-hint${fileError ? ` ${uid}-error` : ""}`}
            onChange={(e) => onPick(e.target.files?.[0] ?? null)}
          />
          <p id={`${uid}-hint`} className="hint">
            Columns: {section.key === "packages"
              ? "id, name, description, price, active, sort_order"
              : "id, name, price, active, sort_order"}. Prices like 129.00; active true or false.
            {" "}
            <a className="link" href={`${base}/template.csv`} download>Download the template</a>.
          </p>
          {fileError && <p id={`${uid}-error`} className="field-error" role="alert">{fileError}</p>}
        </div>
      </form>
      {preview && <PreviewTable preview={preview} rows={rows} />}
    </Dialog>
  );
}

function PreviewTable({ preview, rows }: { preview: ImportPreview; rows: PreviewRow[] }) {
  const { counts } = preview;
  return (
    <div className="csv-preview">
      <p className="csv-preview-summary" role="status">
        {counts.new} new, {counts.changed} changed, {counts.unchanged} unchanged, {counts.invalid}
        {" "}
        invalid.
        {counts.invalid > 0 && " Fix the invalid rows in the file and preview it again."}
        {counts.invalid === 0 && counts.new + counts.changed === 0 && " Nothing to import."}
      </p>
      <div className="data-table-wrap csv-preview-wrap" tabIndex={0} aria-label="Import preview">
        <table className="data-table">
          <ColumnHeads
            columns={[{ label: "Line", className: "num" }, "Status", "Name", {
              label: "Price",
              className: "num",
            }, "What happens"]}
          />
          <tbody>
            {rows.slice(0, PREVIEW_ROWS_SHOWN).map((row) => (
              <tr key={row.line}>
                <td className="num">{row.line}</td>
                <td>
                  <Badge variant={STATUS[row.status].variant}>{STATUS[row.status].label}</Badge>
                </td>
                <td>{row.name || <span className="muted">(no name)</span>}</td>
                <td className="num">
                  {row.status === "invalid" ? row.price : formatPrice(row.price)}
                </td>
                <td>
                  {row.status === "invalid" && (
                    <ul className="csv-reasons">
                      {row.errors.map((e) => <li key={e}>{e}</li>)}
                    </ul>
                  )}
                  {row.status === "changed" && (
                    <ul className="csv-reasons">
                      {row.changes.map((c) => (
                        <li key={c.field}>
                          {FIELD_LABELS[c.field]}: {shown(c.field, c.from)} → {shown(c.field, c.to)}
                        </li>
                      ))}
                    </ul>
                  )}
                  {row.status === "new" && "Added"}
                  {row.status === "unchanged" && <span className="muted">No change</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length > PREVIEW_ROWS_SHOWN && (
        <p className="hint">
          The first {PREVIEW_ROWS_SHOWN} of {rows.length} rows are shown, problems first.
        </p>
      )}
    </div>
  );
}
