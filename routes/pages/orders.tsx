import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { pageListedStoreId, userStoresOf } from "../../src/stores/current_store.ts";
import { type StoreListing, storeListingOf } from "../../src/stores/store_listing.ts";
import { storeCodeOf, StoreSelect } from "../../components/StoreSelect.tsx";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { Island } from "../../components/Island.tsx";
import { Badge } from "../../components/Badge.tsx";
import { FilterSelect } from "../../components/FilterSelect.tsx";
import { CalendarDate } from "../../components/client_manager/format.tsx";
import { JOB_STATUS_VARIANTS } from "../../components/orders/job_status.ts";
import OrderPage, { type OrderPageProps } from "../../islands/OrderPage.tsx";
import { listOrders, ORDER_PAGE_SIZE, readOrder } from "../../src/orders/order_read.ts";
import { listLabs } from "../../src/orders/labs.ts";
import { isForLab, JOB_STATUS_LABELS, JOB_STATUSES } from "../../src/orders/rules.ts";
import { type OrderListQuery, orderListQuery } from "../../src/schemas/order.ts";
import { formErrors } from "../../src/schemas/form_errors.ts";
import { formatDecimal } from "../../src/money/amounts.ts";
import type { OrderListRow } from "../../src/orders/views.ts";
import { renderNotFound } from "./not_found.tsx";
import { findBranding } from "../../src/settings/settings.ts";
import {
  type Paper,
  workOrderChoiceOf,
  workOrderJobs,
  workOrderSheet,
} from "../../src/orders/work_order.ts";
import { WorkOrderSheets } from "../../components/orders/WorkOrderSheets.tsx";
import PrintControls from "../../islands/PrintControls.tsx";
import { ReceiptSheet } from "../../components/orders/ReceiptSheet.tsx";
import { renderUnauthorized } from "./unauthorized.tsx";
import { UNAUTHORIZED_SETTINGS_TEXT } from "./admin_settings.tsx";
import { isAdminRole } from "../../components/StaffNav.tsx";
import LabsAdmin, { type LabsAdminProps } from "../../islands/LabsAdmin.tsx";
import { ColumnHeads } from "../../components/ColumnHeads.tsx";
import type { ReactNode } from "react";
import { Checkbox } from "../../components/Checkbox.tsx";

/** The list's own link with the filters kept and the page replaced. */
function pageHref(raw: Record<string, string>, page: number) {
  const params = new URLSearchParams();
  for (const key of ["q", "status", "late", "waiting", "labId", "optician", "store"]) {
    if (raw[key]) params.set(key, raw[key]);
  }
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/orders?${query}` : "/orders";
}

/** The jobs, a row each; on a phone each row is a card (its cells' classes place them). */
function OrdersTable({ rows, stores }: { rows: OrderListRow[]; stores?: StoreListing }) {
  return (
    <div className="data-table-wrap" tabIndex={0} aria-labelledby="orders-caption">
      <table className="data-table data-table-roomy orders-table">
        <caption id="orders-caption" className="sr-only">Jobs</caption>
        <ColumnHeads
          columns={[
            "Job",
            ...(stores ? ["Store"] : []),
            "Client",
            "Lab",
            "Optician",
            "Status",
            "Promised",
            { label: "Total", className: "num" },
          ]}
        />
        <tbody>
          {rows.map((r) => (
            <tr key={r.jobId}>
              <td className="orders-cell-job">
                <a className="link job-number" href={`/orders/${r.orderId}`}>{r.jobNumber}</a>
              </td>
              {stores && (
                <td className="orders-cell-store nowrap">
                  <StoreCell stores={stores} row={r} />
                </td>
              )}
              <td className="orders-cell-client">{r.clientName}</td>
              <td className="orders-cell-lab">{r.labName}</td>
              <td className="orders-cell-optician">
                {r.opticianName || <span className="muted">—</span>}
              </td>
              <td className="orders-cell-status">
                <Badge variant={JOB_STATUS_VARIANTS[r.status]}>
                  {JOB_STATUS_LABELS[r.status]}
                </Badge>
                {r.isLate && (
                  <>
                    {" "}
                    <Badge variant="destructive">Late</Badge>
                  </>
                )}
              </td>
              <td className="nowrap orders-cell-promised">
                <CalendarDate value={r.promisedDate} />
              </td>
              <td className="num orders-cell-total">{formatDecimal(r.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The order's store, and "→ B" when its glasses are picked up at another store. */
function StoreCell({ stores, row }: { stores: StoreListing; row: OrderListRow }) {
  const store = storeCodeOf(stores, row.storeId);
  if (row.pickupStoreId === row.storeId) return <>{store}</>;
  const pickup = storeCodeOf(stores, row.pickupStoreId);
  return (
    <span title={`Ordered at ${store}, picked up at ${pickup}`}>
      {store} → {pickup}
    </span>
  );
}

/** A printable page of an order: its title, the print controls, Back to Order, and the sheets. */
function OrderPrint(
  { title, subtitle, label, orderId, controls, children }: {
    title: string;
    subtitle: string;
    label: string;
    orderId: string;
    controls?: ReactNode;
    children: ReactNode;
  },
) {
  return (
    <div className="print-view">
      <div className="print-controls">
        <div className="print-controls-text">
          <h1 className="print-controls-title">{title}</h1>
          <p className="muted">{subtitle}</p>
        </div>
        {controls}
        <Island name="PrintControls" component={PrintControls} props={{ initialCopy: "client" }} />
        <a className="btn btn-outline" href={`/orders/${orderId}`}>Back to Order</a>
      </div>
      <div className="print-stage">
        <section className="print-copy" aria-label={label}>{children}</section>
      </div>
    </div>
  );
}

export function ordersPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  // A GET form: filters, search and paging work without JavaScript.
  app.get("/orders", async (c) => {
    const db = c.var.db;
    const raw = c.req.query();
    const parsed = orderListQuery.safeParse(raw);
    const query: OrderListQuery = parsed.success
      ? parsed.data
      : { late: false, waiting: false, page: 1 };
    const errors = parsed.success ? {} : formErrors(parsed.error);
    const storeId = await pageListedStoreId(
      c,
      typeof raw.store === "string" ? raw.store : undefined,
    );
    const [{ rows, total }, labs, opticians, stores] = await Promise.all([
      listOrders(db, { ...query, storeId }, c.var.clock()),
      listLabs(db),
      db.selectFrom("orders").select("opticianName").distinct()
        .where("opticianName", "<>", "").orderBy("opticianName").limit(200).execute(),
      storeListingOf(c, storeId),
    ]);
    const pages = Math.max(1, Math.ceil(total / ORDER_PAGE_SIZE));
    return renderPage(
      c,
      manifest,
      <div className="orders-page">
        <div className="page-head">
          <div>
            <h1>Orders</h1>
            <p className="muted">Every job from order to pickup, newest first.</p>
          </div>
        </div>
        <form method="get" action="/orders" className="card filter-bar" role="search">
          <div className="field">
            <label htmlFor="orders-q">Search</label>
            <input
              id="orders-q"
              name="q"
              type="search"
              placeholder="Job number or client name"
              defaultValue={raw.q ?? ""}
              maxLength={100}
            />
          </div>
          <FilterSelect
            id="orders-status"
            label="Status"
            name="status"
            value={raw.status}
            anyLabel="All statuses"
            choices={JOB_STATUSES.map((s) => ({ value: s, label: JOB_STATUS_LABELS[s] }))}
          />
          <FilterSelect
            id="orders-lab"
            label="Lab"
            name="labId"
            value={raw.labId}
            anyLabel="All labs"
            choices={labs.map((l) => ({ value: l.id, label: l.name }))}
          />
          <FilterSelect
            id="orders-optician"
            label="Optician"
            name="optician"
            value={raw.optician}
            anyLabel="All opticians"
            choices={opticians.map((o) => ({ value: o.opticianName, label: o.opticianName }))}
          />
          {stores && <StoreSelect id="orders-store" listing={stores} />}
          <Checkbox label="Late" name="late" value="1" defaultChecked={raw.late === "1"} />
          <Checkbox
            label="Ready and waiting"
            name="waiting"
            value="1"
            defaultChecked={raw.waiting === "1"}
          />
          <div className="filter-actions">
            <button type="submit" className="btn btn-primary">Filter</button>
            <a className="btn btn-outline" href="/orders">Clear</a>
          </div>
        </form>
        {Object.keys(errors).length > 0 && (
          <p className="notice notice-warning" role="alert">
            {Object.values(errors).join(" ")}
          </p>
        )}
        <p className="muted" role="status" data-testid="orders-count">
          {total === 1 ? "1 job" : `${total} jobs`}
        </p>
        {rows.length === 0
          ? (
            <p className="empty-inline">
              No jobs match. Orders are made from a finalized quote's builder (Create Order).
            </p>
          )
          : <OrdersTable rows={rows} stores={stores} />}
        {pages > 1 && (
          <nav className="pager" aria-label="Pages">
            {query.page > 1 && (
              <a className="btn btn-outline btn-sm" href={pageHref(raw, query.page - 1)}>
                Previous
              </a>
            )}
            <span className="muted">Page {query.page} of {pages}</span>
            {query.page < pages && (
              <a className="btn btn-outline btn-sm" href={pageHref(raw, query.page + 1)}>Next</a>
            )}
          </nav>
        )}
      </div>,
      { title: "Orders" },
    );
  });

  app.get("/orders/:id", async (c) => {
    const user = c.var.user!;
    const bundle = await readOrder(c.var.db, c.req.param("id"), user.role, c.var.clock());
    if (!bundle) return renderNotFound(c, manifest);
    const stores = await storeListingOf(c, undefined);
    const workIn = stores && (await userStoresOf(c, user)).map((s) => s.id);
    const props: OrderPageProps = { bundle, role: user.role, stores, workIn };
    return renderPage(
      c,
      manifest,
      <Island name="OrderPage" component={OrderPage} props={props} />,
      { title: `Order · ${bundle.client.firstName} ${bundle.client.lastName}` },
    );
  });

  // The lab's work order: one sheet per job the lab must make (or the one asked
  // for, or every job with those not to make marked), A4 or Letter.
  app.get("/orders/:id/work-order", async (c) => {
    const db = c.var.db;
    const bundle = await readOrder(db, c.req.param("id"), c.var.user!.role, c.var.clock());
    if (!bundle) return renderNotFound(c, manifest);
    const branding = await findBranding(db, bundle.order.storeId);
    const paper: Paper = c.req.query("paper") === "a4" ? "a4" : "letter";
    const choice = workOrderChoiceOf(c.req.query());
    const jobs = workOrderJobs(bundle.jobs, choice);
    if (jobs.length === 0 && choice.jobIds) return renderNotFound(c, manifest);
    const sheets = jobs.map((j) => workOrderSheet(j, bundle, branding));
    const notForLab = bundle.jobs.filter((j) => !isForLab(j.status)).length;
    const here = (p: Paper, all = !!choice.all) => {
      const params = new URLSearchParams({ paper: p });
      if (choice.jobIds) params.set("job", choice.jobIds[0]);
      else if (all) params.set("all", "1");
      return `/orders/${bundle.order.id}/work-order?${params}`;
    };
    const numbers = sheets.map((s) => s.jobNumber).join(", ");
    return renderPage(
      c,
      manifest,
      <OrderPrint
        title="Work Order"
        subtitle={`${numbers || "No job"} · ${bundle.client.firstName} ${bundle.client.lastName}`}
        label="Work order"
        orderId={bundle.order.id}
        controls={
          <>
            <nav className="print-toggle" aria-label="Paper size">
              <a
                className="btn btn-outline"
                href={here("letter")}
                aria-current={paper === "letter" ? "page" : undefined}
              >
                Letter
              </a>
              <a
                className="btn btn-outline"
                href={here("a4")}
                aria-current={paper === "a4" ? "page" : undefined}
              >
                A4
              </a>
            </nav>
            {!choice.jobIds && notForLab > 0 && (
              <nav className="print-toggle" aria-label="Jobs to print">
                <a
                  className="btn btn-outline"
                  href={here(paper, false)}
                  aria-current={choice.all ? undefined : "page"}
                >
                  Jobs for the lab
                </a>
                <a
                  className="btn btn-outline"
                  href={here(paper, true)}
                  aria-current={choice.all ? "page" : undefined}
                >
                  All jobs, {notForLab} marked not to make
                </a>
              </nav>
            )}
          </>
        }
      >
        {sheets.length > 0
          ? <WorkOrderSheets sheets={sheets} paper={paper} />
          : (
            <p className="notice notice-warning work-order-none" role="status">
              No job of this order is for the lab: every one is cancelled or picked up. Choose "All
              jobs" to print them marked not to make.
            </p>
          )}
      </OrderPrint>,
      { title: `Work Order ${numbers}`.trim(), bodyClass: "print-page" },
    );
  });

  // The receipt: one Letter page with the jobs, payments and balance.
  app.get("/orders/:id/receipt", async (c) => {
    const db = c.var.db;
    const bundle = await readOrder(db, c.req.param("id"), c.var.user!.role, c.var.clock());
    if (!bundle) return renderNotFound(c, manifest);
    const branding = await findBranding(db, bundle.order.storeId);
    return renderPage(
      c,
      manifest,
      <OrderPrint
        title="Receipt"
        subtitle={`${bundle.client.firstName} ${bundle.client.lastName}`}
        label="Receipt"
        orderId={bundle.order.id}
      >
        <ReceiptSheet bundle={bundle} branding={branding} />
      </OrderPrint>,
      { title: "Receipt", bodyClass: "print-page" },
    );
  });

  app.get("/admin/labs", async (c) => {
    if (!isAdminRole(c.var.user!.role)) {
      return renderUnauthorized(c, manifest, UNAUTHORIZED_SETTINGS_TEXT, "Labs");
    }
    const props: LabsAdminProps = { labs: await listLabs(c.var.db) };
    return renderPage(
      c,
      manifest,
      <Island name="LabsAdmin" component={LabsAdmin} props={props} />,
      { title: "Labs" },
    );
  });

  return app;
}
