import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { apiRequest, errorDetail } from "../api_client.ts";

/**
 * Who handed the tablet over: their username is filled in on the return form.
 * Null on the offline shells the service worker keeps (no staff member's name
 * is kept on the device): staff then type their username.
 */
export interface KioskStaff {
  username: string;
  displayName: string;
}

const RETURN_HINT = "Enter a staff password to return to work.";

/**
 * The way back from client mode: a staff username and password. Collapsed
 * behind one button while the client is busy; open once they are done.
 * Fields are not offered to the browser's password manager (autocomplete
 * off): a password saved on a client-held tablet would open it for anyone.
 * The kiosk's pages offer it only while nothing the client submitted is
 * waiting on the device: that can only be sent while the kiosk session lasts.
 */
export function StaffReturn(
  { staff, open: openWhenDone }: { staff: KioskStaff | null; open: boolean },
) {
  const [expanded, setExpanded] = useState(openWhenDone);
  const [username, setUsername] = useState(staff?.username ?? "");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const focusPassword = useRef(false);
  const id = useId();

  useEffect(() => {
    if (openWhenDone) setExpanded(true);
  }, [openWhenDone]);

  useEffect(() => {
    if (expanded && focusPassword.current) {
      focusPassword.current = false;
      passwordRef.current?.focus();
    }
  }, [expanded]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    // The server checks the same schema (kioskReturnSchema); this page
    // carries no validation library for two fields.
    if (!username.trim() || !password) {
      setError("Please enter a staff username and password.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await apiRequest<{ returnTo: string }>(
        "POST",
        "/api/kiosk/return",
        { username, password },
      );
      // The kiosk session has ended. The answer's cookie has the next page
      // clear what the device kept of the client (islands/_forget.ts), as
      // after a sign-out.
      location.assign(answer.returnTo);
    } catch (err) {
      setBusy(false);
      setPassword("");
      setError(errorDetail(err) ?? "Invalid username or password");
      passwordRef.current?.focus();
    }
  }

  if (!expanded) {
    return (
      <div className="kiosk-staff">
        <button
          type="button"
          className="btn btn-outline kiosk-staff-toggle chevron"
          aria-expanded="false"
          onClick={() => {
            focusPassword.current = true;
            setExpanded(true);
          }}
        >
          Staff: return to staff work
        </button>
      </div>
    );
  }

  return (
    <section className="kiosk-staff kiosk-staff-open" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="kiosk-staff-title">For staff</h2>
      <p className="kiosk-staff-lead">
        {`${staff ? `Handed over by ${staff.displayName}. ` : ""}${RETURN_HINT}`}
      </p>
      <form className="kiosk-staff-form" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-username`}>Username</label>
          <input
            id={`${id}-username`}
            name="kiosk-staff-username"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            disabled={busy}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-password`}>Password</label>
          <input
            ref={passwordRef}
            id={`${id}-password`}
            name="kiosk-staff-password"
            type="password"
            autoComplete="off"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            disabled={busy}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </div>
        <button type="submit" className="btn btn-primary kiosk-staff-submit" disabled={busy}>
          {busy ? "Checking..." : "Return to Staff Work"}
        </button>
      </form>
      <p id={`${id}-error`} className="field-error kiosk-staff-error" role="alert">
        {error ?? ""}
      </p>
    </section>
  );
}
