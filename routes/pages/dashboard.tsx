import type { Context } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { keptMarkup, renderPage } from "../render_page.tsx";
import { type Dashboard, DASHBOARD_LIST_SIZE, readDashboard } from "../../src/quotes/dashboard.ts";
import type { QuoteSummary } from "../../src/quotes/views.ts";
import { statusText } from "../../src/quotes/rules.ts";
import { formatDecimal } from "../../src/money/amounts.ts";
import { shortId } from "../../src/clients/views.ts";
import { Badge } from "../../components/Badge.tsx";
import { QUOTE_STATUS_VARIANTS } from "../../components/quote_status.ts";
import {
  type DashboardJob,
  type OrdersDashboard,
  readOrdersDashboard,
} from "../../src/orders/orders_dashboard.ts";
import { reportScope, storeWords } from "../../src/reports/report_stores.ts";
import type { StoreListing } from "../../src/stores/store_listing.ts";
import { StoreSelect } from "../../components/StoreSelect.tsx";

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });
const quoteNumber = (q: QuoteSummary) => q.quoteNumber || shortId(q.id);

function ClockIcon() {
  return (
    <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" className="icon">
      <circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <path d="M8 4.5V8l2.5 1.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
    </svg>
  );
}

function StatusBadge({ status }: { status: QuoteSummary["status"] }) {
  // The dashboard's own rule: lower-case text, and pending measurements as a
  // secondary badge with a clock.
  if (status === "PENDING_MEASUREMENTS") {
    return (
      <Badge variant="secondary">
        <ClockIcon />
        {statusText(status)}
      </Badge>
    );
  }
  return <Badge variant={QUOTE_STATUS_VARIANTS[status]}>{statusText(status)}</Badge>;
}

/**
 * The staff dashboard: counts and the two quote lists, all rendered on the
 * server. In a chain of more than one store, the current store's, or the one
 * picked in its store select (`?store=`, "All stores" for those allowed).
 */
export async function renderDashboard(c: Context<AppEnv>, manifest: AssetManifest) {
  const { storeId, listing } = await reportScope(c, c.req.query("store"), { page: true });
  // One round trip for the counts and both lists, kept while nothing they show changes,
  // and one for the orders panel.
  const [dashboard, orders] = await Promise.all([
    readDashboard(c.var.db, storeId),
    readOrdersDashboard(c.var.db, c.var.clock(), storeId),
  ]);
  // A chain's dashboard also shows the user's store select: its markup is kept
  // per pair of reads and per select (its stores, the one shown, "All stores").
  if (listing) {
    const variant = variantOf(pairOf(dashboard, orders), JSON.stringify(listing));
    return renderPage(
      c,
      manifest,
      keptMarkup(variant, () => dashboardContent(dashboard, orders, listing)),
      { title: "Staff Dashboard" },
    );
  }
  // Rendered once per pair of kept reads: the content shows nothing but what they hold.
  return renderPage(
    c,
    manifest,
    keptMarkup(pairOf(dashboard, orders), () => dashboardContent(dashboard, orders)),
    { title: "Staff Dashboard" },
  );
}

/** The store select of a chain's dashboard: a GET form, no script needed. */
function StoreForm({ listing }: { listing: StoreListing }) {
  return (
    <form method="get" action="/dashboard" className="dash-store-form" aria-label="Store shown">
      <StoreSelect id="dashboard-store" listing={listing} />
      <button type="submit" className="btn btn-outline">Show</button>
    </form>
  );
}

/** The lists' links keep the store the dashboard shows. */
const withStore = (href: string, listing?: StoreListing) =>
  listing ? `${href}${href.includes("?") ? "&" : "?"}store=${listing.selected}` : href;

const pairs = new WeakMap<object, WeakMap<object, object>>();
/** One object per pair of kept reads, so their markup is kept as long as both are. */
function pairOf(a: object, b: object): object {
  let inner = pairs.get(a);
  if (!inner) pairs.set(a, inner = new WeakMap());
  let pair = inner.get(b);
  if (!pair) inner.set(b, pair = {});
  return pair;
}

const variants = new WeakMap<object, Map<string, object>>();
/** One object per pair and store select; a pair keeps a few (the stores, "All stores"). */
function variantOf(pair: object, key: string): object {
  let inner = variants.get(pair);
  if (!inner) variants.set(pair, inner = new Map());
  let variant = inner.get(key);
  if (!variant) {
    // The oldest goes past 32: a chain of twenty stores, each with "All stores" too, fits.
    if (inner.size >= 32) inner.delete(inner.keys().next().value!);
    inner.set(key, variant = {});
  }
  return variant;
}

function JobList(
  { title, id, jobs, count, empty, more, dayLabel }: {
    title: string;
    id: string;
    jobs: DashboardJob[];
    count: number;
    empty: string;
    more: string;
    dayLabel: string;
  },
) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>
        {title} <span className="muted" data-testid={`${id}-count`}>{`(${count})`}</span>
      </h2>
      {jobs.length === 0 ? <p className="empty-inline">{empty}</p> : (
        <>
          <ul className="quote-list">
            {jobs.map((j) => (
              <li key={j.jobId}>
                <a href={`/orders/${j.orderId}`} className="quote-row">
                  <span className="quote-row-main">
                    <span className="quote-client">{j.clientName}</span>
                    <span className="muted quote-number">{j.jobNumber}</span>
                  </span>
                  <span className="muted quote-date">
                    {dayLabel} {dayFormat.format(new Date(`${j.day}T00:00:00Z`))}
                  </span>
                </a>
              </li>
            ))}
          </ul>
          {count > jobs.length && (
            <a className="btn btn-outline btn-block" href={more}>View All {count}</a>
          )}
        </>
      )}
    </section>
  );
}

const dayFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

function OrdersPanel({ orders, listing }: { orders: OrdersDashboard; listing?: StoreListing }) {
  return (
    <div className="dash-grid dash-orders">
      <JobList
        title="Late Jobs"
        id="late-jobs"
        jobs={orders.late.jobs}
        count={orders.late.count}
        empty="No late jobs."
        more={withStore("/orders?late=1", listing)}
        dayLabel="promised"
      />
      <JobList
        title={`Ready, Waiting Over ${orders.waiting.days} Days`}
        id="waiting-jobs"
        jobs={orders.waiting.jobs}
        count={orders.waiting.count}
        empty="No glasses waiting too long."
        more={withStore("/orders?waiting=1", listing)}
        dayLabel="ready since"
      />
      <JobList
        title="Picked Up Today"
        id="pickups-today"
        jobs={orders.pickups.jobs}
        count={orders.pickups.count}
        empty="No pickups yet today."
        more={withStore("/orders?status=PICKED_UP", listing)}
        dayLabel="on"
      />
    </div>
  );
}

function dashboardContent(
  { stats, recent, expired, expiredCount, acceptedOnline }: Dashboard,
  orders: OrdersDashboard,
  listing?: StoreListing,
) {
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Staff Dashboard</h1>
          <p className="muted">
            {listing
              ? `Manage clients, quotes, and measurements${storeWords(listing)}.`
              : "Manage clients, quotes, and measurements."}
          </p>
          {listing && <StoreForm listing={listing} />}
        </div>
        <div className="actions">
          <a className="btn btn-primary" href="/intake">New Client Intake</a>
          <a className="btn btn-outline" href="/clients">Create Quote</a>
        </div>
      </div>
      <div className="stat-grid">
        <a className="card stat-card" href="/clients">
          <span className="stat-label">Active Quotes</span>
          <span className="stat-value" data-testid="active-quotes">{stats.activeQuotes}</span>
        </a>
        <div className="card stat-card">
          <span className="stat-label">New Clients Today</span>
          <span className="stat-value" data-testid="new-clients">{stats.newClients}</span>
        </div>
      </div>
      <div className="dash-grid">
        <section className="card" aria-labelledby="recent-title">
          <h2 id="recent-title">Recent Quotes</h2>
          {recent.length === 0
            ? <p className="empty-inline">No recent quotes</p>
            : (
              <ul className="quote-list">
                {recent.map((q) => (
                  <li key={q.id}>
                    <a href={`/quote/${q.id}`} className="quote-row">
                      <span className="quote-row-main">
                        <span className="quote-client">{q.clientName}</span>
                        <span className="muted quote-number">
                          {quoteNumber(q)}
                          {q.opticianName.trim() && (
                            <span className="quote-optician">{` · ${q.opticianName}`}</span>
                          )}
                          {` · ${dateFormat.format(new Date(q.createdAt))}`}
                        </span>
                      </span>
                      <span className="quote-row-side">
                        <StatusBadge status={q.status} />
                        <span className="quote-total">{formatDecimal(q.total)}</span>
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            )}
        </section>
        <section className="card" aria-labelledby="expired-title">
          <h2 id="expired-title">Expired Quotes - Follow Up Needed</h2>
          {expired.length === 0
            ? (
              <div className="empty-inline">
                <p>No expired quotes</p>
                <p className="muted">Great! All quotes are current.</p>
              </div>
            )
            : (
              <>
                <ul className="quote-list">
                  {expired.slice(0, DASHBOARD_LIST_SIZE).map((q) => (
                    <li key={q.id}>
                      <a href={`/quote/${q.id}`} className="quote-row">
                        <span className="quote-row-main">
                          <span className="quote-client">{q.clientName}</span>
                          <span className="muted quote-number">
                            {quoteNumber(q)}
                            {q.expiresAt && (
                              <span className="quote-date">
                                {` · expired ${dateFormat.format(new Date(q.expiresAt))}`}
                              </span>
                            )}
                          </span>
                        </span>
                        <span className="quote-row-side">
                          <Badge variant="destructive">Expired</Badge>
                          <span className="quote-total">{formatDecimal(q.total)}</span>
                        </span>
                      </a>
                    </li>
                  ))}
                </ul>
                {expiredCount > DASHBOARD_LIST_SIZE && (
                  <a
                    className="btn btn-outline btn-block"
                    href={withStore("/quotes?filter=expired", listing)}
                  >
                    View All {expiredCount} Expired Quotes
                  </a>
                )}
              </>
            )}
        </section>
        <section className="card" aria-labelledby="accepted-online-title">
          <h2 id="accepted-online-title">Accepted Online</h2>
          {acceptedOnline.length === 0
            ? <p className="empty-inline">No quotes accepted online yet</p>
            : (
              <ul className="quote-list" data-testid="accepted-online">
                {acceptedOnline.map((q) => (
                  <li key={q.id}>
                    <a href={`/quote/${q.id}`} className="quote-row">
                      <span className="quote-row-main">
                        <span className="quote-client">{q.clientName}</span>
                        <span className="muted quote-number">
                          {`${q.quoteNumber} · signed by ${q.signerName}`}
                        </span>
                      </span>
                      <span className="muted quote-date">
                        {dateFormat.format(new Date(q.acceptedAt))}
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            )}
        </section>
      </div>
      <OrdersPanel orders={orders} listing={listing} />
    </>
  );
}
