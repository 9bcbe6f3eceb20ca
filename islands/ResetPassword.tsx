import { type FormEvent, useEffect, useState } from "react";
import { apiRequest, errorDetail } from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { useValidatedForm } from "../components/use_validated_form.ts";
import { SettingsField } from "../components/settings/fields.tsx";
import { NO_TOKEN, RESET_DONE } from "../src/schemas/password_recovery.ts";
import { resetPasswordFormSchema } from "../src/schemas/reset_password_form.ts";

export interface ResetPasswordProps {
  /** The token from the link; null when the address had none. */
  token: string | null;
}

/** How long "No reset token found" shows before the visitor is sent to /. */
export const NO_TOKEN_REDIRECT_MS = 2000;

/** /reset-password?token=…: the new password twice. */
export default function ResetPassword({ token }: ResetPasswordProps) {
  const form = useValidatedForm(resetPasswordFormSchema, {
    token: token ?? "",
    newPassword: "",
    confirmPassword: "",
  });
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (token) return;
    toast({ title: "Error", description: NO_TOKEN, variant: "destructive" });
    const timer = setTimeout(() => location.assign("/"), NO_TOKEN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [token]);

  if (!token) return <p className="notice notice-warning" role="alert">{NO_TOKEN}</p>;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const data = form.validate(event.currentTarget);
    if (!data) {
      // The spec's message as a toast too (the field shows it as well).
      const first = resetPasswordFormSchema.safeParse(form.values).error?.issues[0]?.message;
      if (first) toast({ title: "Error", description: first, variant: "destructive" });
      return;
    }
    setBusy(true);
    try {
      await apiRequest("POST", "/api/auth/reset-password", data);
      toast({ title: "Success", description: RESET_DONE, variant: "success" });
      setDone(true);
    } catch (error) {
      toast({
        title: "Error",
        description: errorDetail(error) ?? "Failed to reset password",
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <div className="stack" role="status">
        <p>{RESET_DONE}</p>
        <a className="btn btn-primary btn-block" href="/staff">Sign In</a>
      </div>
    );
  }

  const field = (name: "newPassword" | "confirmPassword", label: string) => (
    <SettingsField
      id={`reset-${name}`}
      name={name}
      label={label}
      value={form.values[name]}
      onChange={(value) => form.setField(name, value)}
      error={form.errors[name] ?? (name === "newPassword" ? form.errors.token : undefined)}
      wide
      input={{ type: "password", autoComplete: "new-password" }}
      disabled={busy}
    />
  );
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {field("newPassword", "New Password")}
      {field("confirmPassword", "Confirm New Password")}
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? "Resetting..." : "Reset Password"}
      </button>
      <a className="link center" href="/forgot-password">Request a new link</a>
    </form>
  );
}
