import { type FormEvent, useState } from "react";
import { ApiError, apiRequest, isUnauthorized } from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { useValidatedForm } from "../components/use_validated_form.ts";
import { SettingsField } from "../components/settings/fields.tsx";
import { changeOwnPasswordFormSchema } from "../components/users/forms.ts";

const EMPTY = { currentPassword: "", newPassword: "", confirmPassword: "" };

/**
 * Change My Password, for every role (the staff bar's Menu). The server ends
 * the user's other sessions; this one stays signed in.
 */
export default function ChangePassword() {
  const form = useValidatedForm(changeOwnPasswordFormSchema, EMPTY);
  const [busy, setBusy] = useState(false);
  const [changed, setChanged] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const data = form.validate(event.currentTarget);
    if (!data) {
      const first = changeOwnPasswordFormSchema.safeParse(form.values).error?.issues[0]?.message;
      if (first) toast({ title: "Error", description: first, variant: "destructive" });
      return;
    }
    setBusy(true);
    setChanged(false);
    try {
      await apiRequest("PUT", "/api/auth/change-password", data);
      toast({
        title: "Success",
        description: "Your password has been changed.",
        variant: "success",
      });
      form.reset(EMPTY);
      setChanged(true);
    } catch (error) {
      if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
      if (!isUnauthorized(error)) {
        toast({
          title: "Error",
          description: error instanceof ApiError && error.status === 429
            ? error.detail
            : "Failed to change password. Please check your current password.",
          variant: "destructive",
        });
      }
    } finally {
      setBusy(false);
    }
  }

  const field = (name: keyof typeof EMPTY, label: string, autoComplete: string) => (
    <SettingsField
      id={`own-${name}`}
      name={name}
      label={label}
      value={form.values[name]}
      onChange={(value) => form.setField(name, value)}
      error={form.errors[name]}
      wide
      input={{ type: "password", autoComplete }}
      disabled={busy}
    />
  );
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {field("currentPassword", "Current Password", "current-password")}
      {field("newPassword", "New Password", "new-password")}
      {field("confirmPassword", "Confirm New Password", "new-password")}
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? "Changing..." : "Change Password"}
      </button>
      {changed && (
        <p className="notice notice-info" role="status">
          Your password has been changed. You were signed out everywhere else.
        </p>
      )}
    </form>
  );
}
