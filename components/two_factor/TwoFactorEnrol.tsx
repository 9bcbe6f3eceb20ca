import { type FormEvent, useState } from "react";
import { ApiError, apiRequest, errorDetail } from "../api_client.ts";
import { toast } from "../toast.tsx";
import type { EnrolmentMaterial } from "../../src/auth/two_factor.ts";
import { CodeField } from "./CodeField.tsx";

/**
 * Enrolment in two-factor sign-in: a fresh secret as a QR code (and as text
 * to type), a code from the app to confirm it, then the recovery codes, shown
 * this once. Used on the account page and, when the store requires it, right
 * after the password at sign-in.
 */
export function TwoFactorEnrol(
  { onDone, doneLabel, initialMaterial }: {
    onDone: (result: { returnTo?: string }) => void;
    doneLabel: string;
    /** A secret already begun (replacing a second factor, after the password and a code). */
    initialMaterial?: EnrolmentMaterial;
  },
) {
  const [material, setMaterial] = useState<EnrolmentMaterial | null>(initialMaterial ?? null);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ recoveryCodes: string[]; returnTo?: string } | null>(null);

  async function start() {
    setBusy(true);
    try {
      setMaterial(await apiRequest<EnrolmentMaterial>("POST", "/api/auth/two-factor/setup"));
    } catch (err) {
      toast({
        title: "Error",
        description: errorDetail(err) ?? "Could not start.",
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!/^\d{6}$/.test(code.trim())) {
      setError("Enter the 6-digit code from your authenticator app");
      return;
    }
    setBusy(true);
    try {
      const result = await apiRequest<{ recoveryCodes: string[]; returnTo?: string }>(
        "POST",
        "/api/auth/two-factor/enable",
        { code: code.trim() },
      );
      setError(undefined);
      toast({ title: "Success", description: "Two-factor sign-in is on.", variant: "success" });
      setDone(result);
    } catch (err) {
      setError(err instanceof ApiError ? err.fields?.code ?? err.detail : String(err));
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <div className="stack" role="status">
        <h2 className="card-title">Save Your Recovery Codes</h2>
        <p>
          Each code signs you in once if you lose your phone. Keep them somewhere safe; they are not
          shown again.
        </p>
        <ul className="recovery-codes" data-testid="recovery-codes">
          {done.recoveryCodes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
        <button type="button" className="btn btn-primary" onClick={() => onDone(done)}>
          {doneLabel}
        </button>
      </div>
    );
  }

  if (!material) {
    return (
      <button type="button" className="btn btn-primary" onClick={start} disabled={busy}>
        {busy ? "Starting..." : "Set Up Two-Factor Sign-In"}
      </button>
    );
  }

  const codeState = { value: code, onChange: setCode, error };
  return (
    <form className="stack" onSubmit={confirm} noValidate>
      <p>
        Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator,
        1Password…), then enter the 6-digit code it shows.
      </p>
      <img
        src={material.qrDataUrl}
        alt="QR code to add this account to an authenticator app"
        className="totp-qr"
        width="200"
        height="200"
      />
      <p className="hint">
        Can't scan? Type this key instead: <code data-testid="totp-key">{material.manualKey}</code>
      </p>
      <CodeField id="totp-enrol-code" label="6-digit code" {...codeState} numeric />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? "Checking..." : "Turn On"}
      </button>
    </form>
  );
}
