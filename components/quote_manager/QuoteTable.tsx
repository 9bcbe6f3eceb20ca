import type { QuoteListRow } from "../../src/quotes/views.ts";
import { Badge } from "../Badge.tsx";
import { QUOTE_STATUS_VARIANTS } from "../quote_status.ts";
import { QUOTE_STATUS_LABELS } from "../../src/quotes/status_labels.ts";
import { DateText } from "../client_manager/format.tsx";
import { expiryTone } from "./queries.ts";
import { closeBlocker } from "../../src/quotes/rules.ts";
import { ColumnHeads } from "../ColumnHeads.tsx";

export const EMAIL_NOT_CONFIGURED =
  "Email is not configured. Quote emailing is disabled until email settings are configured.";
const EMAIL_CLOSED = "This quote is closed and cannot be emailed.";

export const quoteLabel = (row: Pick<QuoteListRow, "id" | "quoteNumber">) =>
  row.quoteNumber || row.id.slice(-8);

export interface RowActions {
  onEmail: (row: QuoteListRow) => void;
  onClose: (row: QuoteListRow) => void;
  onDelete: (row: QuoteListRow) => void;
}

export function QuoteTable(
  { rows, emailConfigured, busy, actions }: {
    rows: QuoteListRow[];
    emailConfigured: boolean;
    busy?: boolean;
    actions: RowActions;
  },
) {
  return (
    // The table scrolls inside this box on narrow screens, never the page;
    // focusable so keyboard users can scroll it too.
    <div
      className="data-table-wrap"
      tabIndex={0}
      role="region"
      aria-label="Quotes table"
    >
      <table
        className="data-table data-table-actions data-table-roomy quote-table"
        aria-busy={busy ? true : undefined}
      >
        <ColumnHeads
          columns={["Quote #", "Client", "Optician", "Status", "Created", "Expires", {
            label: "Actions",
            className: "quote-actions-head",
          }]}
        />
        <tbody>
          {rows.map((row) => (
            <QuoteTableRow
              key={row.id}
              row={row}
              emailConfigured={emailConfigured}
              actions={actions}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function QuoteTableRow(
  { row, emailConfigured, actions }: {
    row: QuoteListRow;
    emailConfigured: boolean;
    actions: RowActions;
  },
) {
  const id = encodeURIComponent(row.id);
  const label = quoteLabel(row);
  const closed = row.status === "CLOSED";
  const emailBlocked = !emailConfigured ? EMAIL_NOT_CONFIGURED : closed ? EMAIL_CLOSED : null;
  return (
    <tr data-quote-id={row.id}>
      <td>
        <a className="link quote-number" href={`/quote/${id}`}>{label}</a>
      </td>
      <td className="quote-name">
        <a className="link" href={`/clients?id=${encodeURIComponent(row.clientId)}`}>
          {row.clientName}
        </a>
      </td>
      <td className="quote-name">{row.opticianName.trim() || <span className="muted">—</span>}</td>
      <td>
        <Badge variant={QUOTE_STATUS_VARIANTS[row.status]}>{QUOTE_STATUS_LABELS[row.status]}</Badge>
        {row.clientViewedAt && (
          <span
            className="quote-viewed"
            title={`The client opened the online quote (last ${row.clientViewedAt.slice(0, 10)})`}
          >
            {" "}Viewed
          </span>
        )}
      </td>
      <td className="quote-date">
        <DateText iso={row.createdAt} />
      </td>
      <td className="quote-date">
        <ExpiryText iso={row.expiresAt} />
      </td>
      <td>
        <div className="quote-row-actions" aria-label={`Actions for quote ${label}`} role="group">
          <a className="btn btn-outline btn-sm" href={`/quote/${id}`}>View</a>
          {/* A disabled button shows no tooltip in every browser; the wrapper carries it too. */}
          <span title={emailBlocked ?? undefined} className="quote-action-wrap">
            <button
              type="button"
              className="btn btn-outline btn-sm"
              disabled={!!emailBlocked}
              title={emailBlocked ?? undefined}
              onClick={() => actions.onEmail(row)}
            >
              Email
            </button>
          </span>
          {closeBlocker(row.status) === null && (
            <button
              type="button"
              className="btn btn-outline btn-sm"
              onClick={() => actions.onClose(row)}
            >
              Close
            </button>
          )}
          <a
            className="btn btn-outline btn-sm"
            href={`/print/${id}`}
            target="_blank"
            rel="noopener"
          >
            Print
          </a>
          <a
            className="btn btn-outline btn-sm"
            href={`/print/${id}?external=true`}
            target="_blank"
            rel="noopener"
          >
            Print External
          </a>
          <button
            type="button"
            className="btn btn-sm quote-delete"
            onClick={() => actions.onDelete(row)}
          >
            Delete
          </button>
        </div>
      </td>
    </tr>
  );
}

/** Red once past, amber within a week, plain otherwise; a dash when there is no expiry. */
function ExpiryText({ iso }: { iso: string | null }) {
  if (!iso) return <span className="expiry expiry-none">—</span>;
  const tone = expiryTone(iso);
  return (
    <span
      className={`expiry expiry-${tone}`}
      title={tone === "past" ? "Expired" : tone === "soon" ? "Expires within 7 days" : undefined}
    >
      <DateText iso={iso} />
    </span>
  );
}
