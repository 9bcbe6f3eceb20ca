import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { renderUnauthorized } from "./unauthorized.tsx";
import {
  AUDIT_CHAIN,
  type AuditPage,
  listAuditPage,
  listAuditStores,
  listAuditUsers,
} from "../../src/audit/audit_log.ts";
import { toAuditQuery } from "../../src/audit/audit_query.ts";
import { AUDIT_KIND_LABELS, AUDIT_KINDS } from "../../src/audit/kinds.ts";
import { type AuditQueryInput, auditQuerySchema } from "../../src/schemas/audit.ts";
import { formErrors } from "../../src/schemas/form_errors.ts";
import type { HistoryEntry } from "../../src/audit/describe.ts";
import { HistoryChanges, When } from "../../components/history/HistoryChanges.tsx";
import { ColumnHeads } from "../../components/ColumnHeads.tsx";
import { FilterSelect } from "../../components/FilterSelect.tsx";

export const UNAUTHORIZED_AUDIT_TEXT = "Unauthorized – Owner access required. Redirecting...";

/** Where an entry's record lives, when it has a screen of its own. */
function recordLink(entry: HistoryEntry) {
  if (!entry.entityId) return null;
  if (entry.entityType === "client") return `/clients?id=${encodeURIComponent(entry.entityId)}`;
  if (entry.entityType === "quote") return `/quote/${encodeURIComponent(entry.entityId)}`;
  return null;
}

/** The page's own link with the filters kept and the paging replaced. */
function pageHref(filters: AuditQueryInput, paging: { before?: string; after?: string }) {
  const params = new URLSearchParams();
  for (const key of ["user", "store", "kind", "from", "to"] as const) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  if (paging.before) params.set("before", paging.before);
  if (paging.after) params.set("after", paging.after);
  const query = params.toString();
  return query ? `/admin/audit?${query}` : "/admin/audit";
}

/**
 * The log's entries. `storeCodes` (a chain of more than one store) adds the
 * Store column: the code of the store an entry concerns, "Chain" for the
 * chain's own records (clients, catalog, users, sign-ins).
 */
function AuditTable(
  { page, storeCodes }: { page: AuditPage; storeCodes: Map<string, string> | null },
) {
  if (page.entries.length === 0) {
    return <p className="empty-inline">No entries match these filters.</p>;
  }
  const columns = storeCodes
    ? ["When", "Who", "Store", "What", "Record"]
    : ["When", "Who", "What", "Record"];
  return (
    <div className="data-table-wrap" tabIndex={0} aria-labelledby="audit-table-caption">
      <table className="data-table audit-table">
        <caption id="audit-table-caption" className="sr-only">Audit log entries</caption>
        <ColumnHeads columns={columns} />
        <tbody>
          {page.entries.map((entry) => {
            const href = recordLink(entry);
            return (
              <tr key={entry.id}>
                <td className="nowrap">
                  <When iso={entry.at} />
                </td>
                <td>{entry.actor}</td>
                {storeCodes && (
                  <td data-testid="audit-store">
                    {entry.storeId
                      ? storeCodes.get(entry.storeId) ?? "?"
                      : <span className="muted">Chain</span>}
                  </td>
                )}
                <td>
                  <span className="history-summary">{entry.summary}</span>
                  <HistoryChanges changes={entry.changes} />
                </td>
                <td>
                  {href
                    ? (
                      <a
                        className="link"
                        href={href}
                        aria-label={`Open ${entry.entityType} ${entry.entityId!.slice(-8)}`}
                      >
                        {`Open ${entry.entityType}`}
                      </a>
                    )
                    : <span className="muted">{entry.entityType}</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function adminAuditPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  // A form that reloads the page: filters and paging work without JavaScript.
  app.get("/admin/audit", async (c) => {
    const user = c.var.user!;
    if (user.role !== "OWNER") {
      return renderUnauthorized(c, manifest, UNAUTHORIZED_AUDIT_TEXT, "Audit Log");
    }
    const db = c.var.db;
    const parsed = auditQuerySchema.safeParse(c.req.query());
    const filters: AuditQueryInput = parsed.success
      ? parsed.data
      : { from: undefined, to: undefined };
    const errors = parsed.success ? {} : formErrors(parsed.error);
    const [page, users, stores] = await Promise.all([
      listAuditPage(db, toAuditQuery(filters)),
      listAuditUsers(db),
      listAuditStores(db),
    ]);
    // A one-store chain's log reads as it always did: no Store column, no store filter.
    const storeCodes = stores.length > 1 ? new Map(stores.map((s) => [s.id, s.code])) : null;
    const raw = c.req.query();
    return renderPage(
      c,
      manifest,
      <div className="audit-page">
        <div className="page-head">
          <div>
            <h1>Audit Log</h1>
            <p className="muted">Who changed what and when, newest first.</p>
          </div>
          <a className="btn btn-outline" href="/admin">Back to Admin</a>
        </div>
        <form method="get" action="/admin/audit" className="card filter-bar" role="search">
          <FilterSelect
            id="audit-user"
            label="User"
            name="user"
            value={raw.user}
            anyLabel="All users"
            choices={users.map((u) => ({
              value: u.id,
              label: u.firstName || u.lastName
                ? `${u.username} (${`${u.firstName} ${u.lastName}`.trim()})`
                : u.username,
            }))}
          />
          {storeCodes && (
            <FilterSelect
              id="audit-store"
              label="Store"
              name="store"
              value={raw.store}
              anyLabel="All stores"
              choices={[
                ...stores.map((s) => ({
                  value: s.id,
                  // As the lists' store select names a store: "Downtown (DT)".
                  label: `${s.name ? `${s.name} (${s.code})` : s.code}${
                    s.active ? "" : ", inactive"
                  }`,
                })),
                { value: AUDIT_CHAIN, label: "Chain (no one store)" },
              ]}
            />
          )}
          <FilterSelect
            id="audit-kind"
            label="Kind"
            name="kind"
            value={raw.kind}
            anyLabel="All kinds"
            choices={AUDIT_KINDS.map((k) => ({ value: k, label: AUDIT_KIND_LABELS[k] }))}
          />
          <div className="field">
            <label htmlFor="audit-from">From</label>
            <input id="audit-from" type="date" name="from" defaultValue={raw.from ?? ""} />
          </div>
          <div className="field">
            <label htmlFor="audit-to">To</label>
            <input
              id="audit-to"
              type="date"
              name="to"
              defaultValue={raw.to ?? ""}
              aria-invalid={errors.to ? true : undefined}
              aria-describedby={errors.to ? "audit-to-error" : undefined}
            />
            {errors.to && <p id="audit-to-error" className="field-error">{errors.to}</p>}
          </div>
          <div className="filter-actions">
            <button type="submit" className="btn btn-primary">Apply Filters</button>
            <a className="btn btn-ghost" href="/admin/audit">Clear</a>
          </div>
        </form>
        {!parsed.success && (
          <p className="notice notice-warning" role="alert">
            {Object.values(errors)[0]} Showing every entry instead.
          </p>
        )}
        <AuditTable page={page} storeCodes={storeCodes} />
        <nav className="pager" aria-label="Audit log pages">
          {page.newer
            ? (
              <>
                <a className="btn btn-outline btn-sm" href={pageHref(filters, {})}>Newest</a>
                <a
                  className="btn btn-outline btn-sm"
                  href={pageHref(filters, { after: page.newer })}
                >
                  ← Newer
                </a>
              </>
            )
            : null}
          {page.older && (
            <a className="btn btn-outline btn-sm" href={pageHref(filters, { before: page.older })}>
              Older →
            </a>
          )}
        </nav>
      </div>,
      { title: "Audit Log" },
    );
  });

  return app;
}
