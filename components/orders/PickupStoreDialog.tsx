// Sending a job's glasses to another store of the chain for pickup (until
// they are ready): the job then says which store, and so does the ready e-mail.
import { type FormEvent, useId, useState } from "react";
import { Dialog } from "../Dialog.tsx";
import type { ListedStore } from "../../src/stores/store_listing.ts";

export function PickupStoreDialog(
  { job, stores, busy, onClose, onSubmit }: {
    job: { jobNumber: string; pickupStoreId: string } | null;
    stores: ListedStore[];
    busy: boolean;
    onClose: () => void;
    onSubmit: (storeId: string) => void;
  },
) {
  return (
    <Dialog
      open={job !== null}
      busy={busy}
      onClose={onClose}
      title={`Pickup Store${job ? ` · ${job.jobNumber}` : ""}`}
      description="The store the glasses go to. The ready e-mail names its address and hours."
    >
      {job && (
        <StoreForm
          initial={job.pickupStoreId}
          stores={stores.filter((s) => s.active)}
          busy={busy}
          onCancel={onClose}
          onSubmit={onSubmit}
        />
      )}
    </Dialog>
  );
}

function StoreForm(
  { initial, stores, busy, onCancel, onSubmit }: {
    initial: string;
    stores: ListedStore[];
    busy: boolean;
    onCancel: () => void;
    onSubmit: (storeId: string) => void;
  },
) {
  const id = useId();
  const [storeId, setStoreId] = useState(initial);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!busy && storeId !== initial) onSubmit(storeId);
  }
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-store`}>Pick up at</label>
        <select
          id={`${id}-store`}
          value={storeId}
          onChange={(e) => setStoreId(e.target.value)}
          disabled={busy}
        >
          {stores.map((s) => <option key={s.id} value={s.id}>{s.name} ({s.code})</option>)}
        </select>
      </div>
      <div className="dialog-footer">
        <button type="button" className="btn btn-outline" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy || storeId === initial}>
          {busy ? "Saving..." : "Save Pickup Store"}
        </button>
      </div>
    </form>
  );
}
