import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, apiRequest, isUnauthorized } from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { OptionCard } from "../components/tablet/OptionCard.tsx";
import {
  selectionCountText,
  type TabletBranding,
  type TabletQuote,
  tabletQuote,
} from "../components/tablet/tablet_view.ts";
import type { QuoteBundle } from "../src/quotes/views.ts";
import { type KioskStaff, StaffReturn } from "../components/kiosk/StaffReturn.tsx";

export interface TabletSelectProps {
  quote: TabletQuote;
  branding: TabletBranding;
  /**
   * Set when staff handed the tablet to the client (a kiosk session): the
   * quote is read and saved through the kiosk's calls, which answer with this
   * client view only, and staff get back with a password.
   */
  kiosk?: { staff: KioskStaff; completed: boolean } | null;
}

interface SelectionPayload {
  version: number;
  options: { id: string; isChosen: boolean }[];
}

const tabletKey = (id: string) => ["tablet-quote", id] as const;

const KIOSK_ENDED = "This tablet session has ended. Please hand the tablet back to your optician.";

export default function TabletSelect(
  { quote: initialQuote, branding, kiosk = null }: TabletSelectProps,
) {
  const queryClient = useQueryClient();
  const key = tabletKey(initialQuote.id);
  const quotePath = `/api/quotes/${encodeURIComponent(initialQuote.id)}`;
  const { data: quote, refetch } = useQuery({
    queryKey: key,
    queryFn: async () =>
      kiosk
        ? await apiRequest<TabletQuote>("GET", "/api/kiosk/quote")
        : tabletQuote(await apiRequest<QuoteBundle>("GET", quotePath)),
    initialData: initialQuote,
  });
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

  const save = useMutation({
    mutationFn: async (payload: SelectionPayload) =>
      kiosk
        ? await apiRequest<TabletQuote>("PUT", quotePath, payload)
        : tabletQuote(await apiRequest<QuoteBundle>("PUT", quotePath, payload)),
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved);
      setSelected(new Set(saved.options.filter((o) => o.isChosen).map((o) => o.id)));
      setChangedElsewhere(false);
      setConfirmed(true);
      toast({
        title: "Selection Confirmed",
        description: "Your choices have been saved successfully!",
        variant: "success",
      });
    },
    onError: async (error) => {
      if (kiosk && error instanceof ApiError && (error.status === 401 || error.status === 403)) {
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
      if (error instanceof ApiError && error.status === 409) {
        const fresh = await refetch();
        if (fresh.data && !fresh.data.blocker) setChangedElsewhere(true);
      }
    },
  });

  useEffect(() => {
    if (confirmed) thanksRef.current?.focus();
  }, [confirmed]);

  // Options removed by staff since the page opened no longer count.
  const chosen = quote.options.filter((o) => selected.has(o.id));
  const locked = confirmed || ended !== null || save.isPending || quote.blocker !== null;

  function toggle(id: string) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  function confirm() {
    if (chosen.length === 0 || locked) return;
    save.mutate({
      version: quote.version,
      options: quote.options.map((o) => ({ id: o.id, isChosen: selected.has(o.id) })),
    });
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
            disabled={chosen.length === 0 || save.isPending}
            aria-busy={save.isPending || undefined}
            onClick={confirm}
          >
            {save.isPending ? "Saving..." : "Confirm Selection(s)"}
          </button>
        </div>
      )}
      {kiosk && !confirmed && !ended && <StaffReturn staff={kiosk.staff} open={false} />}
    </div>
  );
}
