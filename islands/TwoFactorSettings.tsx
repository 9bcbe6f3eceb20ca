import { type FormEvent, useState } from "react";
import { ApiError, apiRequest, errorDetail, isUnauthorized } from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { TwoFactorEnrol } from "../components/two_factor/TwoFactorEnrol.tsx";

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
                <strong>Two-factor sign-in is on.</strong> {props.recoveryCodesLeft}{" "}
                recovery codes left.
              </p>
              {required
                ? <p className="hint">The store requires it, so it cannot be turned off.</p>
                : (
                  <form className="stack" onSubmit={turnOff} noValidate>
                    <div className="field">
                      <label htmlFor="tf-off-code">Current code to turn it off</label>
                      <input
                        id="tf-off-code"
                        name="code"
                        autoComplete="one-time-code"
                        value={code}
                        onChange={(e) => setCode(e.target.value)}
                        aria-invalid={error ? true : undefined}
                        aria-describedby={error ? "tf-off-error" : undefined}
                      />
                      {error && <p id="tf-off-error" className="field-error">{error}</p>}
                    </div>
                    <button type="submit" className="btn btn-outline" disabled={busy}>
                      Turn Off
                    </button>
                  </form>
                )}
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
          <label className="checkbox">
            <input
              type="checkbox"
              checked={required}
              disabled={busy}
              onChange={(e) => setPolicy(e.target.checked)}
            />{" "}
            Require two-factor sign-in for every admin and owner
          </label>
          <p className="hint">
            Those without it are asked to set it up at their next sign-in.
          </p>
        </section>
      )}
    </div>
  );
}
