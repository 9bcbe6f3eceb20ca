// The chain's stores (/admin/stores): the owner adds stores; the owner and
// chain admins edit every store, make one inactive (asked first; never the
// last active one: the server says so) or active again; a store admin sees
// and edits their own stores' settings only. The server decides each of
// these; the screen only leaves out what it would refuse.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, apiRequest, isUnauthorized } from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { Badge } from "../components/Badge.tsx";
import { Dialog } from "../components/Dialog.tsx";
import { ListState } from "../components/ListState.tsx";
import { StoreDialog } from "../components/stores/StoreDialog.tsx";
import { type ChainDefaults, storeName } from "../components/stores/store_form.ts";
import type { StoreView } from "../src/stores/admin_stores.ts";

export interface StoresAdminProps {
  initialStores: StoreView[];
  chain: ChainDefaults;
  /** The chain's active labs: each store may use some of them only. */
  labs: { id: string; name: string }[];
  /** The owner: adds stores. */
  canAdd: boolean;
  /** The owner or a chain admin: changes codes, makes stores inactive or active. */
  chainWide: boolean;
  /** The chain's today (YYYY-MM-DD): closed dates before it are past. */
  today: string;
}

const STORES_KEY = ["admin", "stores"];

export default function StoresAdmin(
  { initialStores, chain, labs, canAdd, chainWide, today }: StoresAdminProps,
) {
  const queryClient = useQueryClient();
  const stores = useQuery({
    queryKey: STORES_KEY,
    queryFn: () => apiRequest<StoreView[]>("GET", "/api/admin/stores"),
    initialData: initialStores,
  });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<StoreView | null>(null);
  const [closing, setClosing] = useState<StoreView | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: STORES_KEY });

  const setActive = useMutation({
    mutationFn: ({ store, active }: { store: StoreView; active: boolean }) =>
      apiRequest<StoreView>("PUT", `/api/admin/stores/${encodeURIComponent(store.id)}`, {
        active,
      }),
    onSuccess: (saved) => {
      toast({
        title: "Success",
        description: saved.active
          ? `Store ${saved.code} is active again.`
          : `Store ${saved.code} is inactive.`,
        variant: "success",
      });
      setClosing(null);
      refresh();
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      // The last active store, another's store: the server's words.
      toast({
        title: "Error",
        description: error instanceof ApiError && error.status < 500
          ? error.detail
          : "Failed to change the store. Please try again.",
        variant: "destructive",
      });
    },
  });

  const rows = stores.data ?? [];
  return (
    <div className="users stores-admin">
      <div className="page-head">
        <div>
          <h1>Stores</h1>
          <p className="muted">
            {chainWide
              ? "The chain's stores: each uses the chain's settings except where it sets its own."
              : "Your stores: each uses the chain's settings except where it sets its own."}
          </p>
        </div>
        <div className="actions">
          <a className="btn btn-outline" href="/admin/users">User Management</a>
          <a className="btn btn-outline" href="/admin/settings">Chain Settings</a>
          {canAdd && (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => setAdding(true)}
            >
              Add Store
            </button>
          )}
        </div>
      </div>

      <ListState
        pending={stores.isPending}
        failed={stores.isError}
        empty={rows.length === 0}
        what="stores"
        emptyText={chainWide ? "No stores yet." : "You do not work in any store yet."}
        onRetry={() => stores.refetch()}
      >
        <div className="data-table-wrap" tabIndex={0} role="region" aria-label="Stores table">
          <table
            className="data-table data-table-actions data-table-roomy users-table stores-table"
            aria-busy={stores.isFetching ? true : undefined}
          >
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Name</th>
                <th scope="col">Address</th>
                <th scope="col">Phone</th>
                <th scope="col">Hours</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((store) => (
                <tr key={store.id} data-store-id={store.id}>
                  <td className="users-username" data-label="Code">{store.code}</td>
                  <td data-label="Name">
                    {storeName(store, chain)}
                    {store.name === null && <span className="users-you">(chain's)</span>}
                  </td>
                  <td className="users-email" data-label="Address">
                    {store.address ?? <span className="muted">Chain's</span>}
                  </td>
                  <td data-label="Phone">
                    {store.phone ?? <span className="muted">Chain's</span>}
                  </td>
                  <td className="users-date" data-label="Hours">
                    {store.openingTime ?? chain.openingTime}–{store.closingTime ??
                      chain.closingTime}
                  </td>
                  <td data-label="Status">
                    {store.active
                      ? <Badge variant="success">Active</Badge>
                      : <Badge variant="secondary">Inactive</Badge>}
                  </td>
                  <td className="users-actions-cell">
                    <div className="users-actions">
                      <button
                        type="button"
                        className="btn btn-outline btn-sm"
                        aria-label={`Edit store ${store.code}`}
                        onClick={() => setEditing(store)}
                      >
                        Edit
                      </button>
                      {chainWide && store.active && (
                        <button
                          type="button"
                          className="btn btn-outline btn-sm users-delete"
                          aria-label={`Deactivate store ${store.code}`}
                          onClick={() => setClosing(store)}
                        >
                          Deactivate
                        </button>
                      )}
                      {chainWide && !store.active && (
                        <button
                          type="button"
                          className="btn btn-outline btn-sm"
                          aria-label={`Activate store ${store.code}`}
                          disabled={setActive.isPending}
                          onClick={() => setActive.mutate({ store, active: true })}
                        >
                          Activate
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </ListState>

      <StoreDialog
        store={editing}
        adding={adding}
        chain={chain}
        labs={labs}
        chainWide={chainWide}
        today={today}
        onClose={() => {
          setAdding(false);
          setEditing(null);
        }}
        onSaved={() => {
          setAdding(false);
          setEditing(null);
          refresh();
        }}
        onLogoChanged={refresh}
      />
      <Dialog
        open={!!closing}
        busy={setActive.isPending}
        onClose={() => setClosing(null)}
        size="sm"
        title="Deactivate Store"
        description={closing && (
          <>
            Make <strong>{closing.code}</strong>{" "}
            ({storeName(closing, chain)}) inactive? Its staff can no longer pick it, and new quotes,
            orders and payments cannot be made in it. Its records stay, and it can be made active
            again.
          </>
        )}
        footer={
          <>
            <button type="button" className="btn btn-outline" onClick={() => setClosing(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="btn btn-danger"
              disabled={setActive.isPending}
              onClick={() => closing && setActive.mutate({ store: closing, active: false })}
            >
              {setActive.isPending ? "Deactivating..." : "Deactivate Store"}
            </button>
          </>
        }
      />
    </div>
  );
}
