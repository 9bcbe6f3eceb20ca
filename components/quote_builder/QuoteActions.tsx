// The actions under the builder's summary: save (with the unsaved-changes
// state), finalize, e-mail, print, the tablet, hand to the client and close.
// Each says why it is off when it is.
import type { QuoteBundle } from "../../src/quotes/views.ts";
import { EXPIRED_ACTIONS_HINT } from "../../src/quotes/rules.ts";
import { handOverBlocker } from "../../src/kiosk/scope.ts";
import { HandToClientButton } from "../kiosk/HandToClientButton.tsx";
import { SummaryMoney } from "./QuoteSummary.tsx";

export function QuoteActions(
  {
    quote,
    readOnly,
    stale,
    unsaved,
    saving,
    optionTitle,
    optionTotalCents,
    canFinalize,
    canClose,
    emailWhyNot,
    expiredHold,
    busy,
    onSave,
    onFinalize,
    onEmail,
    onClose,
  }: {
    quote: QuoteBundle["quote"];
    readOnly: boolean;
    /** Why the last save was refused as stale, or null. */
    stale: string | null;
    unsaved: boolean;
    saving: boolean;
    optionTitle: string;
    optionTotalCents: number | null;
    canFinalize: boolean;
    canClose: boolean;
    /** Why Email Quote is off (besides an expired quote), or null. */
    emailWhyNot: string | null;
    /** The quote expired: e-mail and the tablet wait for Reactivate Quote. */
    expiredHold: boolean;
    /** A status action is under way. */
    busy: boolean;
    onSave: () => void;
    onFinalize: () => void;
    onEmail: () => void;
    onClose: () => void;
  },
) {
  return (
    <div className="qb-actions">
      {stale && (
        <div className="notice qb-notice-danger" role="alert">
          <p>
            <strong>Not saved.</strong> {stale}
          </p>
          <p>
            Your changes are still on this page. Reloading shows the latest version without them:
            note down what you need first.
          </p>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => location.reload()}
          >
            Reload Quote
          </button>
        </div>
      )}
      {!readOnly && (
        <div className="qb-savebar">
          <p className="qb-savebar-total" aria-hidden="true">
            <span>{optionTitle}</span>
            <strong>
              <SummaryMoney cents={optionTotalCents} />
            </strong>
          </p>
          <button
            type="button"
            className="btn btn-primary btn-block btn-lg"
            onClick={onSave}
            disabled={saving}
            aria-describedby="qb-save-state"
          >
            {saving ? "Saving..." : "Save Quote"}
          </button>
          <p id="qb-save-state" className="qb-save-state" aria-live="polite">
            {unsaved
              ? <span className="qb-unsaved">Unsaved changes</span>
              : <span>All changes saved</span>}
            <kbd className="qb-kbd">Ctrl+S</kbd>
          </p>
        </div>
      )}
      {canFinalize && (
        <>
          <button
            type="button"
            className="btn btn-outline btn-block"
            onClick={onFinalize}
            disabled={unsaved || busy}
            aria-describedby={unsaved ? "qb-finalize-why" : undefined}
          >
            Finalize
          </button>
          {unsaved && (
            <p id="qb-finalize-why" className="hint">
              Save your changes before finalizing.
            </p>
          )}
        </>
      )}
      {quote.status !== "CLOSED" && (
        <>
          <button
            type="button"
            className="btn btn-outline btn-block"
            onClick={onEmail}
            disabled={!!emailWhyNot || expiredHold || busy}
            aria-describedby={emailWhyNot
              ? "qb-email-why"
              : expiredHold
              ? "qb-expired-why"
              : undefined}
          >
            Email Quote
          </button>
          {emailWhyNot && <p id="qb-email-why" className="hint">{emailWhyNot}</p>}
        </>
      )}
      <div className="qb-links">
        <a className="btn btn-outline" href={`/print/${quote.id}`}>Print</a>
        {expiredHold
          ? (
            // The client could not confirm an expired quote there.
            <button
              type="button"
              className="btn btn-outline"
              disabled
              aria-describedby="qb-expired-why"
            >
              Open Tablet View
            </button>
          )
          : (
            <a
              className="btn btn-outline"
              href={`/tablet/${quote.id}`}
              target="_blank"
              rel="noopener"
            >
              Open Tablet View
            </a>
          )}
      </div>
      {expiredHold && (
        <p id="qb-expired-why" className="hint" data-testid="expired-actions-hint">
          {EXPIRED_ACTIONS_HINT}
        </p>
      )}
      {unsaved && <p className="hint">Print and the tablet show the last saved version.</p>}
      {!readOnly && (
        <HandToClientButton
          target={{ kind: "QUOTE", quoteId: quote.id }}
          className="btn btn-outline btn-block"
          disabledReason={unsaved
            ? "Save your changes before handing the quote to the client."
            : handOverBlocker(quote)}
        />
      )}
      {canClose && (
        <button
          type="button"
          className="btn btn-ghost btn-block qb-danger-text"
          onClick={onClose}
          disabled={busy}
        >
          Close Quote
        </button>
      )}
    </div>
  );
}
