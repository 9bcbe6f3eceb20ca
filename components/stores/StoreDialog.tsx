// Add Store and Edit Store (the Stores page): a store's code and what it sets
// of its own, each field beside the chain's value it otherwise uses. Checked
// by the API's own schema before sending; the server's messages land on
// their fields.
import { type FormEvent, useId, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { ApiError, apiRequest, errorDetail, isUnauthorized } from "../api_client.ts";
import { ImageUpload } from "../settings/ImageUpload.tsx";
import { toast } from "../toast.tsx";
import { Dialog } from "../Dialog.tsx";
import { Checkbox } from "../Checkbox.tsx";
import { SettingsField } from "../settings/fields.tsx";
import { ClosedDatesField } from "../settings/ClosedDatesField.tsx";
import { formErrors } from "../../src/schemas/form_errors.ts";
import { newStoreSchema, storeUpdateSchema } from "../../src/schemas/store.ts";
import type { StoreView } from "../../src/stores/admin_stores.ts";
import { chainHint, OverrideField, UseChainButton } from "./fields.tsx";
import {
  type ChainDefaults,
  daysText,
  EMPTY_STORE,
  type StoreDraft,
  type TextOverride,
  toBody,
  toDraft,
  WEEKDAYS,
} from "./store_form.ts";

const LABELS: Record<TextOverride, string> = {
  name: "Store Name",
  phone: "Phone",
  email: "Email",
  address: "Address",
  website: "Website",
  timeZone: "Time Zone",
  openingTime: "Opening Time",
  closingTime: "Closing Time",
  readyEmailSubject: "Ready E-mail Subject",
  readyEmailBody: "Ready E-mail Body",
};

export function StoreDialog(
  { store, adding, chain, labs, chainWide, today, onClose, onSaved, onLogoChanged }: {
    /** The store edited; null while adding. */
    store: StoreView | null;
    /** The chain's active labs, for the store's choice of them. */
    labs: { id: string; name: string }[];
    adding: boolean;
    chain: ChainDefaults;
    /** The owner or a chain admin: changes the code and whether the store is active. */
    chainWide: boolean;
    today: string;
    onClose: () => void;
    onSaved: (store: StoreView) => void;
    /** Its logo was saved on its own (the dialog stays open). */
    onLogoChanged: () => void;
  },
) {
  const open = adding || !!store;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="lg"
      title={adding ? "Add Store" : `Edit Store ${store?.code ?? ""}`}
      description="Blank fields use the chain's settings (Settings); a store sets its own where it differs."
    >
      {open && (
        <StoreForm
          key={store?.id ?? "new"}
          store={store}
          chain={chain}
          labs={labs}
          chainWide={chainWide}
          today={today}
          onClose={onClose}
          onSaved={onSaved}
          onLogoChanged={onLogoChanged}
        />
      )}
    </Dialog>
  );
}

function StoreForm(
  { store, chain, labs, chainWide, today, onClose, onSaved, onLogoChanged }: {
    store: StoreView | null;
    chain: ChainDefaults;
    labs: { id: string; name: string }[];
    chainWide: boolean;
    today: string;
    onClose: () => void;
    onSaved: (store: StoreView) => void;
    onLogoChanged: () => void;
  },
) {
  const uid = useId();
  const id = (name: string) => `${uid}-${name}`;
  const adding = !store;
  const [draft, setDraft] = useState<StoreDraft>(store ? toDraft(store) : EMPTY_STORE);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof StoreDraft>(key: K, value: StoreDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      adding
        ? apiRequest<StoreView>("POST", "/api/admin/stores", body)
        : apiRequest<StoreView>("PUT", `/api/admin/stores/${encodeURIComponent(store.id)}`, body),
    onSuccess: (saved) => {
      toast({
        title: "Success",
        description: adding ? `Store ${saved.code} added.` : `Store ${saved.code} saved.`,
        variant: "success",
      });
      onSaved(saved);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) setErrors(error.fields);
      if (isUnauthorized(error)) return;
      toast({
        title: "Error",
        description: error instanceof ApiError && error.status < 500
          ? error.detail
          : "Failed to save the store. Please try again.",
        variant: "destructive",
      });
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const body = toBody(draft, { adding, chainWide });
    const checked = (adding ? newStoreSchema : storeUpdateSchema).safeParse(body);
    if (!checked.success) {
      setErrors(formErrors(checked.error));
      return;
    }
    setErrors({});
    save.mutate(body);
  }

  const text = (key: TextOverride, more: Partial<Parameters<typeof OverrideField>[0]> = {}) => (
    <OverrideField
      id={id(key)}
      name={key}
      label={LABELS[key]}
      value={draft[key]}
      chainValue={chain[key]}
      onChange={(value) => set(key, value)}
      error={errors[key]}
      {...more}
    />
  );
  const days = (draft.openingDays ?? chain.openingDays).split(",").filter(Boolean).map(Number);
  const formId = id("form");

  return (
    <>
      <form id={formId} className="store-form" noValidate onSubmit={onSubmit}>
        <div className="form-grid">
          {adding || chainWide
            ? (
              <SettingsField
                id={id("code")}
                name="code"
                label="Code"
                value={draft.code}
                onChange={(value) => set("code", value)}
                error={errors.code}
                hint="1 to 8 letters or digits (e.g. DT): it names the store in lists and in its intake address (/intake/DT)."
                input={{ autoComplete: "off", spellCheck: false, autoCapitalize: "characters" }}
              />
            )
            : (
              <div className="field">
                <span className="store-static-label">Code</span>
                <strong>{draft.code}</strong>
              </div>
            )}
          {text("name", { input: { autoComplete: "organization" } })}
          {text("phone", { input: { type: "tel", inputMode: "tel" } })}
          {text("email", { input: { type: "email", inputMode: "email", spellCheck: false } })}
          {text("website", { input: { type: "url", inputMode: "url", spellCheck: false } })}
          {text("timeZone", { input: { spellCheck: false } })}
          {text("address", { wide: true, multiline: true })}
          {text("openingTime", { input: { type: "time" } })}
          {text("closingTime", { input: { type: "time" } })}
        </div>

        <fieldset
          className="settings-days store-days"
          aria-describedby={`${id("days-hint")}${errors.openingDays ? ` ${id("days-error")}` : ""}`}
        >
          <legend>Opening days</legend>
          {WEEKDAYS.map((day, n) => (
            <Checkbox
              key={day}
              label={day}
              name="openingDays"
              checked={days.includes(n)}
              onChange={(ev) =>
                set(
                  "openingDays",
                  (ev.target.checked ? [...days, n] : days.filter((d) => d !== n)).sort().join(
                    ",",
                  ),
                )}
            />
          ))}
          <p id={id("days-hint")} className="hint store-field-foot">
            {chainHint(daysText(chain.openingDays), draft.openingDays !== null)}
            {draft.openingDays !== null && (
              <UseChainButton
                label="Opening days"
                onClick={() => set("openingDays", null)}
              />
            )}
          </p>
          {errors.openingDays && (
            <p id={id("days-error")} className="field-error">{errors.openingDays}</p>
          )}
        </fieldset>

        <ClosedDatesField
          id={id("closedDates")}
          value={draft.closedDates ?? chain.closedDates}
          onChange={(dates) => set("closedDates", dates)}
          error={errors.closedDates}
          today={today}
        />
        <p className="hint store-field-foot">
          {draft.closedDates === null
            ? "These are the chain's closed dates; a change here makes them this store's own."
            : "This store's own closed dates."}
          {draft.closedDates !== null && (
            <UseChainButton
              label="Closed dates"
              onClick={() => set("closedDates", null)}
            />
          )}
        </p>

        {labs.length > 0 && (
          <fieldset className="settings-days store-labs" aria-describedby={id("labs-hint")}>
            <legend>Labs this store uses</legend>
            {labs.map((lab) => (
              <Checkbox
                key={lab.id}
                label={lab.name}
                name="labIds"
                checked={draft.labIds.includes(lab.id)}
                onChange={(ev) =>
                  set(
                    "labIds",
                    ev.target.checked
                      ? [...draft.labIds, lab.id]
                      : draft.labIds.filter((l) => l !== lab.id),
                  )}
              />
            ))}
            <p id={id("labs-hint")} className="hint">
              {draft.labIds.length === 0
                ? "None ticked: the store's orders may go to every active lab."
                : "Its orders go to these labs only."}
            </p>
          </fieldset>
        )}

        <div className="form-grid">
          {text("readyEmailSubject", { wide: true })}
          {text("readyEmailBody", { wide: true, multiline: true })}
        </div>

        {store
          ? <StoreLogo store={store} chainLogo={chain.logoUrl} onChanged={onLogoChanged} />
          : (
            <p className="muted store-logo-note">
              Logo: the chain's until the store has one of its own (Edit, once it is added).
            </p>
          )}
      </form>
      <div className="dialog-footer">
        <button type="button" className="btn btn-outline" onClick={onClose}>Cancel</button>
        <button type="submit" form={formId} className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? "Saving..." : adding ? "Add Store" : "Save Store"}
        </button>
      </div>
    </>
  );
}

/**
 * The store's own logo (its pages, printouts, PDFs and e-mails): uploaded
 * here and saved at once, or taken away to show the chain's again.
 */
function StoreLogo(
  { store, chainLogo, onChanged }: {
    store: StoreView;
    chainLogo: string;
    /** The list shows it; the dialog stays open with what was typed in it. */
    onChanged: () => void;
  },
) {
  const [logoUrl, setLogoUrl] = useState(store.logoUrl);
  const path = `/api/admin/stores/${encodeURIComponent(store.id)}/logo`;
  const reset = useMutation({
    mutationFn: () => apiRequest<{ logoUrl: null }>("PUT", path, { logoUrl: null }),
    onSuccess: () => {
      toast({
        title: "Success",
        description: "The store shows the chain's logo.",
        variant: "success",
      });
      setLogoUrl(null);
      onChanged();
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      toast({ title: "Error", description: errorDetail(error), variant: "destructive" });
    },
  });
  return (
    <fieldset className="store-logo">
      <legend>Logo</legend>
      <ImageUpload
        key={logoUrl ?? "chain"}
        which="logo"
        currentUrl={logoUrl ?? chainLogo}
        previewSize={96}
        saveTo={path}
        onSaved={(url) => {
          setLogoUrl(url);
          onChanged();
        }}
      />
      <p className="hint">
        {logoUrl ? "This store's own logo." : "The chain's logo, until this store has its own."}
        {logoUrl && (
          <>
            {" "}
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={reset.isPending}
              onClick={() => reset.mutate()}
            >
              Use chain logo
            </button>
          </>
        )}
      </p>
    </fieldset>
  );
}
