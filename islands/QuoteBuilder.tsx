import { CreateOrderDialog } from "../components/orders/CreateOrderDialog.tsx";
import { OnlineCard } from "../components/quote_builder/OnlineCard.tsx";
import { useEffect, useMemo, useReducer, useRef, useState } from "react";
import { ApiError, apiRequest, errorDetail, isUnauthorized } from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { Badge } from "../components/Badge.tsx";
import { QUOTE_STATUS_VARIANTS } from "../components/quote_status.ts";
import { QUOTE_STATUS_LABELS } from "../src/quotes/status_labels.ts";
import type { BuilderCatalog } from "../src/catalog/catalog.ts";
import type { QuoteBundle } from "../src/quotes/views.ts";
import type { MeasurementsInput } from "../src/schemas/client.ts";
import {
  closeBlocker,
  editBlocker,
  FINALIZABLE,
  heldBackByExpiry,
  isTempId,
  mayReopen,
  optionTabLabel,
  reactivateBlocker,
  summaryAmounts,
} from "../src/quotes/rules.ts";
import type { Role } from "../db/schema.ts";
import {
  builderReducer,
  draftProblems,
  initialState,
  problemOption,
  savePayload,
  snapshot,
} from "../components/quote_builder/state.ts";
import { OptionTabs, PANEL_ID, tabId } from "../components/quote_builder/OptionTabs.tsx";
import { OptionEditor } from "../components/quote_builder/OptionEditor.tsx";
import { OptionList, QuoteSummary } from "../components/quote_builder/QuoteSummary.tsx";
import {
  CloseQuoteDialog,
  ConfirmDialog,
  MeasurementsDialog,
  ReopenQuoteDialog,
} from "../components/quote_builder/dialogs.tsx";
import { useSegOcSync } from "../components/quote_builder/use_seg_oc_sync.ts";
import { invalidProps } from "../components/quote_builder/fields.tsx";
import { EmailQuoteDialog, type EmailRequest } from "../components/quote_builder/email_dialog.tsx";
import {
  QuoteHistoryPanel,
  quotePanelProps,
  type QuoteView,
  QuoteViewTabs,
} from "../components/quote_builder/QuoteHistory.tsx";
import { ClientEmailError, useQuoteCalls } from "../components/quote_builder/use_quote_calls.ts";
import { QuoteBanners } from "../components/quote_builder/QuoteBanners.tsx";
import { MeasurementsCard } from "../components/quote_builder/MeasurementsCard.tsx";
import { QuoteActions } from "../components/quote_builder/QuoteActions.tsx";

export interface QuoteBuilderProps {
  bundle: QuoteBundle;
  catalog: BuilderCatalog;
  /** Whether the store has set up e-mail; without it the Email button explains why it is off. */
  emailConfigured: boolean;
  /** The signed-in user's role: only an owner is offered Reopen on a finalized quote. */
  userRole: Role;
  /** The order made from this quote: the banner links to it instead of offering another. */
  orderId: string | null;
}

type OpenDialog =
  | { kind: "close" }
  | { kind: "reopen" }
  | { kind: "createOrder" }
  | { kind: "finalize" }
  | { kind: "measurements" }
  | { kind: "email" }
  | { kind: "deleteOption"; optionId: string }
  | null;

function succeeded(message: string) {
  toast({ title: "Success", description: message, variant: "success" });
}

function failed(error: unknown, message: string) {
  if (isUnauthorized(error)) return;
  toast({ title: message, description: errorDetail(error), variant: "destructive" });
}

export default function QuoteBuilder(
  { bundle, catalog, emailConfigured, userRole, orderId }: QuoteBuilderProps,
) {
  const [state, dispatch] = useReducer(builderReducer, bundle, initialState);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [focusField, setFocusField] = useState<string | null>(null);
  const [view, setView] = useState<QuoteView>("quote");
  const { quote, client, clientMeasurements } = state.bundle;
  const { draft } = state;

  const blocker = editBlocker(quote.status);
  const readOnly = blocker !== null;
  const dirty = useMemo(() => snapshot(draft) !== state.saved, [draft, state.saved]);

  const calls = useQuoteCalls(quote.id, client.id);
  const { quotePath } = calls;
  const segOc = useSegOcSync((optionId, value) =>
    calls.segOc.mutateAsync({ optionId, segOc: value })
  );
  const unsaved = dirty || segOc.unsynced;

  // Problems show only once a save has been refused, then follow every change.
  const problems = useMemo(
    () => (state.attempted ? draftProblems(state.version, draft) : []),
    [state.attempted, state.version, draft],
  );
  const errors: Record<string, string> = {};
  for (const p of problems) errors[p.field] ??= p.inline;
  const problemOptions = new Set(
    problems.map(problemOption).filter((i): i is number => i !== undefined),
  );

  const activeIndex = Math.max(0, draft.options.findIndex((o) => o.id === state.activeId));
  const active = draft.options[activeIndex];
  const activeTitle = optionTabLabel(active, activeIndex);

  // ---- Save ----

  const saving = useRef(false);
  function save() {
    if (readOnly || saving.current) return;
    const found = draftProblems(state.version, draft);
    if (found.length) {
      dispatch({ type: "attempted" });
      toast({ title: "Validation Error", description: found[0].message, variant: "destructive" });
      const index = problemOption(found[0]);
      if (index !== undefined) dispatch({ type: "select", id: draft.options[index].id });
      setFocusField(found[0].field);
      return;
    }
    saving.current = true;
    const sent = draft;
    calls.save.mutateAsync(savePayload(state.version, sent)).then(
      (result) => {
        dispatch({ type: "saved", result, sent });
        segOc.settleFailed();
        succeeded("Quote saved successfully!");
      },
      (error) => {
        if (isUnauthorized(error)) return;
        if (error instanceof ApiError && error.status === 409) {
          dispatch({ type: "stale", message: error.detail });
          toast({
            title: "Quote not saved",
            description: `${error.message} Your changes are still on this page.`,
            variant: "destructive",
          });
          return;
        }
        toast({
          title: "Error",
          // Spec section 8: the error's message ("{status}: {body}"), else the fallback.
          description: (error instanceof Error && error.message) ||
            "Failed to save quote. Please try again.",
          variant: "destructive",
        });
      },
    ).finally(() => {
      saving.current = false;
    });
  }

  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== "s") {
        return;
      }
      event.preventDefault();
      // A dialog has its own buttons; saving the quote behind it would surprise.
      if (!document.querySelector("dialog[open]")) saveRef.current();
    }
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);

  useEffect(() => {
    if (!unsaved) return;
    function onBeforeUnload(event: BeforeUnloadEvent) {
      event.preventDefault();
      event.returnValue = "";
    }
    addEventListener("beforeunload", onBeforeUnload);
    return () => removeEventListener("beforeunload", onBeforeUnload);
  }, [unsaved]);

  useEffect(() => {
    if (!focusField) return;
    const el = document.querySelector<HTMLElement>(`[data-field="${CSS.escape(focusField)}"]`);
    el?.focus();
    el?.scrollIntoView({ block: "center" });
    setFocusField(null);
  }, [focusField]);

  // ---- Quote actions ----

  function reactivate() {
    const expectedVersion = state.version + 1;
    calls.reactivate.mutate(undefined, {
      onSuccess: (answer) => {
        dispatch({ type: "server", bundle: answer, expectedVersion });
        succeeded("Quote reactivated successfully!");
      },
      onError: (error) => failed(error, "Failed to reactivate quote"),
    });
  }

  function closeQuote(reason: string) {
    calls.close.mutate(reason, {
      onSuccess: (answer) => {
        dispatch({ type: "server", bundle: answer, expectedVersion: 0, discardEdits: true });
        setDialog(null);
        succeeded("Quote closed successfully!");
      },
      onError: (error) => failed(error, "Failed to close quote"),
    });
  }

  function reopen(reason: string) {
    calls.reopen.mutate(reason, {
      onSuccess: (answer) => {
        dispatch({ type: "server", bundle: answer, expectedVersion: 0, discardEdits: true });
        setDialog(null);
        succeeded("Quote reopened successfully!");
      },
      onError: (error) => failed(error, "Failed to reopen quote"),
    });
  }

  function finalize() {
    calls.finalize.mutate(undefined, {
      onSuccess: (answer) => {
        dispatch({ type: "server", bundle: answer, expectedVersion: 0, discardEdits: true });
        setDialog(null);
        succeeded("Quote finalized successfully!");
      },
      onError: (error) => failed(error, "Failed to finalize quote"),
    });
  }

  function saveMeasurements(input: MeasurementsInput) {
    const wasPending = quote.status === "PENDING_MEASUREMENTS";
    const expectedVersion = state.version + 1;
    calls.measurements.mutate(input, {
      onSuccess: async (measurements) => {
        dispatch({ type: "measurements", measurements });
        setDialog(null);
        succeeded("Client measurements updated successfully");
        // Completing them moves a waiting quote on to Active (a new version).
        if (wasPending && measurements.measurementsComplete) {
          try {
            const fresh = await apiRequest<QuoteBundle>("GET", quotePath);
            dispatch({ type: "server", bundle: fresh, expectedVersion });
          } catch (error) {
            console.error("Could not reload the quote after the measurements changed", error);
          }
        }
      },
      onError: (error) => failed(error, "Failed to update client measurements"),
    });
  }

  function sendEmail(request: EmailRequest) {
    const expectedVersion = state.version + 1;
    calls.email.mutate(request, {
      onSuccess: async (answer) => {
        setDialog(null);
        if (answer.status === "sent") succeeded("Quote emailed successfully!");
        else toast({ title: "Email queued", description: answer.message });
        // A sent e-mail moves the quote to Emailed (a new version); show it.
        try {
          const fresh = await apiRequest<QuoteBundle>("GET", quotePath);
          dispatch({
            type: "server",
            bundle: fresh,
            expectedVersion: answer.status === "sent" ? expectedVersion : state.version,
          });
        } catch (error) {
          console.error("Could not reload the quote after e-mailing it", error);
        }
      },
      onError: (error) => {
        if (error instanceof ClientEmailError) failed(error.cause, "Failed to update client email");
        else failed(error, "Failed to send email");
      },
    });
  }

  function pickOption(id: string) {
    dispatch({ type: "select", id });
    document.getElementById(tabId(id))?.focus();
  }

  const canFinalize = FINALIZABLE.includes(quote.status);
  const canClose = closeBlocker(quote.status) === null;
  const canReactivate = reactivateBlocker(quote) === null;
  const canReopen = mayReopen(userRole, quote.status);
  // E-mail and the tablet wait for Reactivate Quote (the server refuses them too).
  const expiredHold = heldBackByExpiry(quote.status, quote.isExpired);
  // Why Email Quote is off, most pressing first; the hint under it says so.
  // (An expired quote's hint is the one under the links, shared with the tablet.)
  const emailWhyNot = !emailConfigured
    ? "Email is not configured. Quote emailing is disabled until email settings are configured."
    : expiredHold
    ? null
    : unsaved
    ? "Save your changes before emailing the quote."
    : null;
  const busyAction = calls.close.isPending || calls.reactivate.isPending ||
    calls.finalize.isPending ||
    calls.reopen.isPending;
  const quoteNumber = quote.quoteNumber || quote.id.slice(-8);
  const deleting = dialog?.kind === "deleteOption"
    ? draft.options.findIndex((o) => o.id === dialog.optionId)
    : -1;
  const segOcStatus = isTempId(active.id) ? undefined : segOc.status[active.id];

  return (
    <div className="qb">
      <header className="qb-head">
        <div>
          <h1>Quote Builder</h1>
          <p className="muted qb-subtitle">
            Managing quote for {client.firstName} {client.lastName}
            <a className="link qb-client-link" href={`/clients?id=${client.id}`}>
              Client details
            </a>
          </p>
        </div>
        {
          /* In the header, not a card of its own: the first option's editor
            then starts on the first screen of a 1024×768 tablet. */
        }
        <div className="field qb-optician">
          <label htmlFor="qb-optician">
            Optician's Name<span className="required" aria-hidden="true">*</span>
          </label>
          <input
            id="qb-optician"
            data-field="opticianName"
            value={draft.opticianName}
            maxLength={100}
            autoComplete="off"
            required
            disabled={readOnly}
            onChange={(e) => {
              const opticianName = e.target.value;
              dispatch({ type: "draft", update: (d) => ({ ...d, opticianName }) });
            }}
            {...invalidProps("qb-optician", errors.opticianName)}
          />
          {errors.opticianName && (
            <p id="qb-optician-error" className="field-error">{errors.opticianName}</p>
          )}
        </div>
        <div className="qb-head-meta">
          <span className="qb-number">
            Quote <strong data-testid="quote-number">{quoteNumber}</strong>
          </span>
          <span data-testid="quote-status">
            <Badge variant={QUOTE_STATUS_VARIANTS[quote.status]}>
              {QUOTE_STATUS_LABELS[quote.status]}
            </Badge>
          </span>
          {quote.isExpired && <Badge variant="destructive">Expired</Badge>}
        </div>
      </header>

      <QuoteViewTabs view={view} onSelect={setView} />
      <div className="qb-layout tabs-panel" {...quotePanelProps("quote", view)}>
        <div className="qb-main">
          <QuoteBanners
            quote={quote}
            blocker={blocker}
            canReopen={canReopen}
            canReactivate={canReactivate}
            busy={busyAction}
            reactivating={calls.reactivate.isPending}
            onReopen={() => setDialog({ kind: "reopen" })}
            orderId={orderId}
            onCreateOrder={() => setDialog({ kind: "createOrder" })}
            onReactivate={reactivate}
            onEditMeasurements={() => setDialog({ kind: "measurements" })}
          />

          <section className="card qb-card qb-options" aria-labelledby="qb-options-title">
            <div className="qb-options-head">
              <h2 id="qb-options-title">Options</h2>
              <button
                type="button"
                className="btn btn-outline"
                onClick={() => dispatch({ type: "addOption" })}
                disabled={readOnly}
              >
                + Add Option
              </button>
            </div>
            <OptionTabs
              options={draft.options}
              activeId={active.id}
              problemOptions={problemOptions}
              onSelect={(id) => dispatch({ type: "select", id })}
            />
            <div
              role="tabpanel"
              id={PANEL_ID}
              aria-labelledby={tabId(active.id)}
              className="qb-panel"
            >
              <fieldset className="qb-fieldset" disabled={readOnly}>
                <OptionEditor
                  key={active.id}
                  option={active}
                  index={activeIndex}
                  title={activeTitle}
                  catalog={catalog}
                  errors={errors}
                  onChange={(update) => dispatch({ type: "option", id: active.id, update })}
                  canDelete={draft.options.length > 1}
                  onDelete={() => setDialog({ kind: "deleteOption", optionId: active.id })}
                />
              </fieldset>
            </div>
          </section>

          <MeasurementsCard
            quoteId={quote.id}
            carryOver={state.bundle.carryOver ?? null}
            measurements={clientMeasurements}
            readOnly={readOnly}
            option={active}
            optionIndex={activeIndex}
            optionTitle={activeTitle}
            segOcError={errors[`options.${activeIndex}.segOc`]}
            segOcStatus={segOcStatus}
            onEdit={() => setDialog({ kind: "measurements" })}
            onSegOc={(value) => {
              dispatch({ type: "option", id: active.id, update: (o) => ({ ...o, segOc: value }) });
              if (!isTempId(active.id)) segOc.schedule(active.id, value);
            }}
          />
        </div>

        <aside className="qb-side" aria-label="Quote summary and actions">
          <section className="card qb-card">
            <div className="field">
              <label id="qb-notes-title" htmlFor="qb-internal-notes" className="qb-card-label">
                Internal Notes
              </label>
              <textarea
                id="qb-internal-notes"
                rows={4}
                maxLength={10_000}
                value={draft.internalNotes}
                disabled={readOnly}
                aria-describedby="qb-internal-notes-hint"
                onChange={(e) => {
                  const internalNotes = e.target.value;
                  dispatch({ type: "draft", update: (d) => ({ ...d, internalNotes }) });
                }}
              />
              <p id="qb-internal-notes-hint" className="hint">
                Staff only: never shown on the client copy.
              </p>
            </div>
          </section>

          <section className="card qb-card" aria-labelledby="qb-summary-title">
            <h2 id="qb-summary-title">Quote Summary</h2>
            <QuoteSummary
              option={active}
              index={activeIndex}
              problem={errors[`options.${activeIndex}.subtotal`] ??
                errors[`options.${activeIndex}.total`] ?? errors.total}
            />
            <QuoteActions
              quote={quote}
              readOnly={readOnly}
              stale={state.stale}
              unsaved={unsaved}
              saving={calls.save.isPending}
              optionTitle={activeTitle}
              optionTotalCents={summaryAmounts(active).total}
              canFinalize={canFinalize}
              canClose={canClose}
              emailWhyNot={emailWhyNot}
              expiredHold={expiredHold}
              busy={busyAction}
              onSave={save}
              onFinalize={() => setDialog({ kind: "finalize" })}
              onEmail={() => setDialog({ kind: "email" })}
              onClose={() => setDialog({ kind: "close" })}
            />
          </section>

          <section className="card qb-card" aria-labelledby="qb-all-options-title">
            <h2 id="qb-all-options-title">All Options</h2>
            <OptionList options={draft.options} activeId={active.id} onPick={pickOption} />
          </section>
          <OnlineCard quoteId={quote.id} version={quote.version} />
        </aside>
      </div>
      <QuoteHistoryPanel quoteId={quote.id} view={view} />

      <ConfirmDialog
        open={deleting >= 0}
        title="Delete Option"
        description={deleting >= 0
          ? `Delete ${optionTabLabel(draft.options[deleting], deleting)}? ` +
            "It is removed from the quote when you save."
          : ""}
        confirmLabel="Delete Option"
        danger
        onClose={() => setDialog(null)}
        onConfirm={() => {
          if (dialog?.kind === "deleteOption") {
            dispatch({ type: "deleteOption", id: dialog.optionId });
          }
          setDialog(null);
        }}
      />
      <ConfirmDialog
        open={dialog?.kind === "finalize"}
        title="Finalize Quote"
        description="A finalized quote can no longer be changed."
        confirmLabel="Finalize"
        busyLabel="Finalizing..."
        busy={calls.finalize.isPending}
        onClose={() => setDialog(null)}
        onConfirm={finalize}
      />
      <CloseQuoteDialog
        open={dialog?.kind === "close"}
        busy={calls.close.isPending}
        unsaved={unsaved}
        onClose={() => setDialog(null)}
        onSubmit={closeQuote}
      />
      <ReopenQuoteDialog
        open={dialog?.kind === "reopen"}
        busy={calls.reopen.isPending}
        onClose={() => setDialog(null)}
        onSubmit={reopen}
      />
      <CreateOrderDialog
        open={dialog?.kind === "createOrder"}
        options={bundle.options}
        quoteId={quote.id}
        quoteNumber={quote.quoteNumber}
        storeId={quote.storeId}
        clientId={client.id}
        onClose={() => setDialog(null)}
      />
      <EmailQuoteDialog
        open={dialog?.kind === "email"}
        busy={calls.email.isPending}
        clientEmail={client.email}
        clientName={`${client.firstName} ${client.lastName}`}
        onClose={() => setDialog(null)}
        onSubmit={sendEmail}
      />
      <MeasurementsDialog
        open={dialog?.kind === "measurements"}
        clientName={`${client.firstName} ${client.lastName}`}
        measurements={clientMeasurements}
        busy={calls.measurements.isPending}
        onClose={() => setDialog(null)}
        onSubmit={saveMeasurements}
      />
    </div>
  );
}
