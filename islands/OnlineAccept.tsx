import { type FormEvent, useEffect, useRef, useState } from "react";
import SignaturePad from "signature_pad";
import { OnlineOptionCard } from "../components/online/OnlineOptionCard.tsx";
import type { OnlineQuote, OnlineStore } from "../components/online/online_view.ts";
import { selectionText } from "../components/online/selection_text.ts";

export interface OnlineAcceptProps {
  quote: OnlineQuote;
  store: OnlineStore;
  /** The store's terms the client ticks (Settings), or the built-in text. */
  terms: string;
}

interface Accepted {
  signerName: string;
  acceptedOn: string;
}

/** A refused answer: the status and the server's words. */
class Refused extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/**
 * Posts to this page's own path (`/q/{token}/accept`); no shared API client,
 * to keep the page's script small. The JSON body makes it a same-origin
 * request the server's cross-site guard checks.
 */
async function post<T>(action: "accept" | "decline", body: unknown): Promise<T> {
  const res = await fetch(`${location.pathname}/${action}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  if (!res.ok) {
    throw new Refused(res.status, json?.message || `The store's server answered ${res.status}.`);
  }
  return json as T;
}

/** A signature on a 2x canvas at most: a sharp line, and a PNG well under the server's cap. */
const MAX_PIXEL_RATIO = 2;

/**
 * The client's page behind the e-mail link: every option's client copy, then
 * choose, type the full name, sign (finger or mouse on the pad, or the typed
 * name for keyboard and screen-reader users), tick the terms and accept; or
 * decline with a message. The server checks everything again.
 */
export default function OnlineAccept({ quote, store, terms }: OnlineAcceptProps) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [name, setName] = useState("");
  const [typed, setTyped] = useState(false);
  const [drawn, setDrawn] = useState(false);
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A refusal that ends the page (changed, no longer valid): nothing more can be sent.
  const [ended, setEnded] = useState<string | null>(null);
  const [accepted, setAccepted] = useState<Accepted | null>(null);
  const [declined, setDeclined] = useState(false);
  const [declineMessage, setDeclineMessage] = useState("");
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (typed || !canvas) return;
    const ratio = Math.min(globalThis.devicePixelRatio || 1, MAX_PIXEL_RATIO);
    canvas.width = Math.round(canvas.offsetWidth * ratio);
    canvas.height = Math.round(canvas.offsetHeight * ratio);
    canvas.getContext("2d")?.scale(ratio, ratio);
    const pad = new SignaturePad(canvas, { penColor: "#10202b", minWidth: 0.8, maxWidth: 2.6 });
    pad.addEventListener("endStroke", () => setDrawn(!pad.isEmpty()));
    padRef.current = pad;
    setDrawn(false);
    return () => {
      pad.off();
      padRef.current = null;
    };
  }, [typed]);

  useEffect(() => {
    if (accepted || declined) doneRef.current?.focus();
  }, [accepted, declined]);

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  const chosen = quote.options.filter((o) => selected.has(o.id));
  const locked = busy || ended !== null;

  function toggle(id: string) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  function clearPad() {
    padRef.current?.clear();
    setDrawn(false);
  }

  /** What is missing, in the order the form asks for it, or null when it can go. */
  function problem(): string | null {
    if (chosen.length === 0) return "Please select at least one option.";
    if (name.trim().length < 2) return "Please type your full name.";
    if (!typed && !drawn) {
      return "Please sign in the box, or choose to sign with your typed name.";
    }
    if (!agreed) return "Please accept the store's terms to continue.";
    return null;
  }

  function refused(err: unknown) {
    if (err instanceof Refused && (err.status === 409 || err.status === 410)) {
      setEnded(
        err.status === 409
          ? err.message
          : "This link is no longer valid. Please contact the store.",
      );
      return;
    }
    setError(
      err instanceof Refused
        ? err.message
        : "Your answer could not be sent. Check your connection and try again.",
    );
  }

  async function accept(e: FormEvent) {
    e.preventDefault();
    if (locked) return;
    const missing = problem();
    setError(missing);
    if (missing) return;
    setBusy(true);
    try {
      const done = await post<Accepted>("accept", {
        chosenOptionIds: chosen.map((o) => o.id),
        signerName: name.trim(),
        signaturePng: typed ? null : padRef.current?.toDataURL("image/png") ?? null,
        typedSignature: typed,
        termsAccepted: true,
      });
      setAccepted(done);
    } catch (err) {
      refused(err);
    } finally {
      setBusy(false);
    }
  }

  async function decline(e: FormEvent) {
    e.preventDefault();
    if (locked) return;
    setBusy(true);
    setError(null);
    try {
      await post("decline", { message: declineMessage });
      setDeclined(true);
    } catch (err) {
      refused(err);
    } finally {
      setBusy(false);
    }
  }

  const contact = (
    <p className="online-contact-line">
      {"Questions? Call "}
      <a href={`tel:${store.storePhone.replace(/[^\d+]/g, "")}`}>{store.storePhone}</a>
      {" or write to "}
      <a href={`mailto:${store.storeEmail}`}>{store.storeEmail}</a>.
    </p>
  );

  return (
    <div className="online">
      <header className="online-head">
        <div className="online-brand">
          <img src={store.logoUrl} alt="" className="online-logo" width="48" height="48" />
          <span className="online-store">{store.storeName}</span>
          <span className="online-quote-number">{`Quote ${quote.quoteNumber}`}</span>
        </div>
        <h1>Your Quote</h1>
        <p className="online-for">{`For: ${quote.clientName}`}</p>
        {quote.validUntil && (
          <p className="online-valid">
            Prices valid until <strong>{quote.validUntil}</strong>
          </p>
        )}
        {contact}
      </header>

      {accepted && (
        <section className="online-done" aria-labelledby="online-done-title">
          <h2 id="online-done-title" ref={doneRef} tabIndex={-1}>
            {`Thank you, ${accepted.signerName}`}
          </h2>
          <p>
            {`You accepted this quote on ${accepted.acceptedOn}. `}
            The store has been told and will be in touch.
          </p>
        </section>
      )}

      {declined && (
        <section className="online-done" aria-labelledby="online-declined-title">
          <h2 id="online-declined-title" ref={doneRef} tabIndex={-1}>
            Thank you for letting us know
          </h2>
          <p>The store has your answer. You can still call us if you change your mind.</p>
        </section>
      )}

      {ended && !accepted && !declined && (
        <p className="notice notice-warning online-notice" role="alert">{ended}</p>
      )}

      {!accepted && !declined && (
        <>
          {quote.options.length > 1 && (
            <p className="online-hint">
              Select the option you want. You may choose more than one.
            </p>
          )}
          <ul className="tablet-grid online-options" aria-label="Options">
            {quote.options.map((option) => (
              <OnlineOptionCard
                key={option.id}
                option={option}
                selected={selected.has(option.id)}
                locked={locked}
                onToggle={toggle}
              />
            ))}
          </ul>
          <p
            className={`tablet-count${chosen.length ? " has-choice" : ""}`}
            role="status"
            data-testid="selection-count"
          >
            {selectionText(chosen.length)}
          </p>

          <form className="card online-form" onSubmit={accept} noValidate aria-label="Accept">
            <h2>Accept this quote</h2>
            <div className="field">
              <label htmlFor="online-name">Your full name</label>
              <input
                id="online-name"
                className="input"
                autoComplete="name"
                maxLength={120}
                value={name}
                disabled={locked}
                onChange={(e) => setName(e.target.value)}
              />
            </div>
            <fieldset className="online-signature">
              <legend>Your signature</legend>
              {typed
                ? (
                  <p className="online-typed" aria-live="polite">
                    {name.trim()
                      ? <span className="online-typed-name">{name.trim()}</span>
                      : "Type your full name above: it will be your signature."}
                  </p>
                )
                : (
                  <>
                    <canvas
                      ref={canvasRef}
                      className="online-pad"
                      role="img"
                      aria-label="Signature box: sign with your finger or the mouse"
                      data-testid="signature-pad"
                    />
                    <p className="hint">Sign in the box with your finger or the mouse.</p>
                  </>
                )}
              <div className="online-signature-actions">
                {!typed && (
                  <button
                    type="button"
                    className="btn btn-outline"
                    onClick={clearPad}
                    disabled={locked || !drawn}
                  >
                    Clear signature
                  </button>
                )}
                <button
                  type="button"
                  className="btn btn-ghost"
                  aria-pressed={typed}
                  disabled={locked}
                  onClick={() => setTyped((t) => !t)}
                >
                  {typed ? "Draw my signature instead" : "Sign with my typed name instead"}
                </button>
              </div>
            </fieldset>
            {/* The markup of components/Checkbox.tsx and Disclosure.tsx (see their notes). */}
            <label className="checkbox online-terms">
              <input
                type="checkbox"
                checked={agreed}
                disabled={locked}
                onChange={(e) => setAgreed(e.target.checked)}
              />
              <span className="checkbox-label">{terms}</span>
            </label>
            {error && (
              <p className="notice notice-error" role="alert" ref={errorRef} tabIndex={-1}>
                {error}
              </p>
            )}
            <button
              type="submit"
              className="btn btn-primary online-accept"
              disabled={locked}
              aria-busy={busy || undefined}
            >
              {busy ? "Sending..." : "Accept Quote"}
            </button>
          </form>

          <details className="disclosure online-decline">
            <summary className="chevron">Decline this quote</summary>
            <form onSubmit={decline} noValidate aria-label="Decline">
              <div className="field">
                <label htmlFor="online-decline-message">A message to the store (optional)</label>
                <textarea
                  id="online-decline-message"
                  className="input"
                  rows={3}
                  maxLength={2000}
                  value={declineMessage}
                  disabled={locked}
                  onChange={(e) => setDeclineMessage(e.target.value)}
                />
              </div>
              <button type="submit" className="btn btn-outline" disabled={locked}>
                Send my decline
              </button>
            </form>
          </details>
        </>
      )}
    </div>
  );
}
