import type { StoreListing } from "../src/stores/store_listing.ts";

/**
 * The store a list shows (a chain of several stores only): each active store,
 * and "All stores" for those who may list them all. In a GET form it is sent
 * as `store`; an island passes `onChange` to follow it without a reload.
 */
export function StoreSelect(
  { id, listing, value, onChange, className }: {
    id: string;
    listing: StoreListing;
    /** The chosen store when controlled (an island); else the listing's. */
    value?: string;
    onChange?: (store: string) => void;
    className?: string;
  },
) {
  return (
    <div className={className ?? "field"}>
      <label htmlFor={id}>Store</label>
      <select
        id={id}
        name="store"
        {...(onChange
          ? { value: value ?? listing.selected, onChange: (e) => onChange(e.target.value) }
          : { defaultValue: listing.selected })}
      >
        {listing.allowAll && <option value="all">All stores</option>}
        {listing.stores.filter((s) => s.active).map((s) => (
          <option key={s.id} value={s.id}>{s.name} ({s.code})</option>
        ))}
      </select>
    </div>
  );
}

/** A row's store code, for the list's Store column ("—" for a store no longer known). */
export const storeCodeOf = (listing: StoreListing, storeId: string | null | undefined) =>
  listing.stores.find((s) => s.id === storeId)?.code ?? "—";
