import { type FormEvent, useState } from "react";
import { apiRequest, errorDetail } from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { useValidatedForm } from "../components/use_validated_form.ts";
import { SettingsField } from "../components/settings/fields.tsx";
import { FORGOT_PASSWORD_ANSWER, forgotPasswordSchema } from "../src/schemas/password_recovery.ts";

/** /forgot-password: one e-mail field, then the same confirmation whatever the address. */
export default function ForgotPassword() {
  const form = useValidatedForm(forgotPasswordSchema, { email: "" });
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const data = form.validate(event.currentTarget);
    if (!data) {
      toast({
        title: "Error",
        description: form.values.email.trim()
          ? "Please enter a valid email address"
          : "Please enter your email address",
        variant: "destructive",
      });
      return;
    }
    setBusy(true);
    try {
      await apiRequest("POST", "/api/auth/forgot-password", data);
      toast({ title: "Success", description: FORGOT_PASSWORD_ANSWER, variant: "success" });
      setSent(true);
    } catch (error) {
      toast({
        title: "Error",
        description: errorDetail(error) ?? "Failed to send password reset email",
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <div className="stack" role="status">
        <h2 className="card-title">Check Your Email</h2>
        <p>{FORGOT_PASSWORD_ANSWER}</p>
        <p className="hint">The link works once, for 30 minutes.</p>
        <a className="btn btn-primary btn-block" href="/staff">Back to Sign In</a>
      </div>
    );
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <SettingsField
        id="forgot-email"
        name="email"
        label="Email"
        value={form.values.email}
        onChange={(value) => form.setField("email", value)}
        error={form.errors.email}
        wide
        input={{ type: "email", autoComplete: "email", autoFocus: true }}
        disabled={busy}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? "Sending..." : "Send Reset Instructions"}
      </button>
      <a className="link center" href="/staff">Back to Sign In</a>
    </form>
  );
}
