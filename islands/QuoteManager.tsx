import { LoadMoreButton } from "../components/LoadMoreButton.tsx";
import { useEffect, useMemo, useState } from "react";
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import type { QuoteStatus } from "../db/schema.ts";
import type { QuoteListRow } from "../src/quotes/views.ts";
import { apiRequest, errorDetail, isUnauthorized } from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { QUOTE_STATUS_LABELS } from "../src/quotes/status_labels.ts";
import { CloseQuoteDialog, ConfirmDialog } from "../components/quote_builder/dialogs.tsx";
import { EmailQuoteDialog, type EmailRequest } from "../components/quote_builder/email_dialog.tsx";
import {
  fetchQuotePage,
  QUOTE_LISTS_KEY,
  QUOTE_PAGE_SIZE,
  type QuoteListFilter,
  quoteListKey,
} from "../components/quote_manager/queries.ts";
import { quoteLabel, QuoteTable } from "../components/quote_manager/QuoteTable.tsx";
import { ListState } from "../components/ListState.tsx";
import { StoreSelect } from "../components/StoreSelect.tsx";
import type { StoreListing } from "../src/stores/store_listing.ts";

export interface QuoteManagerProps {
  /** `?q=` as the page was asked for. */
  initialQuery: string;
  /** `?status=` or `?filter=expired` as the page was asked for. */
  initialFilter: QuoteListFilter;
  /** The first page for that search and filter, loaded by the server. */
  initialRows: QuoteListRow[];
  /** X-Total-Count for it. */
  initialTotal: number;
  /** X-Total-Count-At-Least for it. */
  initialTotalAtLeast: boolean;
  /** Without mail settings the Email action is off and says why. */
  emailConfigured: boolean;
  /** A chain of several stores: the store listed and each row's store (else undefined). */
  stores?: StoreListing;
}

export const SEARCH_DEBOUNCE_MS = 250;

const STATUS_OPTIONS = Object.entries(QUOTE_STATUS_LABELS) as [QuoteStatus, string][];

/** Keeps the address bar in step with what is shown, without adding history entries. */
function setUrlParams(changes: Record<string, string | null>) {
  const url = new URL(location.href);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") url.searchParams.delete(key);
    else url.searchParams.set(key, value);
  }
  history.replaceState(history.state, "", url);
}

function succeeded(message: string) {
  toast({ title: "Success", description: message, variant: "success" });
}

/** The shared 401 rule already toasted for an expired session; don't replace it. */
function failed(error: unknown, message: string) {
  if (isUnauthorized(error)) return;
  toast({ title: "Error", description: message, variant: "destructive" });
}

type Pending =
  | { kind: "email"; row: QuoteListRow }
  | { kind: "close"; row: QuoteListRow }
  | { kind: "delete"; row: QuoteListRow };

export default function QuoteManager(props: QuoteManagerProps) {
  const [search, setSearch] = useState(props.initialQuery);
  const [query, setQuery] = useState(props.initialQuery);
  const [filter, setFilter] = useState<QuoteListFilter>(props.initialFilter);
  // The store listed: a store's id or "all" ("" in a chain of one store).
  const [store, setStore] = useState(props.stores?.selected ?? "");
  const [pending, setPending] = useState<Pending | null>(null);
  const queryClient = useQueryClient();

  // Wait for a pause in typing; clearing the box shows the full list at once.
  useEffect(() => {
    const trimmed = search.trim();
    if (trimmed === query) return;
    const timer = setTimeout(
      () => {
        setQuery(trimmed);
        setUrlParams({ q: trimmed });
      },
      trimmed ? SEARCH_DEBOUNCE_MS : 0,
    );
    return () => clearTimeout(timer);
  }, [search, query]);

  const list = useInfiniteQuery({
    queryKey: quoteListKey(filter, query, store),
    queryFn: ({ pageParam }) => fetchQuotePage(filter, query, pageParam, store),
    initialPageParam: 0,
    getNextPageParam: (last, pages, lastOffset) => {
      const loaded = pages.reduce((n, p) => n + p.rows.length, 0);
      // Past a floor the list goes on while pages come back full.
      const more = last.atLeast ? last.rows.length === QUOTE_PAGE_SIZE : loaded < last.total;
      return more && last.rows.length > 0 ? lastOffset + QUOTE_PAGE_SIZE : undefined;
    },
    initialData: filter === props.initialFilter && query === props.initialQuery &&
        store === (props.stores?.selected ?? "")
      ? {
        pages: [{
          rows: props.initialRows,
          total: props.initialTotal,
          atLeast: props.initialTotalAtLeast,
        }],
        pageParams: [0],
      }
      : undefined,
    // While the next search runs, the last answer stays on screen.
    placeholderData: keepPreviousData,
  });

  // Pages are fetched by offset; a quote added or removed between two pages
  // can show up twice, so each appears once.
  const rows = useMemo(() => {
    const seen = new Set<string>();
    return (list.data?.pages.flatMap((p) => p.rows) ?? []).filter((r) =>
      seen.has(r.id) ? false : (seen.add(r.id), true)
    );
  }, [list.data]);
  const pages = list.data?.pages;
  const last = pages?.length ? pages[pages.length - 1] : undefined;
  // A search that stopped counting shows its floor: "2000+".
  const total = last ? (last.atLeast ? `${last.total}+` : last.total) : null;

  function chooseFilter(value: QuoteListFilter) {
    setFilter(value);
    setUrlParams({
      status: value === "expired" ? null : value,
      filter: value === "expired" ? "expired" : null,
    });
  }

  function chooseStore(value: string) {
    setStore(value);
    setUrlParams({ store: value });
  }

  const refresh = () => queryClient.invalidateQueries({ queryKey: QUOTE_LISTS_KEY });

  const deleteCall = useMutation({
    mutationFn: (row: QuoteListRow) =>
      apiRequest("DELETE", `/api/quotes/${encodeURIComponent(row.id)}`),
  });
  const closeCall = useMutation({
    mutationFn: ({ row, reason }: { row: QuoteListRow; reason: string }) =>
      apiRequest("POST", `/api/quotes/${encodeURIComponent(row.id)}/close`, { reason }),
  });
  const emailCall = useMutation({
    mutationFn: async ({ row, request }: { row: QuoteListRow; request: EmailRequest }) => {
      // The dialog offers to keep a corrected address on the client's record.
      if (request.updateClient) {
        await apiRequest("PUT", `/api/clients/${encodeURIComponent(row.clientId)}`, {
          email: request.email,
        });
      }
      return await apiRequest<{ status: "sent" | "queued"; message: string }>(
        "POST",
        `/api/quotes/${encodeURIComponent(row.id)}/email`,
        { email: request.email, note: request.note },
      );
    },
  });

  function confirmDelete(row: QuoteListRow) {
    deleteCall.mutate(row, {
      onSuccess: () => {
        setPending(null);
        succeeded("Quote deleted successfully!");
      },
      onError: (error) =>
        failed(error, errorDetail(error) || "Failed to delete quote. Please try again."),
      onSettled: refresh,
    });
  }

  function confirmClose(row: QuoteListRow, reason: string) {
    closeCall.mutate({ row, reason }, {
      onSuccess: () => {
        setPending(null);
        succeeded("Quote closed successfully!");
      },
      onError: (error) => failed(error, "Failed to close quote. Please try again."),
      onSettled: refresh,
    });
  }

  function sendEmail(row: QuoteListRow, request: EmailRequest) {
    emailCall.mutate({ row, request }, {
      onSuccess: (answer) => {
        setPending(null);
        if (answer.status === "sent") succeeded("Quote emailed successfully!");
        else toast({ title: "Email queued", description: answer.message });
      },
      onError: (error) =>
        failed(error, errorDetail(error) || "Failed to email quote. Please try again."),
      // Sending changes the status (Emailed); a failure may still have saved the address.
      onSettled: refresh,
    });
  }

  const searching = list.isFetching && !list.isFetchingNextPage;
  const row = pending?.row;

  return (
    <div className="quote-manager">
      <div className="page-head">
        <div>
          <h1>
            Quote Management
            {/* The space keeps "Quote Management (12)" one phrase for screen readers. */}
            {total !== null && (
              <>
                {" "}
                <span className="quote-count">({total})</span>
              </>
            )}
          </h1>
          <p className="muted">Find, e-mail, close, print and delete quotes.</p>
        </div>
      </div>

      <div className="toolbar quote-toolbar" role="search">
        <input
          type="search"
          className="search"
          aria-label="Search quotes by quote number, client or optician"
          placeholder="Search by quote number, client or optician..."
          autoComplete="off"
          spellCheck={false}
          maxLength={200}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <select
          className="quote-status-filter"
          aria-label="Filter by status"
          value={filter}
          onChange={(e) => chooseFilter(e.target.value as QuoteListFilter)}
        >
          <option value="">All statuses</option>
          {STATUS_OPTIONS.map(([value, label]) => <option key={value} value={value}>{label}
          </option>)}
          <option value="expired">Expired</option>
        </select>
        {props.stores && (
          <StoreSelect
            id="quote-store-filter"
            className="quote-store-filter"
            listing={props.stores}
            value={store}
            onChange={chooseStore}
          />
        )}
      </div>
      <p className="hint quote-status-line" role="status" aria-live="polite">
        {searching && list.isPlaceholderData
          ? "Searching..."
          : total
          ? `Showing ${rows.length} of ${total}`
          : ""}
      </p>

      <ListState
        pending={list.isPending}
        failed={list.isError}
        empty={rows.length === 0}
        what="quotes"
        emptyText="No quotes found matching your criteria."
        onRetry={() => list.refetch()}
      >
        <QuoteTable
          rows={rows}
          emailConfigured={props.emailConfigured}
          stores={props.stores}
          busy={searching}
          actions={{
            onEmail: (r) => setPending({ kind: "email", row: r }),
            onClose: (r) => setPending({ kind: "close", row: r }),
            onDelete: (r) => setPending({ kind: "delete", row: r }),
          }}
        />
      </ListState>

      {list.hasNextPage && rows.length > 0 && (
        <LoadMoreButton
          loading={list.isFetchingNextPage}
          onClick={() => list.fetchNextPage()}
        />
      )}

      <ConfirmDialog
        open={pending?.kind === "delete"}
        title="Delete Quote"
        description={row
          ? `Delete quote ${quoteLabel(row)} for ${row.clientName}? This cannot be undone.`
          : ""}
        confirmLabel="Delete Quote"
        busyLabel="Deleting..."
        danger
        busy={deleteCall.isPending}
        onConfirm={() => row && confirmDelete(row)}
        onClose={() => setPending(null)}
      />
      <CloseQuoteDialog
        open={pending?.kind === "close"}
        busy={closeCall.isPending}
        unsaved={false}
        onClose={() => setPending(null)}
        onSubmit={(reason) => row && confirmClose(row, reason)}
      />
      <EmailQuoteDialog
        open={pending?.kind === "email"}
        busy={emailCall.isPending}
        clientEmail={row?.clientEmail ?? null}
        clientName={row?.clientName ?? ""}
        onClose={() => setPending(null)}
        onSubmit={(request) => row && sendEmail(row, request)}
      />
    </div>
  );
}
