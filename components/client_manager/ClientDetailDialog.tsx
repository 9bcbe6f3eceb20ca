import { MeasurementsFields, measurementsFormValues } from "../MeasurementsFields.tsx";
import { type FormEvent, Fragment, useEffect, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { Dialog } from "../Dialog.tsx";
import { Badge } from "../Badge.tsx";
import { useValidatedForm } from "../use_validated_form.ts";
import { ApiError, apiRequest } from "../api_client.ts";
import { QUOTE_STATUS_VARIANTS } from "../quote_status.ts";
import { QUOTE_STATUS_LABELS } from "../../src/quotes/status_labels.ts";
import { type MeasurementsInput, measurementsSchema } from "../../src/schemas/client.ts";
import {
  type ClientDetail,
  type ClientMeasurementsView,
  shortId,
} from "../../src/clients/views.ts";
import { CalendarDate, DateText, formatAddress, fullName } from "./format.tsx";
import { ClientDetailTabs } from "./ClientHistory.tsx";
import { PrescriptionsSection } from "./PrescriptionsSection.tsx";
import { ClientOrdersSection } from "../orders/ClientOrdersSection.tsx";
import { HomeStoreField } from "./HomeStoreField.tsx";
import {
  failureToast,
  successToast,
  useClientDetail,
  useCreateQuote,
  useInvalidateClient,
} from "./queries.ts";
import { FormActions } from "../FormActions.tsx";

const LOAD_FAILED = "Failed to load client details";

export function ClientDetailDialog(
  { clientId, onClose, initialDetail }: {
    clientId: string | null;
    onClose: () => void;
    initialDetail?: ClientDetail;
  },
) {
  const detail = useClientDetail(clientId, initialDetail);
  const createQuote = useCreateQuote();
  const error = detail.error;
  useEffect(() => {
    if (error) failureToast(error, LOAD_FAILED);
  }, [error]);

  const client = detail.data;
  const quoteBusy = createQuote.isPending || createQuote.isSuccess;
  return (
    <Dialog
      open={clientId !== null}
      onClose={onClose}
      title={client ? fullName(client) : "Client Details"}
      description={client
        ? (
          <>
            Client since <DateText iso={client.createdAt} />
          </>
        )
        : undefined}
      size="lg"
      footer={client && (
        <>
          <button type="button" className="btn btn-outline" onClick={onClose}>Close</button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={quoteBusy}
            onClick={() => createQuote.mutate(client.id)}
          >
            {quoteBusy ? "Creating..." : "New Quote"}
          </button>
        </>
      )}
    >
      {client
        ? (
          <ClientDetailTabs clientId={client.id}>
            <ClientDetailBody client={client} />
          </ClientDetailTabs>
        )
        : detail.isError
        ? (
          <div className="stack">
            <p className="field-error" role="alert">{LOAD_FAILED}</p>
            <div className="dialog-footer">
              <button type="button" className="btn btn-outline" onClick={onClose}>Close</button>
            </div>
          </div>
        )
        : <p className="loading" role="status">Loading...</p>}
    </Dialog>
  );
}

function Yes({ value }: { value: boolean }) {
  return value ? <Badge variant="success">Yes</Badge> : <Badge variant="secondary">No</Badge>;
}

function ClientDetailBody({ client }: { client: ClientDetail }) {
  const address = formatAddress(client);
  return (
    <div className="client-detail">
      <section className="detail-section" aria-labelledby="detail-contact">
        <h3 id="detail-contact">Contact Information</h3>
        <dl className="dl">
          <dt>Email</dt>
          <dd>{client.email || "—"}</dd>
          <dt>Mobile Phone</dt>
          <dd>{client.mobilePhone || "—"}</dd>
          <dt>Home Phone</dt>
          <dd>{client.homePhone || "—"}</dd>
          <dt>Date of Birth</dt>
          <dd>
            <CalendarDate value={client.dob} />
          </dd>
          <dt>Address</dt>
          <dd>{address || "—"}</dd>
          {client.heardHow && (
            <>
              <dt>Heard About Us</dt>
              <dd>{client.heardHow}</dd>
            </>
          )}
        </dl>
        {client.stores && <HomeStoreField client={client} stores={client.stores} />}
      </section>
      <section className="detail-section" aria-labelledby="detail-consent">
        <h3 id="detail-consent">Communication Consent</h3>
        <dl className="dl">
          <dt>SMS</dt>
          <dd>
            <Yes value={client.smsConsent} />
          </dd>
          <dt>Email</dt>
          <dd>
            <Yes value={client.emailConsent} />
          </dd>
          <dt>Consent Date</dt>
          <dd>
            <DateText iso={client.consentDate} />
          </dd>
        </dl>
      </section>
      <MeasurementsSection clientId={client.id} measurements={client.measurements} />
      <PrescriptionsSection clientId={client.id} initial={client.prescriptions} />
      <section className="detail-section detail-section-wide" aria-labelledby="detail-quotes">
        <h3 id="detail-quotes">Quotes</h3>
        {client.quotes.length === 0
          ? <p className="muted">No quotes yet.</p>
          : (
            <ul className="client-quote-rows">
              {client.quotes.map((quote) => (
                <li key={quote.id} className="client-quote-row">
                  <span className="client-quote-row-id">
                    <code title={quote.id}>{shortId(quote.id)}</code>
                    {quote.quoteNumber && <span className="muted">{quote.quoteNumber}</span>}
                    {client.stores && (
                      <span className="store-tag" title="The store it was made in">
                        {quote.storeCode}
                      </span>
                    )}
                  </span>
                  <Badge variant={QUOTE_STATUS_VARIANTS[quote.status] ?? "secondary"}>
                    {QUOTE_STATUS_LABELS[quote.status] ?? quote.status}
                  </Badge>
                  <span className="client-quote-row-date">
                    <DateText iso={quote.createdAt} />
                  </span>
                  <a
                    className="btn btn-outline btn-sm"
                    href={`/quote/${quote.id}`}
                    aria-label={`View quote ${shortId(quote.id)}`}
                  >
                    View
                  </a>
                </li>
              ))}
            </ul>
          )}
      </section>
      <ClientOrdersSection orders={client.orders ?? []} chain={!!client.stores} />
    </div>
  );
}

const pdText = (value: string) => Number(value) > 0 ? `${value} mm` : "Not measured";

function MeasurementsSection(
  { clientId, measurements }: { clientId: string; measurements: ClientMeasurementsView },
) {
  const [editing, setEditing] = useState(false);
  const extras = Object.entries(measurements.extras ?? {});
  return (
    <section className="detail-section detail-section-wide" aria-labelledby="detail-measurements">
      <div className="detail-section-head">
        <h3 id="detail-measurements">Baseline Measurements</h3>
        {measurements.measurementsComplete
          ? <Badge variant="success">Complete</Badge>
          : <Badge variant="warning">Incomplete</Badge>}
        {!editing && (
          <button
            type="button"
            className="btn btn-outline btn-sm detail-section-action"
            onClick={() => setEditing(true)}
          >
            Edit Measurements
          </button>
        )}
      </div>
      {editing
        ? (
          <MeasurementsForm
            clientId={clientId}
            measurements={measurements}
            onDone={() => setEditing(false)}
          />
        )
        : (
          <dl className="dl">
            <dt>PD Distance</dt>
            <dd>{pdText(measurements.pdBinocular)}</dd>
            <dt>PD Near</dt>
            <dd>{pdText(measurements.pdNear)}</dd>
            {extras.map(([name, value]) => (
              <Fragment key={name}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </Fragment>
            ))}
          </dl>
        )}
    </section>
  );
}

function MeasurementsForm(
  { clientId, measurements, onDone }: {
    clientId: string;
    measurements: ClientMeasurementsView;
    onDone: () => void;
  },
) {
  const invalidate = useInvalidateClient();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useValidatedForm(measurementsSchema, measurementsFormValues(measurements));
  const save = useMutation({
    mutationFn: (input: MeasurementsInput) =>
      apiRequest("PUT", `/api/clients/${clientId}/measurements`, input),
    onSuccess: async () => {
      successToast("Client measurements updated successfully");
      await invalidate(clientId);
      onDone();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) {
        if (error.fields) form.setErrors(error.fields);
        else setFormError(error.detail);
      }
      failureToast(error, "Failed to update measurements");
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    setFormError(null);
    const data = form.validate(event.currentTarget);
    if (data) save.mutate(data);
  }

  return (
    <form className="stack measurements-form" onSubmit={onSubmit} noValidate>
      <MeasurementsFields
        values={form.values}
        errors={form.errors}
        onChange={form.setField}
        disabled={save.isPending}
      />
      {formError && <p className="field-error" role="alert">{formError}</p>}
      <FormActions label="Save Measurements" busy={save.isPending} onCancel={onDone} />
    </form>
  );
}
