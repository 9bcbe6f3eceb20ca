import { type FormEvent, useState } from "react";
import { ApiError, apiRequest, errorDetail, isUnauthorized } from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { TwoFactorEnrol } from "../components/two_factor/TwoFactorEnrol.tsx";
import type { EnrolmentMaterial } from "../src/auth/two_factor.ts";
import { Checkbox } from "../components/Checkbox.tsx";
import { CodeField } from "../components/two_factor/CodeField.tsx";

export interface TwoFactorSettingsProps {
  enabled: boolean;
  /** The owner's store-wide rule. */
  required: boolean;
  recoveryCodesLeft: number;
  /** Only an owner sees and changes the store-wide rule. */
  isOwner: boolean;
}

/** /account/two-factor: turn the second factor on or off; the owner's store-wide rule. */
export default function TwoFactorSettings(props: TwoFactorSettingsProps) {
  const [enabled, setEnabled] = useState(props.enabled);
  const [codesLeft, setCodesLeft] = useState(props.recoveryCodesLeft);
  const [required, setRequired] = useState(props.required);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  function failed(err: unknown) {
    if (isUnauthorized(err)) return;
    toast({ title: "Error", description: errorDetail(err) ?? "Failed.", variant: "destructive" });
  }

  async function turnOff(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      await apiRequest("DELETE", "/api/auth/two-factor", { code: code.trim() });
      toast({ title: "Success", description: "Two-factor sign-in is off.", variant: "success" });
      setEnabled(false);
      setCode("");
      setError(undefined);
    } catch (err) {
      if (err instanceof ApiError && err.fields?.code) setError(err.fields.code);
      failed(err);
    } finally {
      setBusy(false);
    }
  }

  async function setPolicy(next: boolean) {
    setBusy(true);
    try {
      await apiRequest("PUT", "/api/admin/two-factor-policy", { required: next });
      setRequired(next);
      toast({
        title: "Settings Updated",
        description: next
          ? "Every admin and owner now signs in with a second factor."
          : "Two-factor sign-in is now optional.",
        variant: "success",
      });
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="stack">
      <section className="card account-card stack" aria-labelledby="tf-mine">
        <h2 id="tf-mine">Your account</h2>
        {enabled
          ? (
            <>
              <p role="status">
                <strong>Two-factor sign-in is on.</strong> {codesLeft} recovery codes left.
              </p>
              {required
                ? <p className="hint">The store requires it, so it cannot be turned off.</p>
                : (
                  <form className="stack" onSubmit={turnOff} noValidate>
                    <CodeField
                      id="tf-off-code"
                      label="Current code to turn it off"
                      value={code}
                      onChange={setCode}
                      error={error}
                    />
                    <button type="submit" className="btn btn-outline" disabled={busy}>
                      Turn Off
                    </button>
                  </form>
                )}
              <ReplaceTwoFactor onDone={() => setCodesLeft(10)} />
            </>
          )
          : (
            <>
              <p>
                After your password, sign-in will ask for a code from an app on your phone.
              </p>
              <TwoFactorEnrol doneLabel="Done" onDone={() => setEnabled(true)} />
            </>
          )}
      </section>
      {props.isOwner && (
        <section className="card account-card stack" aria-labelledby="tf-store">
          <h2 id="tf-store">Store setting</h2>
          <Checkbox
            label="Require two-factor sign-in for every admin and owner"
            checked={required}
            disabled={busy}
            onChange={(e) => setPolicy(e.target.checked)}
          />
          <p className="hint">
            Those without it are asked to set it up at their next sign-in.
          </p>
        </section>
      )}
    </div>
  );
}

/**
 * A new phone or authenticator app: the current password and a current code
 * (or a recovery code) first, then a new QR code to confirm, then new
 * recovery codes. The old secret and codes stop working once it is confirmed.
 */
function ReplaceTwoFactor({ onDone }: { onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [currentPassword, setCurrentPassword] = useState("");
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [material, setMaterial] = useState<EnrolmentMaterial | null>(null);

  function reset() {
    setOpen(false);
    setCurrentPassword("");
    setCode("");
    setErrors({});
    setMaterial(null);
  }

  async function start(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const missing: Record<string, string> = {};
    if (!currentPassword) missing.currentPassword = "Please enter your current password";
    if (!code.trim()) missing.code = "Please enter the code from your authenticator app";
    setErrors(missing);
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      setMaterial(
        await apiRequest<EnrolmentMaterial>("POST", "/api/auth/two-factor/setup", {
          currentPassword,
          code: code.trim(),
        }),
      );
      setCurrentPassword("");
      setCode("");
    } catch (err) {
      if (err instanceof ApiError && err.fields) setErrors(err.fields);
      if (!isUnauthorized(err)) {
        toast({
          title: "Error",
          description: errorDetail(err) ?? "Could not start.",
          variant: "destructive",
        });
      }
    } finally {
      setBusy(false);
    }
  }

  if (!open) {
    return (
      <button type="button" className="btn btn-outline" onClick={() => setOpen(true)}>
        Replace Authenticator
      </button>
    );
  }
  if (material) {
    return (
      <div className="stack">
        <h3>New authenticator</h3>
        <TwoFactorEnrol
          initialMaterial={material}
          doneLabel="Done"
          onDone={() => {
            reset();
            onDone();
          }}
        />
      </div>
    );
  }
  const field = (
    id: string,
    name: "currentPassword" | "code",
    label: string,
    value: string,
    set: (v: string) => void,
    type: string,
    autoComplete: string,
  ) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        value={value}
        onChange={(e) => set(e.target.value)}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-error` : undefined}
      />
      {errors[name] && <p id={`${id}-error`} className="field-error">{errors[name]}</p>}
    </div>
  );
  return (
    <form className="stack" onSubmit={start} noValidate aria-labelledby="tf-replace">
      <h3 id="tf-replace">Replace your authenticator</h3>
      <p className="hint">
        For a new phone or app. Your current codes keep working until the new one is confirmed.
      </p>
      {field(
        "tf-replace-password",
        "currentPassword",
        "Current password",
        currentPassword,
        setCurrentPassword,
        "password",
        "current-password",
      )}
      {field(
        "tf-replace-code",
        "code",
        "Current code or a recovery code",
        code,
        setCode,
        "text",
        "one-time-code",
      )}
      <div className="actions">
        <button type="button" className="btn btn-outline" onClick={reset}>Cancel</button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Checking..." : "Continue"}
        </button>
      </div>
    </form>
  );
}
