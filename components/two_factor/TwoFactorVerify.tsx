import { type FormEvent, useState } from "react";
import { CodeField } from "./CodeField.tsx";
import { ApiError, apiRequest } from "../api_client.ts";
import { toast } from "../toast.tsx";

/** The sign-in step after a right password: a code from the app, or a recovery code. */
export function TwoFactorVerify({ onDone }: { onDone: (returnTo: string) => void }) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!code.trim()) {
      setError("Please enter the code from your authenticator app");
      return;
    }
    setBusy(true);
    try {
      const result = await apiRequest<{ returnTo: string }>(
        "POST",
        "/api/auth/two-factor/verify",
        { code: code.trim() },
      );
      onDone(result.returnTo);
    } catch (err) {
      setBusy(false);
      const message = err instanceof ApiError ? err.fields?.code ?? err.detail : String(err);
      setError(message);
      if (err instanceof ApiError && err.status === 401) {
        toast({ title: "Sign In Again", description: message, variant: "destructive" });
        setTimeout(() => location.reload(), 1500);
      }
    }
  }

  const codeState = { value: code, onChange: setCode, error };
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {/* The page's subtitle says what to enter: once is enough. */}
      <CodeField id="totp-code" label="Authentication Code" {...codeState} autoFocus />
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? "Verifying..." : "Verify"}
      </button>
    </form>
  );
}
