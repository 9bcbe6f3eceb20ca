import type { BuilderCatalog, CatalogItem } from "../../src/catalog/catalog.ts";
import {
  applyPackageChoice,
  type CatalogEntry,
  currentPackageChoice,
  type DraftItem,
  type DraftOption,
  emptyItem,
  isCustomPackage,
  normalizeAdjustment,
  setCatalogItem,
  toggleAddOn,
} from "../../src/quotes/rules.ts";
import { centsOrZero, formatDecimal } from "../../src/money/amounts.ts";
import { Field, invalidProps, MoneyInput, QtyInput } from "./fields.tsx";
import { Checkbox } from "../Checkbox.tsx";
import { useFocusAfter } from "../focus_rule.ts";
import { useRef } from "react";

type Update = (update: (option: DraftOption) => DraftOption) => void;

export interface OptionEditorProps {
  option: DraftOption;
  index: number;
  title: string;
  catalog: BuilderCatalog;
  /** Field key ("options.{i}.frame", …) → message. */
  errors: Record<string, string>;
  onChange: Update;
  canDelete: boolean;
  onDelete: () => void;
}

const LIMITS = {
  label: 100,
  notes: 2000,
  reason: 200,
  itemName: 200,
  sku: 100,
  itemNotes: 1000,
};

const newRowId = () => `row-${crypto.randomUUID()}`;

export function OptionEditor(
  { option, index, title, catalog, errors, onChange, canDelete, onDelete }: OptionEditorProps,
) {
  const p = `qb-o${index}`;
  const err = (field: string) => errors[`options.${index}.${field}`];
  const itemErr = (item: DraftItem, field: string) =>
    err(`items.${option.items.indexOf(item)}.${field}`);
  const itemField = (item: DraftItem, field: string) =>
    `options.${index}.items.${option.items.indexOf(item)}.${field}`;

  const set = (patch: Partial<DraftOption>) => onChange((o) => ({ ...o, ...patch }));
  const setItems = (update: (items: DraftItem[]) => DraftItem[]) =>
    onChange((o) => ({ ...o, items: update(o.items) }));
  const setFrame = (patch: Partial<DraftItem>) =>
    setItems((items) => items.map((i) => (i.kind === "FRAME" ? { ...i, ...patch } : i)));
  const setRow = (id: string | undefined, patch: Partial<DraftItem>) =>
    setItems((items) =>
      items.map((i) => (i.kind === "OTHER" && i.id === id ? { ...i, ...patch } : i))
    );

  const frame = option.items.find((i) => i.kind === "FRAME") ?? emptyItem("FRAME");
  const others = option.items.filter((i) => i.kind === "OTHER");
  const packageChoice = currentPackageChoice(option.items);
  const packageItem = option.items.find((i) => i.kind === "PACKAGE");
  const custom = isCustomPackage(option.items);
  const adjustmentCents = centsOrZero(option.adjustmentAmount);

  const frameSkuError = err("frame") ?? itemErr(frame, "sku");

  // A row's Remove goes with its row: focus moves to the Remove of the row
  // now in its place (or the one before), else to + Add Item.
  const othersRef = useRef<HTMLElement>(null);
  const focusAfter = useFocusAfter();
  const removeOther = (item: DraftItem, at: number) => {
    setItems((items) => items.filter((i) => !(i.kind === "OTHER" && i.id === item.id)));
    focusAfter(() => {
      const section = othersRef.current;
      const removes = Array.from(section?.querySelectorAll(".qb-row-remove") ?? []);
      return [removes[at], removes[at - 1], section?.querySelector(".qb-section-head button")];
    });
  };

  return (
    <div className="qb-option">
      <div className="qb-option-head">
        <Field id={`${p}-label`} label="Option Label" error={err("label")} className="qb-grow">
          <input
            id={`${p}-label`}
            data-field={`options.${index}.label`}
            value={option.label}
            maxLength={LIMITS.label}
            placeholder={title}
            onChange={(e) => set({ label: e.target.value })}
            {...invalidProps(`${p}-label`, err("label"))}
          />
        </Field>
        <Checkbox
          className="checkbox-card qb-chosen"
          id={`${p}-chosen`}
          label="Selected - Internal Print"
          checked={option.isChosen}
          onChange={(e) => set({ isChosen: e.target.checked })}
        />
      </div>

      <section className="qb-section" aria-labelledby={`${p}-frame-title`}>
        <h3 id={`${p}-frame-title`}>Frame</h3>
        <div className="qb-grid qb-grid-frame">
          <Field id={`${p}-brand`} label="Brand Name" error={itemErr(frame, "name")}>
            <input
              id={`${p}-brand`}
              data-field={itemField(frame, "name")}
              value={frame.name}
              maxLength={LIMITS.itemName}
              autoComplete="off"
              onChange={(e) => setFrame({ name: e.target.value })}
              {...invalidProps(`${p}-brand`, itemErr(frame, "name"))}
            />
          </Field>
          <Field id={`${p}-sku`} label="SKU" error={frameSkuError}>
            <input
              id={`${p}-sku`}
              data-field={`options.${index}.frame`}
              value={frame.sku ?? ""}
              maxLength={LIMITS.sku}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              onChange={(e) => setFrame({ sku: e.target.value })}
              {...invalidProps(`${p}-sku`, frameSkuError)}
            />
          </Field>
          <Field
            id={`${p}-frame-price`}
            label={
              <>
                <span className="sr-only">Frame</span> Price
              </>
            }
            error={itemErr(frame, "unitPrice")}
          >
            <MoneyInput
              id={`${p}-frame-price`}
              data-field={itemField(frame, "unitPrice")}
              value={frame.unitPrice}
              onChange={(unitPrice) => setFrame({ unitPrice })}
              {...invalidProps(`${p}-frame-price`, itemErr(frame, "unitPrice"))}
            />
          </Field>
          <Field
            id={`${p}-frame-qty`}
            label={
              <>
                <span className="sr-only">Frame</span> Quantity
              </>
            }
          >
            <QtyInput
              id={`${p}-frame-qty`}
              data-field={itemField(frame, "qty")}
              value={frame.qty}
              onChange={(qty) => setFrame({ qty })}
              error={itemErr(frame, "qty")}
            />
          </Field>
        </div>
      </section>

      <section className="qb-section" aria-labelledby={`${p}-lens-title`}>
        <h3 id={`${p}-lens-title`}>Lenses</h3>
        <Field
          id={`${p}-package`}
          label="Lens Package"
          hint={packageItem && !custom && packageItem.notes ? packageItem.notes : undefined}
        >
          <select
            id={`${p}-package`}
            value={packageChoice}
            aria-describedby={packageItem && !custom && packageItem.notes
              ? `${p}-package-hint`
              : undefined}
            onChange={(e) => {
              const value = e.target.value;
              const pkg = catalog.packages.find((c) => c.id === value);
              setItems((items) =>
                applyPackageChoice(
                  items,
                  value === "custom"
                    ? { type: "custom" }
                    : pkg
                    ? { type: "catalog", pkg }
                    : { type: "none" },
                )
              );
            }}
          >
            <option value="none">None</option>
            {catalog.packages.map((pkg) => (
              <option key={pkg.id} value={pkg.id}>{priced(pkg)}</option>
            ))}
            {packageItem && packageChoice !== "custom" &&
              !catalog.packages.some((c) => c.id === packageChoice) && (
              <option value={packageChoice}>{retired(packageItem)}</option>
            )}
            <option value="custom">Custom Package</option>
          </select>
        </Field>
        {custom && (
          <div className="qb-grid qb-grid-lens">
            <CatalogSelect
              id={`${p}-lens`}
              label="Lens Type"
              placeholder="Select a lens type"
              field={`options.${index}.lens`}
              entries={catalog.lensTypes}
              item={option.items.find((i) => i.kind === "LENS")}
              error={err("lens")}
              onPick={(entry) => setItems((items) => setCatalogItem(items, "LENS", entry))}
            />
            <CatalogSelect
              id={`${p}-material`}
              label="Material"
              placeholder="Select a material"
              field={`options.${index}.material`}
              entries={catalog.materials}
              item={option.items.find((i) => i.kind === "MATERIAL")}
              error={err("material")}
              onPick={(entry) => setItems((items) => setCatalogItem(items, "MATERIAL", entry))}
            />
            <CatalogSelect
              id={`${p}-ar`}
              label="AR Coating"
              placeholder="No AR coating"
              field={`options.${index}.ar`}
              entries={catalog.arCoatings}
              item={option.items.find((i) => i.kind === "AR")}
              onPick={(entry) => setItems((items) => setCatalogItem(items, "AR", entry))}
            />
          </div>
        )}
        <AddOns option={option} addOns={catalog.addOns} setItems={setItems} idPrefix={p} />
      </section>

      <section className="qb-section" aria-labelledby={`${p}-other-title`} ref={othersRef}>
        <div className="qb-section-head">
          <h3 id={`${p}-other-title`}>Other Items</h3>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => setItems((items) => [...items, emptyItem("OTHER", { id: newRowId() })])}
          >
            + Add Item
          </button>
        </div>
        {others.length === 0 && <p className="hint">No other items (cases, cleaning kits…).</p>}
        <ul className="qb-rows">
          {others.map((item, n) => {
            const r = `${p}-other${n}`;
            const row = `Other item ${n + 1}`;
            return (
              <li key={item.id ?? n} className="qb-row">
                <Field
                  id={`${r}-name`}
                  label={
                    <>
                      Name<span className="sr-only">, {row}</span>
                    </>
                  }
                  error={itemErr(item, "name")}
                  className="qb-row-name"
                >
                  <input
                    id={`${r}-name`}
                    data-field={itemField(item, "name")}
                    value={item.name}
                    maxLength={LIMITS.itemName}
                    onChange={(e) => setRow(item.id, { name: e.target.value })}
                    {...invalidProps(`${r}-name`, itemErr(item, "name"))}
                  />
                </Field>
                <Field
                  id={`${r}-price`}
                  label={
                    <>
                      Price<span className="sr-only">, {row}</span>
                    </>
                  }
                  error={itemErr(item, "unitPrice")}
                  className="qb-row-price"
                >
                  <MoneyInput
                    id={`${r}-price`}
                    data-field={itemField(item, "unitPrice")}
                    value={item.unitPrice}
                    onChange={(unitPrice) => setRow(item.id, { unitPrice })}
                    {...invalidProps(`${r}-price`, itemErr(item, "unitPrice"))}
                  />
                </Field>
                <Field
                  id={`${r}-qty`}
                  label={
                    <>
                      Qty<span className="sr-only">, {row}</span>
                    </>
                  }
                  className="qb-row-qty"
                >
                  <QtyInput
                    id={`${r}-qty`}
                    data-field={itemField(item, "qty")}
                    value={item.qty}
                    onChange={(qty) => setRow(item.id, { qty })}
                    error={itemErr(item, "qty")}
                  />
                </Field>
                <Field
                  id={`${r}-notes`}
                  label={
                    <>
                      Notes<span className="sr-only">, {row}</span>
                    </>
                  }
                  error={itemErr(item, "notes")}
                  className="qb-row-notes"
                >
                  <input
                    id={`${r}-notes`}
                    data-field={itemField(item, "notes")}
                    value={item.notes}
                    maxLength={LIMITS.itemNotes}
                    onChange={(e) => setRow(item.id, { notes: e.target.value })}
                  />
                </Field>
                <button
                  type="button"
                  className="btn btn-ghost qb-row-remove qb-danger-text"
                  aria-label={`Remove ${row}${item.name.trim() ? ` (${item.name.trim()})` : ""}`}
                  onClick={() => removeOther(item, n)}
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
      </section>

      <section className="qb-section" aria-labelledby={`${p}-pricing-title`}>
        <h3 id={`${p}-pricing-title`}>Shipping and Adjustment</h3>
        <div className="qb-grid qb-grid-3">
          <Field id={`${p}-shipping`} label="Shipping" error={err("shipping")}>
            <MoneyInput
              id={`${p}-shipping`}
              data-field={`options.${index}.shipping`}
              value={option.shipping}
              onChange={(shipping) => set({ shipping })}
              {...invalidProps(`${p}-shipping`, err("shipping"))}
            />
          </Field>
          <Field
            id={`${p}-adjustment`}
            label="Price Adjustment"
            error={err("adjustmentAmount")}
            hint="A discount: any amount entered is taken off."
          >
            <MoneyInput
              id={`${p}-adjustment`}
              data-field={`options.${index}.adjustmentAmount`}
              className={adjustmentCents < 0
                ? "qb-credit"
                : adjustmentCents > 0
                ? "qb-debit"
                : undefined}
              value={option.adjustmentAmount}
              normalize={normalizeAdjustment}
              onChange={(adjustmentAmount) => set({ adjustmentAmount })}
              {...invalidProps(`${p}-adjustment`, err("adjustmentAmount"), `${p}-adjustment-hint`)}
            />
          </Field>
          <Field id={`${p}-reason`} label="Adjustment Reason" error={err("adjustmentReason")}>
            <input
              id={`${p}-reason`}
              data-field={`options.${index}.adjustmentReason`}
              value={option.adjustmentReason}
              maxLength={LIMITS.reason}
              placeholder="Promo"
              onChange={(e) => set({ adjustmentReason: e.target.value })}
            />
          </Field>
        </div>
      </section>

      <section className="qb-section">
        <Field id={`${p}-notes`} label="Option Notes" error={err("notes")}>
          <textarea
            id={`${p}-notes`}
            data-field={`options.${index}.notes`}
            rows={3}
            value={option.notes}
            maxLength={LIMITS.notes}
            onChange={(e) => set({ notes: e.target.value })}
          />
        </Field>
      </section>

      <div className="qb-option-delete">
        <button
          type="button"
          className="btn btn-ghost qb-danger-text"
          onClick={onDelete}
          disabled={!canDelete}
          aria-describedby={canDelete ? undefined : `${p}-delete-why`}
        >
          Delete Option
        </button>
        {!canDelete && (
          <p id={`${p}-delete-why`} className="hint">A quote needs at least one option.</p>
        )}
      </div>
    </div>
  );
}

const priced = (entry: Pick<CatalogEntry, "name" | "price">) =>
  `${entry.name} — ${formatDecimal(entry.price)}`;
const retired = (item: DraftItem) =>
  `${priced({ name: item.name, price: item.unitPrice })} (no longer offered)`;

function CatalogSelect(
  { id, label, placeholder, field, entries, item, error, onPick }: {
    id: string;
    label: string;
    placeholder: string;
    field: string;
    entries: CatalogItem[];
    item: DraftItem | undefined;
    error?: string;
    onPick: (entry: CatalogEntry | null) => void;
  },
) {
  // An item picked from an entry the store has since retired still shows as picked.
  const current = item ? item.catalogId ?? "current" : "";
  const retiredEntry = item && !entries.some((e) => e.id === item.catalogId);
  return (
    <Field id={id} label={label} error={error}>
      <select
        id={id}
        data-field={field}
        value={current}
        onChange={(e) => {
          const value = e.target.value;
          if (value === current) return;
          onPick(entries.find((entry) => entry.id === value) ?? null);
        }}
        {...invalidProps(id, error)}
      >
        <option value="">{placeholder}</option>
        {entries.map((entry) => <option key={entry.id} value={entry.id}>{priced(entry)}</option>)}
        {retiredEntry && <option value={current}>{retired(item)}</option>}
      </select>
    </Field>
  );
}

function AddOns(
  { option, addOns, setItems, idPrefix }: {
    option: DraftOption;
    addOns: CatalogItem[];
    setItems: (update: (items: DraftItem[]) => DraftItem[]) => void;
    idPrefix: string;
  },
) {
  const picked = option.items.filter((i) => i.kind === "ADDON");
  const retiredPicks = picked.filter((i) => !addOns.some((a) => a.id === i.catalogId));
  if (!addOns.length && !retiredPicks.length) return null;
  return (
    <fieldset className="qb-addons">
      <legend>Add-ons</legend>
      <div className="qb-addon-grid">
        {addOns.map((addOn) => {
          const id = `${idPrefix}-addon-${addOn.id}`;
          return (
            <Checkbox
              key={addOn.id}
              className="checkbox-card qb-addon"
              id={id}
              checked={picked.some((i) => i.catalogId === addOn.id)}
              onChange={(e) => {
                const checked = e.target.checked;
                setItems((items) => toggleAddOn(items, addOn, checked));
              }}
              label={
                <span className="qb-addon-text">
                  <span className="qb-addon-name">{addOn.name}</span>
                  <span className="qb-addon-price">+{formatDecimal(addOn.price)}</span>
                </span>
              }
            />
          );
        })}
        {retiredPicks.map((item, n) => {
          const id = `${idPrefix}-addon-retired-${n}`;
          return (
            <Checkbox
              key={id}
              className="checkbox-card qb-addon"
              id={id}
              checked
              onChange={() => setItems((items) => items.filter((i) => i !== item))}
              label={
                <span className="qb-addon-text">
                  <span className="qb-addon-name">{item.name} (no longer offered)</span>
                  <span className="qb-addon-price">+{formatDecimal(item.unitPrice)}</span>
                </span>
              }
            />
          );
        })}
      </div>
    </fieldset>
  );
}
