import { useEffect, useRef, useState } from "react";
import {
  type ApiError,
  apiRequest,
  handleUnauthorized,
  isUnauthorized,
} from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { OptionCard } from "../components/tablet/OptionCard.tsx";
import type { TabletBranding, TabletQuote } from "../components/tablet/tablet_view.ts";
import { selectionCountText } from "../components/tablet/selection_count.ts";
import { type KioskStaff, StaffReturn } from "../components/kiosk/StaffReturn.tsx";
import { forget, forgetBoth, keep, restore } from "../components/offline/device_store.ts";
import { type KeyedRequest, keyedRequest, sendKeyed } from "../components/offline/keyed_send.ts";
import { useResend } from "../components/offline/use_resend.ts";
import { SAVED_ON_DEVICE } from "../components/offline/messages.ts";

export interface TabletSelectProps {
  /**
   * The client's view; null on the offline shell (`/tablet/{id}?shell=1`,
   * which the service worker keeps and which carries no client's data): that
   * page shows the view this device kept while it was online, if any.
   */
  quote: TabletQuote | null;
  branding: TabletBranding;
  /**
   * Set when staff handed the tablet to the client (a kiosk session): the
   * quote is read and saved through the kiosk's calls, which answer with this
   * client view only, and staff get back with a password. `staff` is null on
   * the offline shell: no staff name is kept on the device.
   */
  kiosk?: { staff: KioskStaff | null; completed: boolean } | null;
}

/**
 * What the tablet keeps on the device while the page is open (the draft): the
 * view as the client was shown it (client-safe: the server's tablet view, no
 * staff-only data) and the options tapped, so the offline shell can show the
 * selection again. It goes with the other kept work: once the server has the
 * confirmation, when the kiosk session ends, after an hour.
 */
interface TabletDraft {
  quote: TabletQuote;
  selected: string[];
}

const deviceIdOf = (quoteId: string) => `tablet:${quoteId}`;

interface SelectionPayload {
  version: number;
  options: { id: string; isChosen: boolean }[];
}

const KIOSK_ENDED = "This tablet session has ended. Please hand the tablet back to your optician.";

export default function TabletSelect(props: TabletSelectProps) {
  return props.quote
    ? <TabletScreen {...props} quote={props.quote} />
    : <OfflineTablet branding={props.branding} kiosk={props.kiosk} />;
}

/**
 * The offline shell: opened (from the service worker's copy) with no
 * connection, it shows the selection from what this device kept for the quote
 * in the address, or says plainly that the page needs the connection.
 */
function OfflineTablet({ branding, kiosk }: Omit<TabletSelectProps, "quote">) {
  // undefined while the device is being read (the server's rendering too).
  const [kept, setKept] = useState<TabletQuote | null>();
  useEffect(() => {
    const quoteId = decodeURIComponent(location.pathname.split("/")[2] ?? "");
    void restore<TabletDraft, KeyedRequest>(deviceIdOf(quoteId)).then((found) =>
      setKept(found?.draft?.quote ?? null)
    );
  }, []);
  if (kept) return <TabletScreen quote={kept} branding={branding} kiosk={kiosk} />;
  return (
    <section className="card tablet-missing">
      <img src={branding.logoUrl} alt="" className="tablet-logo" width="56" height="56" />
      {kept === undefined ? <h1>Select Your Preferred Options</h1> : (
        <>
          <h1>This Page Needs the Connection</h1>
          <p className="lead">
            This quote is not saved on this tablet. Please try again once the tablet is back on the
            Wi-Fi, or hand the tablet back to your optician.
          </p>
          <a className="btn btn-primary tablet-big-btn" href="">Try Again</a>
        </>
      )}
    </section>
  );
}

function TabletScreen(
  { quote: initialQuote, branding, kiosk = null }: TabletSelectProps & { quote: TabletQuote },
) {
  const quotePath = `/api/quotes/${encodeURIComponent(initialQuote.id)}`;
  // Staff preview: the quote API's tablet view (`?view=tablet`), so this page
  // carries no quote rules; a kiosk has its own read.
  const tabletPath = `${quotePath}?view=tablet`;
  // The quote as the server last gave it: the page's own (or the device's)
  // copy, replaced by the answer to the confirmation, read again only after a
  // 409. No react-query here: the page a client holds stays under its budget
  // without it (docs/architecture.md, Budgets).
  const [quote, setQuote] = useState(initialQuote);

  /** Reads the quote again; null when it could not (the 401 rule applied, off a kiosk). */
  async function reload(): Promise<TabletQuote | null> {
    try {
      const fresh = await apiRequest<TabletQuote>("GET", kiosk ? "/api/kiosk/quote" : tabletPath);
      setQuote(fresh);
      return fresh;
    } catch (error) {
      if (!kiosk) handleUnauthorized(error);
      return null;
    }
  }
  const [confirmed, setConfirmed] = useState(kiosk?.completed ?? false);
  // The page asks the client to tap what they want: options staff ticked for
  // the internal print are not the client's choice, so nothing starts selected
  // (a finished kiosk session, or a quote closed or finalized, shows what was chosen).
  const [selected, setSelected] = useState<ReadonlySet<string>>(
    () =>
      new Set(
        kiosk?.completed || initialQuote.blocker !== null
          ? initialQuote.options.filter((o) => o.isChosen).map((o) => o.id)
          : [],
      ),
  );
  // A kiosk whose session has run out or was already used: why nothing saves.
  const [ended, setEnded] = useState<string | null>(null);
  const [changedElsewhere, setChangedElsewhere] = useState(false);
  const thanksRef = useRef<HTMLHeadingElement>(null);

  // The confirmation until the server has it (kept on the device too).
  const [queued, setQueued] = useState<KeyedRequest | null>(null);
  // Its first try got no answer: the screen says it is kept here for now.
  const [waiting, setWaiting] = useState(false);
  const [restored, setRestored] = useState(false);
  const touched = useRef(false);
  const deviceId = deviceIdOf(initialQuote.id);

  // On load: the taps and a waiting confirmation come back within the hour.
  useEffect(() => {
    let gone = false;
    (async () => {
      const { draft, outbox } = await restore<TabletDraft, KeyedRequest>(deviceId) ?? {};
      if (gone) return;
      if (kiosk?.completed) {
        // The server has this kiosk's work: nothing of it stays on the device.
        await forgetBoth(deviceId);
      } else {
        if (draft?.selected && !touched.current) setSelected(new Set(draft.selected));
        if (outbox) setQueued(outbox);
      }
      if (!gone) setRestored(true);
    })();
    return () => {
      gone = true;
    };
  }, []);

  useEffect(() => {
    if (restored && !confirmed) {
      const draft: TabletDraft = { quote, selected: [...selected] };
      void keep("draft", deviceId, draft);
    }
  }, [selected, restored, quote]);

  // The outbox write of the last confirm: "saved on this device" waits for its commit.
  const keeping = useRef<Promise<unknown>>(Promise.resolve());
  useResend(queued !== null, async () => {
    if (!queued) return true;
    const result = await sendKeyed<TabletQuote>(queued);
    if (!result.sent && result.again) {
      await keeping.current;
      setWaiting(true);
      return false;
    }
    await forget("outbox", deviceId);
    setQueued(null);
    setWaiting(false);
    if (result.sent) {
      await forget("draft", deviceId);
      saved(result.value);
    } else {
      await refusedWith(result.error);
    }
    return true;
  });

  function saved(quote: TabletQuote) {
    setQuote(quote);
    setSelected(new Set(quote.options.filter((o) => o.isChosen).map((o) => o.id)));
    setChangedElsewhere(false);
    setConfirmed(true);
    toast({
      title: "Selection Confirmed",
      description: "Your choices have been saved successfully!",
      variant: "success",
    });
  }

  async function refusedWith(error: ApiError) {
    if (kiosk && (error.status === 401 || error.status === 403)) {
      setEnded(error.status === 403 ? error.detail.replace(/^Forbidden: /, "") : KIOSK_ENDED);
      return;
    }
    if (isUnauthorized(error)) return;
    toast({
      title: "Error",
      description: "Failed to save your selection. Please try again.",
      variant: "destructive",
    });
    // Staff changed the quote behind the tablet: load the current version so
    // trying again can work. The client's taps stay as they are.
    if (error.status === 409) {
      const fresh = await reload();
      if (fresh && !fresh.blocker) setChangedElsewhere(true);
    }
  }

  useEffect(() => {
    if (confirmed) thanksRef.current?.focus();
  }, [confirmed]);

  // Options removed by staff since the page opened no longer count.
  const chosen = quote.options.filter((o) => selected.has(o.id));
  const pending = queued !== null;
  const locked = confirmed || ended !== null || pending || quote.blocker !== null;

  function toggle(id: string) {
    touched.current = true;
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  function confirm() {
    if (chosen.length === 0 || locked) return;
    const payload: SelectionPayload = {
      version: quote.version,
      options: quote.options.map((o) => ({ id: o.id, isChosen: selected.has(o.id) })),
    };
    const job = keyedRequest("PUT", kiosk ? quotePath : tabletPath, payload);
    // Kept as it is sent: a tab that dies mid-request sends it again on load.
    setQueued(job);
    keeping.current = keep("outbox", deviceId, job);
  }

  return (
    <div className="tablet">
      <header className="tablet-head">
        <div className="tablet-brand">
          <img src={branding.logoUrl} alt="" className="tablet-logo" width="56" height="56" />
          <span className="tablet-store">{branding.storeName}</span>
          <span className="tablet-quote-number">{`Quote ${quote.quoteNumber}`}</span>
        </div>
        <h1>Select Your Preferred Options</h1>
        <p className="tablet-for">{`For: ${quote.clientName}`}</p>
        {!confirmed && !ended && !quote.blocker && quote.options.length > 0 && (
          <p className="tablet-hint">Tap an option to select it. You may choose more than one.</p>
        )}
      </header>

      {confirmed && (
        <section className="tablet-thanks" aria-labelledby="tablet-thanks-title">
          <h2 id="tablet-thanks-title" ref={thanksRef} tabIndex={-1}>Thank You!</h2>
          <p>
            {`Your ${chosen.length === 1 ? "choice has" : "choices have"} been saved. `}
            Please hand the tablet back to your optician.
          </p>
          <a className="btn btn-primary tablet-big-btn" href={`/quote/${quote.id}/client-print`}>
            Print Client Copy
          </a>
          {kiosk && <StaffReturn staff={kiosk.staff} open />}
        </section>
      )}

      {quote.blocker && (
        <p className="notice notice-warning tablet-notice" role="status">{quote.blocker}</p>
      )}

      {ended && !confirmed && (
        <div className="tablet-ended">
          <p className="notice notice-warning tablet-notice" role="alert">{ended}</p>
          {kiosk && <StaffReturn staff={kiosk.staff} open />}
        </div>
      )}

      {changedElsewhere && !confirmed && (
        <p className="notice notice-info tablet-notice" role="status">
          This quote was just updated by the store. Please check your options and confirm again.
        </p>
      )}

      {quote.options.length === 0
        ? (
          <p className="tablet-empty">
            No options have been added to this quote yet. Please hand the tablet back to your
            optician.
          </p>
        )
        : (
          <ul
            className={`tablet-grid${confirmed || quote.blocker ? " is-final" : ""}`}
            aria-label="Options"
          >
            {quote.options.map((option) => (
              <OptionCard
                key={option.id}
                option={option}
                selected={selected.has(option.id)}
                locked={locked}
                onToggle={toggle}
              />
            ))}
          </ul>
        )}

      {!confirmed && !ended && !quote.blocker && quote.options.length > 0 && (
        <div className="tablet-actions">
          <p
            className={`tablet-count${chosen.length ? " has-choice" : ""}`}
            role="status"
            data-testid="selection-count"
          >
            {selectionCountText(chosen.length)}
          </p>
          <button
            type="button"
            className="btn btn-primary tablet-big-btn tablet-confirm"
            disabled={chosen.length === 0 || pending}
            aria-busy={pending || undefined}
            onClick={confirm}
          >
            {pending ? "Saving..." : "Confirm Selection(s)"}
          </button>
          {waiting && (
            <p
              className="notice notice-info tablet-notice"
              role="status"
              data-testid="saved-on-device"
            >
              {SAVED_ON_DEVICE}
            </p>
          )}
        </div>
      )}
      {
        // Not while the confirmation waits to be sent: it can only be sent
        // while the kiosk session lasts.
        kiosk && !confirmed && !ended && !pending && (
          <StaffReturn staff={kiosk.staff} open={false} />
        )
      }
    </div>
  );
}
