import { LoadMoreButton } from "../components/LoadMoreButton.tsx";
import { useEffect, useMemo, useRef, useState } from "react";
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import {
  CLIENT_PAGE_SIZE,
  type ClientDetail,
  type ClientSummary,
  type ConsentTexts,
  type HeardHowOption,
} from "../src/clients/views.ts";
import { ClientCard } from "../components/client_manager/ClientCard.tsx";
import { ClientDetailDialog } from "../components/client_manager/ClientDetailDialog.tsx";
import {
  AddClientDialog,
  EditClientDialog,
} from "../components/client_manager/ClientFormDialogs.tsx";
import { DeleteClientDialog } from "../components/client_manager/DeleteClientDialog.tsx";
import {
  clientListKey,
  fetchClientPage,
  type ListMode,
  useCreateQuote,
} from "../components/client_manager/queries.ts";
import { ListState } from "../components/ListState.tsx";

export interface ClientManagerProps {
  /** `?filter=missing` as the page was asked for. */
  initialFilter: "missing" | null;
  /** The first page of the list for that filter, loaded by the server. */
  initialClients: ClientSummary[];
  /** `?id=`: the client whose details open on load. */
  openClientId: string | null;
  /** That client's details, when the server found them. */
  initialDetail: ClientDetail | null;
  heardHowOptions: HeardHowOption[];
  consentTexts: ConsentTexts;
}

export const SEARCH_DEBOUNCE_MS = 250;

/** Keeps the address bar in step with what is shown, without adding history entries. */
function setUrlParams(changes: Record<string, string | null>) {
  const url = new URL(location.href);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) url.searchParams.delete(key);
    else url.searchParams.set(key, value);
  }
  history.replaceState(history.state, "", url);
}

const clientsWord = (n: number) => (n === 1 ? "client" : "clients");

export default function ClientManager(props: ClientManagerProps) {
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  const [missingOnly, setMissingOnly] = useState(props.initialFilter === "missing");
  const [detailId, setDetailId] = useState<string | null>(props.openClientId);
  const [editId, setEditId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ClientSummary | null>(null);
  const [adding, setAdding] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);
  const createQuote = useCreateQuote();

  // Wait for a pause in typing; clearing the box shows the full list at once.
  useEffect(() => {
    if (!search.trim()) {
      setQuery("");
      return;
    }
    const timer = setTimeout(() => setQuery(search.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const mode: ListMode = query ? "search" : missingOnly ? "missing" : "all";
  const initialMode: ListMode = props.initialFilter === "missing" ? "missing" : "all";
  const list = useInfiniteQuery({
    queryKey: clientListKey(mode, query),
    queryFn: ({ pageParam }) => fetchClientPage(mode, query, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, _pages, lastOffset) =>
      last.length >= CLIENT_PAGE_SIZE ? lastOffset + CLIENT_PAGE_SIZE : undefined,
    initialData: mode === initialMode && query === ""
      ? { pages: [props.initialClients], pageParams: [0] }
      : undefined,
    // While the next search runs, the last answer stays on screen.
    placeholderData: keepPreviousData,
  });

  // Pages are fetched by offset; a client added or removed between two pages
  // can show up twice, so each appears once.
  const clients = useMemo(() => {
    const seen = new Set<string>();
    return (list.data?.pages.flat() ?? []).filter((c) =>
      seen.has(c.id) ? false : (seen.add(c.id), true)
    );
  }, [list.data]);

  function onSearchChange(value: string) {
    setSearch(value);
    // Search covers every client; the filter has no search of its own, so
    // searching leaves the filter rather than appear to search within it.
    if (value.trim() && missingOnly) {
      setMissingOnly(false);
      setUrlParams({ filter: null });
    }
  }

  function showMissing(on: boolean) {
    setMissingOnly(on);
    if (on) {
      setSearch("");
      setQuery("");
    }
    setUrlParams({ filter: on ? "missing" : null });
  }

  function openDetail(id: string | null) {
    setDetailId(id);
    setUrlParams({ id });
  }

  function onDeleted(client: ClientSummary) {
    setDeleting(null);
    if (detailId === client.id) openDetail(null);
    // The card that held focus is gone; carry on from the search box.
    searchRef.current?.focus();
  }

  const narrowed = mode !== "all";
  const searching = list.isFetching && !list.isFetchingNextPage;
  const status = list.isPending
    ? ""
    : searching && list.isPlaceholderData
    ? "Searching..."
    : clients.length === 0
    ? ""
    : mode === "search"
    ? `${clients.length}${list.hasNextPage ? "+" : ""} ${clientsWord(clients.length)} found`
    : mode === "missing"
    ? `Showing ${clients.length}${list.hasNextPage ? "+" : ""} ${
      clientsWord(clients.length)
    } with missing measurements`
    : `Showing ${clients.length}${list.hasNextPage ? "+" : ""} ${clientsWord(clients.length)}`;

  return (
    <div className="client-manager">
      <div className="page-head">
        <div>
          <h1>Client Management</h1>
          <p className="muted">Find clients, record their measurements and start quotes.</p>
        </div>
        <div className="actions">
          <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
            Add New Client
          </button>
        </div>
      </div>

      <div className="toolbar client-toolbar" role="search">
        <input
          ref={searchRef}
          type="search"
          className="search"
          aria-label="Search clients by name, email or phone"
          placeholder="Search by name, email or phone..."
          autoComplete="off"
          spellCheck={false}
          value={search}
          onChange={(e) => onSearchChange(e.target.value)}
        />
        <button
          type="button"
          className={`btn ${missingOnly ? "btn-primary" : "btn-outline"}`}
          aria-pressed={missingOnly}
          onClick={() => showMissing(!missingOnly)}
        >
          Missing Measurements
        </button>
        {missingOnly && (
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => showMissing(false)}
          >
            Clear Filter
          </button>
        )}
      </div>
      <p className="hint client-status" role="status" aria-live="polite">{status}</p>

      <ListState
        pending={list.isPending}
        failed={list.isError}
        empty={clients.length === 0}
        what="clients"
        emptyText={narrowed
          ? "No clients found matching your search."
          : "No clients yet. Add your first client to get started."}
        onRetry={() => list.refetch()}
      >
        <ul
          className="client-list"
          aria-label="Clients"
          aria-busy={searching ? true : undefined}
        >
          {clients.map((client) => (
            <ClientCard
              key={client.id}
              client={client}
              onOpen={(c) => openDetail(c.id)}
              onNewQuote={(c) => createQuote.mutate(c.id)}
              onEdit={(c) => setEditId(c.id)}
              onDelete={(c) => setDeleting(c)}
              creatingQuote={createQuote.isPending && createQuote.variables === client.id}
              busy={createQuote.isPending || createQuote.isSuccess}
            />
          ))}
        </ul>
      </ListState>

      {list.hasNextPage && clients.length > 0 && (
        <LoadMoreButton
          loading={list.isFetchingNextPage}
          onClick={() => list.fetchNextPage()}
        />
      )}

      <ClientDetailDialog
        clientId={detailId}
        onClose={() => openDetail(null)}
        initialDetail={props.initialDetail ?? undefined}
      />
      <EditClientDialog
        clientId={editId}
        onClose={() => setEditId(null)}
        initialDetail={props.initialDetail ?? undefined}
      />
      <DeleteClientDialog
        client={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={onDeleted}
      />
      <AddClientDialog
        open={adding}
        onClose={() => setAdding(false)}
        initialHeardHow={props.heardHowOptions}
        initialConsentTexts={props.consentTexts}
      />
    </div>
  );
}
