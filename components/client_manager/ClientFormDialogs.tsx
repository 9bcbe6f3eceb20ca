import { type FormEvent, useId } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Dialog } from "../Dialog.tsx";
import { ClientFields } from "../ClientFields.tsx";
import { ConsentOption } from "../ConsentOption.tsx";
import { useValidatedForm } from "../use_validated_form.ts";
import { ApiError, apiRequest } from "../api_client.ts";
import {
  clientFieldsSchema,
  type ClientFormValues,
  type CreateClientInput,
  createClientSchema,
  type UpdateClientInput,
} from "../../src/schemas/client.ts";
import { emptyNewClientForm } from "../../src/schemas/client_form.ts";
import type {
  ClientDetail,
  ConsentTexts,
  CreatedClient,
  HeardHowOption,
} from "../../src/clients/views.ts";
import {
  CLIENT_LISTS_KEY,
  failureToast,
  goTo,
  successToast,
  useClientDetail,
  useConsentTexts,
  useHeardHowOptions,
  useInvalidateClient,
} from "./queries.ts";
import { fullName } from "./format.tsx";

const SAVE_FAILED = "Failed to save client. Please try again.";

/**
 * One consent record per channel the client opted into, when there is both a
 * number or address to reach and a statement they agreed to. The client
 * already exists: a failure here must not undo or block it, so it is logged.
 */
async function recordConsents(clientId: string, input: CreateClientInput, texts?: ConsentTexts) {
  const records = [];
  const smsTarget = input.mobilePhone || input.homePhone;
  if (input.smsConsent && smsTarget && texts?.smsConsentText) {
    records.push({ type: "SMS", statement: texts.smsConsentText, target: smsTarget });
  }
  if (input.emailConsent && input.email && texts?.emailConsentText) {
    records.push({ type: "EMAIL", statement: texts.emailConsentText, target: input.email });
  }
  await Promise.all(records.map(async (record) => {
    try {
      await apiRequest("POST", "/api/consent", { clientId, ...record, consentGiven: true });
    } catch (error) {
      console.error(`Could not record ${record.type} consent for client ${clientId}`, error);
    }
  }));
}

/** Server-side field messages go under their fields, like the form's own. */
function serverFieldErrors(error: unknown): Record<string, string> | undefined {
  return error instanceof ApiError && error.status === 400 && error.fields
    ? error.fields
    : undefined;
}

export function AddClientDialog(
  { open, onClose, initialHeardHow, initialConsentTexts }: {
    open: boolean;
    onClose: () => void;
    initialHeardHow?: HeardHowOption[];
    initialConsentTexts?: ConsentTexts;
  },
) {
  const formId = useId();
  const queryClient = useQueryClient();
  const heardHow = useHeardHowOptions(initialHeardHow);
  const consentTexts = useConsentTexts(initialConsentTexts);
  const form = useValidatedForm(createClientSchema, emptyNewClientForm);
  const create = useMutation({
    mutationFn: async (input: CreateClientInput) => {
      const created = await apiRequest<CreatedClient>("POST", "/api/clients", input);
      await recordConsents(created.client.id, input, consentTexts.data);
      return created;
    },
    onSuccess: (created) => {
      queryClient.invalidateQueries({ queryKey: CLIENT_LISTS_KEY });
      successToast("Client created successfully!");
      // The spec sends a new client straight to the quote created with it.
      goTo(`/quote/${created.quote.id}`);
    },
    onError: (error) => {
      const fields = serverFieldErrors(error);
      if (fields) form.setErrors(fields);
      failureToast(error, SAVE_FAILED);
    },
  });
  const busy = create.isPending || create.isSuccess;

  // Escape, the × and a stray tap on the backdrop keep what was typed for
  // when the dialog is opened again; only Cancel throws it away.
  function close() {
    if (!busy) onClose();
  }

  function cancel() {
    if (busy) return;
    form.reset(emptyNewClientForm);
    create.reset();
    onClose();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const data = form.validate(event.currentTarget);
    if (!data) return;
    // Text typed for Other is kept while another choice is tried, but only
    // sent with Other.
    create.mutate({
      ...data,
      heardHowText: data.heardHowId === "other" ? data.heardHowText : null,
    });
  }

  const v = form.values;
  const texts = consentTexts.data;
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Add New Client"
      description="Enter the client's details. A new quote is started for them when you save."
      size="lg"
      footer={
        <>
          <button type="button" className="btn btn-outline" onClick={cancel} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={busy}>
            {busy ? "Saving..." : "Add Client"}
          </button>
        </>
      }
    >
      <form id={formId} className="stack client-form" onSubmit={onSubmit} noValidate>
        <ClientFields
          values={v}
          errors={form.errors}
          onChange={(field, value) => form.setField(field, value)}
          disabled={busy}
          idPrefix="add-client"
          variant="plain"
        />
        <section className="form-section">
          <h2 id="add-client-heard">How did you hear about us?</h2>
          <div className="form-grid">
            <div className="field">
              <select
                id="add-client-heardHowId"
                aria-labelledby="add-client-heard"
                name="heardHowId"
                value={v.heardHowId}
                onChange={(e) => form.setField("heardHowId", e.target.value)}
                disabled={busy}
                aria-invalid={form.errors.heardHowId ? true : undefined}
                aria-describedby={form.errors.heardHowId
                  ? "add-client-heardHowId-error"
                  : undefined}
              >
                <option value="">
                  {heardHow.isLoading ? "Loading..." : "Select an option"}
                </option>
                {heardHow.data?.map((option) => (
                  <option key={option.id} value={option.id}>{option.label}</option>
                ))}
                <option value="other">Other</option>
              </select>
              {form.errors.heardHowId && (
                <p id="add-client-heardHowId-error" className="field-error">
                  {form.errors.heardHowId}
                </p>
              )}
            </div>
            {v.heardHowId === "other" && (
              <div className="field">
                <label htmlFor="add-client-heardHowText">Please specify</label>
                <input
                  id="add-client-heardHowText"
                  name="heardHowText"
                  value={v.heardHowText}
                  onChange={(e) => form.setField("heardHowText", e.target.value)}
                  disabled={busy}
                  aria-invalid={form.errors.heardHowText ? true : undefined}
                />
                {form.errors.heardHowText && (
                  <p className="field-error">{form.errors.heardHowText}</p>
                )}
              </div>
            )}
          </div>
        </section>
        <section className="form-section" aria-labelledby="add-client-consent">
          <h2 id="add-client-consent">Communication Preferences</h2>
          <div className="consent-list">
            <ConsentOption
              id="add-client-smsConsent"
              name="smsConsent"
              title="Text messages (SMS)"
              statement={texts?.smsConsentText}
              checked={v.smsConsent}
              onChange={(checked) => form.setField("smsConsent", checked)}
              disabled={busy}
              missing={v.smsConsent && !v.mobilePhone.trim() && !v.homePhone.trim()
                ? "Add a mobile or home phone number to record SMS consent."
                : undefined}
            />
            <ConsentOption
              id="add-client-emailConsent"
              name="emailConsent"
              title="Email"
              statement={texts?.emailConsentText}
              checked={v.emailConsent}
              onChange={(checked) => form.setField("emailConsent", checked)}
              disabled={busy}
              missing={v.emailConsent && !v.email.trim()
                ? "Add an email address to record email consent."
                : undefined}
            />
          </div>
        </section>
      </form>
    </Dialog>
  );
}

function toFormValues(client: ClientDetail): ClientFormValues {
  return {
    firstName: client.firstName,
    middleName: client.middleName ?? "",
    lastName: client.lastName,
    dob: client.dob?.slice(0, 10) ?? "",
    email: client.email ?? "",
    homePhone: client.homePhone ?? "",
    mobilePhone: client.mobilePhone ?? "",
    address1: client.address1 ?? "",
    address2: client.address2 ?? "",
    city: client.city ?? "",
    state: client.state ?? "",
    zip: client.zip ?? "",
  };
}

/** Edit: the personal and address fields only, prefilled from the client's record. */
export function EditClientDialog(
  { clientId, onClose, initialDetail }: {
    clientId: string | null;
    onClose: () => void;
    initialDetail?: ClientDetail;
  },
) {
  const detail = useClientDetail(clientId, initialDetail);
  return (
    <Dialog
      open={clientId !== null}
      onClose={onClose}
      title="Edit Client"
      description={detail.data ? `Update ${fullName(detail.data)}'s details.` : undefined}
      size="lg"
    >
      {detail.data
        ? <EditClientForm key={detail.data.id} client={detail.data} onClose={onClose} />
        : detail.isError
        ? <p className="field-error" role="alert">Failed to load client details</p>
        : <p className="loading" role="status">Loading...</p>}
    </Dialog>
  );
}

function EditClientForm({ client, onClose }: { client: ClientDetail; onClose: () => void }) {
  const formId = useId();
  const invalidate = useInvalidateClient();
  const form = useValidatedForm(clientFieldsSchema, toFormValues(client));
  const update = useMutation({
    mutationFn: (input: UpdateClientInput) =>
      apiRequest<ClientDetail>("PUT", `/api/clients/${client.id}`, input),
    onSuccess: async () => {
      successToast("Client updated successfully!");
      await invalidate(client.id);
      onClose();
    },
    onError: (error) => {
      const fields = serverFieldErrors(error);
      if (fields) form.setErrors(fields);
      failureToast(error, SAVE_FAILED);
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending) return;
    const data = form.validate(event.currentTarget);
    if (data) update.mutate(data);
  }

  return (
    <>
      <form id={formId} className="stack client-form" onSubmit={onSubmit} noValidate>
        <ClientFields
          values={form.values}
          errors={form.errors}
          onChange={(field, value) => form.setField(field, value)}
          disabled={update.isPending}
          idPrefix="edit-client"
          variant="plain"
        />
      </form>
      <div className="dialog-footer">
        <button
          type="button"
          className="btn btn-outline"
          onClick={onClose}
          disabled={update.isPending}
        >
          Cancel
        </button>
        <button
          type="submit"
          form={formId}
          className="btn btn-primary"
          disabled={update.isPending}
        >
          {update.isPending ? "Saving..." : "Save Changes"}
        </button>
      </div>
    </>
  );
}
