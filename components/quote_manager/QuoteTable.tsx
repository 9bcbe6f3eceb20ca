import type { QuoteListRow } from "../../src/quotes/views.ts";
import { Badge } from "../Badge.tsx";
import { QUOTE_STATUS_VARIANTS } from "../quote_status.ts";
import { QUOTE_STATUS_LABELS } from "../../src/quotes/status_labels.ts";
import { DateText } from "../client_manager/format.tsx";
import { expiryTone } from "./queries.ts";
import { closeBlocker } from "../../src/quotes/rules.ts";
import { ColumnHeads } from "../ColumnHeads.tsx";
import { RowMenu } from "../RowMenu.tsx";
import { storeCodeOf } from "../StoreSelect.tsx";
import type { StoreListing } from "../../src/stores/store_listing.ts";

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
  { rows, emailConfigured, busy, actions, stores }: {
    rows: QuoteListRow[];
    emailConfigured: boolean;
    busy?: boolean;
    /** A chain of several stores: a Store column. */
    stores?: StoreListing;
    actions: RowActions;
  },
) {
  return (
    // One row a quote at every width (static/css/quote_manager.css), so the
    // table never scrolls sideways and its box need not either: a row's menu
    // can then open past the table's edge instead of being cut by it.
    <div className="data-table-wrap quote-table-wrap" role="region" aria-label="Quotes table">
      <table
        className="data-table data-table-actions quote-table"
        aria-busy={busy ? true : undefined}
      >
        <ColumnHeads
          columns={[
            "Quote #",
            ...(stores ? ["Store"] : []),
            "Client",
            "Optician",
            "Status",
            "Created",
            "Expires",
            {
              label: "Actions",
              className: "quote-actions-head",
            },
          ]}
        />
        <tbody>
          {rows.map((row) => (
            <QuoteTableRow
              key={row.id}
              row={row}
              emailConfigured={emailConfigured}
              actions={actions}
              storeCode={stores ? storeCodeOf(stores, row.storeId) : undefined}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function QuoteTableRow(
  { row, emailConfigured, actions, storeCode }: {
    row: QuoteListRow;
    emailConfigured: boolean;
    actions: RowActions;
    storeCode?: string;
  },
) {
  const id = encodeURIComponent(row.id);
  const label = quoteLabel(row);
  const closed = row.status === "CLOSED";
  const emailBlocked = !emailConfigured ? EMAIL_NOT_CONFIGURED : closed ? EMAIL_CLOSED : null;
  const print = `/print/${id}`;
  const printExternal = `/print/${id}?external=true`;
  const email = (className: string, role?: "menuitem") => (
    <button
      type="button"
      role={role}
      className={className}
      disabled={!!emailBlocked}
      title={emailBlocked ?? undefined}
      onClick={() => actions.onEmail(row)}
    >
      Email
    </button>
  );
  // Each cell's class places it in the narrow screens' two-line row.
  return (
    <tr data-quote-id={row.id}>
      <td className="quote-cell-number">
        <a className="link quote-number" href={`/quote/${id}`}>{label}</a>
        {/* Narrow screens' two-line row has no Store column: the code rides with the number. */}
        {storeCode && <span className="store-tag store-tag-narrow">{storeCode}</span>}
      </td>
      {storeCode && <td className="quote-cell-store">{storeCode}</td>}
      <td className="quote-name quote-cell-client">
        <a className="link quote-clamp" href={`/clients?id=${encodeURIComponent(row.clientId)}`}>
          {row.clientName}
        </a>
      </td>
      <td className="quote-name quote-cell-optician">
        {row.opticianName.trim()
          ? <span className="quote-clamp">{row.opticianName}</span>
          : <span className="muted">—</span>}
      </td>
      <td className="quote-cell-status">
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
      <td className="quote-date quote-cell-created">
        <DateText iso={row.createdAt} />
      </td>
      <td className="quote-date quote-cell-expires">
        <ExpiryText iso={row.expiresAt} />
      </td>
      <td className="quote-cell-actions">
        {
          /* View, Email and Print on the row where there is room; the rest,
          and those too on narrower screens, in the row's menu. An item
          shown at some widths only is in the markup once per place; CSS
          shows one (display: none hides the other from everyone). */
        }
        <div className="quote-row-actions" aria-label={`Actions for quote ${label}`} role="group">
          <a className="btn btn-outline btn-sm quote-act-view" href={`/quote/${id}`}>View</a>
          {/* A disabled button shows no tooltip in every browser; the wrapper carries it too. */}
          <span title={emailBlocked ?? undefined} className="quote-action-wrap quote-act-wide">
            {email("btn btn-outline btn-sm")}
          </span>
          <a
            className="btn btn-outline btn-sm quote-act-wide"
            href={print}
            target="_blank"
            rel="noopener"
          >
            Print
          </a>
          <RowMenu name={`More actions for quote ${label}`}>
            <a role="menuitem" className="menu-item quote-menu-view" href={`/quote/${id}`}>
              View
            </a>
            {email("menu-item quote-menu-wide", "menuitem")}
            <a
              role="menuitem"
              className="menu-item quote-menu-wide"
              href={print}
              target="_blank"
              rel="noopener"
            >
              Print
            </a>
            <a
              role="menuitem"
              className="menu-item"
              href={printExternal}
              target="_blank"
              rel="noopener"
            >
              Print External
            </a>
            {closeBlocker(row.status) === null && (
              <button
                type="button"
                role="menuitem"
                className="menu-item"
                onClick={() => actions.onClose(row)}
              >
                Close
              </button>
            )}
            <button
              type="button"
              role="menuitem"
              className="menu-item menu-item-danger"
              onClick={() => actions.onDelete(row)}
            >
              Delete
            </button>
          </RowMenu>
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
