import { type FormEvent, type ReactNode, useId } from "react";
import { useMutation } from "@tanstack/react-query";
import { ApiError, apiRequest, isUnauthorized } from "../api_client.ts";
import { toast } from "../toast.tsx";
import { Dialog } from "../Dialog.tsx";
import { useValidatedForm } from "../use_validated_form.ts";
import { SettingsField } from "../settings/fields.tsx";
import type { Role } from "../../db/schema.ts";
import type { UserRow } from "../../src/users/admin_users.ts";
import { ROLE_LABELS } from "../../src/users/permissions.ts";
import {
  changeOwnPasswordFormSchema,
  newUserSchema,
  resetPasswordFormSchema,
  roleChangeSchema,
  usernameChangeSchema,
} from "./forms.ts";

function failed(error: unknown, description: string) {
  // A signed-out session has its own toast and redirect (api_client).
  if (isUnauthorized(error)) return;
  toast({ title: "Error", description, variant: "destructive" });
}

function succeeded(description: string) {
  toast({ title: "Success", description, variant: "success" });
}

/** Field errors the server sent back (400 with `errors`, or a 409 on a field). */
function serverFields(error: unknown): Record<string, string> | undefined {
  return error instanceof ApiError && error.fields ? error.fields : undefined;
}

const userLabel = (u: UserRow) => `${u.firstName} ${u.lastName}`.trim() || u.username;

function Footer(
  { formId, onCancel, busy, label, busyLabel, danger }: {
    formId: string;
    onCancel: () => void;
    busy: boolean;
    label: string;
    busyLabel: string;
    danger?: boolean;
  },
) {
  return (
    <>
      <button type="button" className="btn btn-outline" onClick={onCancel}>Cancel</button>
      <button
        type="submit"
        form={formId}
        className={`btn ${danger ? "btn-danger" : "btn-primary"}`}
        disabled={busy}
      >
        {busy ? busyLabel : label}
      </button>
    </>
  );
}

function RoleSelect(
  { id, value, roles, onChange, error }: {
    id: string;
    value: string;
    roles: Role[];
    onChange: (role: string) => void;
    error?: string;
  },
) {
  return (
    <div className="field">
      <label htmlFor={id}>Role</label>
      <select
        id={id}
        name="role"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {roles.map((r) => <option key={r} value={r}>{ROLE_LABELS[r]}</option>)}
      </select>
      {error && <p id={`${id}-error`} className="field-error">{error}</p>}
    </div>
  );
}

const EMPTY_USER = {
  email: "",
  firstName: "",
  lastName: "",
  username: "",
  password: "",
  role: "AUTHORIZED_USER",
};

export function AddUserDialog(
  { open, onClose, roles, onDone }: {
    open: boolean;
    onClose: () => void;
    roles: Role[];
    onDone: () => void;
  },
) {
  const uid = useId();
  const formId = `${uid}-form`;
  const form = useValidatedForm(newUserSchema, EMPTY_USER);
  const create = useMutation({
    mutationFn: (input: unknown) => apiRequest<UserRow>("POST", "/api/admin/users/invite", input),
    onSuccess: () => {
      succeeded(
        "User created successfully! They can now log in with their username and password.",
      );
      form.reset(EMPTY_USER);
      onDone();
    },
    onError: (error) => {
      const fields = serverFields(error);
      if (fields) form.setErrors(fields);
      failed(error, "Failed to create user. Please try again.");
    },
  });
  function close() {
    form.reset(EMPTY_USER);
    onClose();
  }
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (create.isPending) return;
    const data = form.validate(event.currentTarget);
    if (data) create.mutate(data);
  }
  const text = (name: keyof typeof EMPTY_USER, label: string) => ({
    id: `${uid}-${name}`,
    name,
    label,
    value: form.values[name],
    onChange: (value: string) => form.setField(name, value),
    error: form.errors[name],
  });
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Add User"
      description="The new user signs in with this username and password."
      footer={
        <Footer
          formId={formId}
          onCancel={close}
          busy={create.isPending}
          label="Create User"
          busyLabel="Creating..."
        />
      }
    >
      <form id={formId} className="form-grid users-form" noValidate onSubmit={onSubmit}>
        <SettingsField
          {...text("email", "Email")}
          wide
          input={{ type: "email", inputMode: "email", spellCheck: false, autoComplete: "off" }}
        />
        <SettingsField {...text("firstName", "First Name")} input={{ autoComplete: "off" }} />
        <SettingsField {...text("lastName", "Last Name")} input={{ autoComplete: "off" }} />
        <SettingsField
          {...text("username", "Username")}
          input={{ autoComplete: "off", autoCapitalize: "none", spellCheck: false }}
          hint="At least 3 characters."
        />
        <SettingsField
          {...text("password", "Password")}
          input={{ type: "password", autoComplete: "new-password" }}
          hint="At least 6 characters."
        />
        <RoleSelect
          id={`${uid}-role`}
          value={form.values.role}
          roles={roles}
          onChange={(r) => form.setField("role", r)}
          error={form.errors.role}
        />
      </form>
    </Dialog>
  );
}

const EMPTY_OWN = { currentPassword: "", newPassword: "", confirmPassword: "" };

export function ChangeMyPasswordDialog(
  { open, onClose }: { open: boolean; onClose: () => void },
) {
  const uid = useId();
  const formId = `${uid}-form`;
  const form = useValidatedForm(changeOwnPasswordFormSchema, EMPTY_OWN);
  const change = useMutation({
    mutationFn: (input: unknown) => apiRequest("PUT", "/api/auth/change-password", input),
    onSuccess: () => {
      succeeded("Your password has been changed.");
      form.reset(EMPTY_OWN);
      onClose();
    },
    onError: (error) => {
      const fields = serverFields(error);
      if (fields) form.setErrors(fields);
      failed(error, "Failed to change password. Please check your current password.");
    },
  });
  function close() {
    form.reset(EMPTY_OWN);
    onClose();
  }
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (change.isPending) return;
    const data = form.validate(event.currentTarget);
    if (data) change.mutate(data);
  }
  const field = (name: keyof typeof EMPTY_OWN, label: string, autoComplete: string) => (
    <SettingsField
      id={`${uid}-${name}`}
      name={name}
      label={label}
      value={form.values[name]}
      onChange={(value) => form.setField(name, value)}
      error={form.errors[name]}
      wide
      input={{ type: "password", autoComplete }}
    />
  );
  return (
    <Dialog
      open={open}
      onClose={close}
      size="sm"
      title="Change My Password"
      footer={
        <Footer
          formId={formId}
          onCancel={close}
          busy={change.isPending}
          label="Change Password"
          busyLabel="Changing..."
        />
      }
    >
      <form id={formId} className="users-form stack" noValidate onSubmit={onSubmit}>
        {field("currentPassword", "Current Password", "current-password")}
        {field("newPassword", "New Password", "new-password")}
        {field("confirmPassword", "Confirm New Password", "new-password")}
      </form>
    </Dialog>
  );
}

const EMPTY_RESET = { newPassword: "", confirmPassword: "" };

export function ResetPasswordDialog(
  { user, onClose, onDone }: { user: UserRow | null; onClose: () => void; onDone: () => void },
) {
  const uid = useId();
  const formId = `${uid}-form`;
  const form = useValidatedForm(resetPasswordFormSchema, EMPTY_RESET);
  const reset = useMutation({
    mutationFn: ({ id, newPassword }: { id: string; newPassword: string }) =>
      apiRequest("PUT", `/api/admin/users/${encodeURIComponent(id)}/password`, { newPassword }),
    onSuccess: () => {
      succeeded("Password reset successfully.");
      form.reset(EMPTY_RESET);
      onDone();
    },
    onError: (error) => failed(error, "Failed to reset password."),
  });
  function close() {
    form.reset(EMPTY_RESET);
    onClose();
  }
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (reset.isPending || !user) return;
    const data = form.validate(event.currentTarget);
    if (data) reset.mutate({ id: user.id, newPassword: data.newPassword });
  }
  const field = (name: keyof typeof EMPTY_RESET, label: string) => (
    <SettingsField
      id={`${uid}-${name}`}
      name={name}
      label={label}
      value={form.values[name]}
      onChange={(value) => form.setField(name, value)}
      error={form.errors[name]}
      wide
      input={{ type: "password", autoComplete: "new-password" }}
    />
  );
  return (
    <Dialog
      open={!!user}
      onClose={close}
      size="sm"
      title="Reset Password"
      description={user && <>Set a new password for {userLabel(user)} ({user.username}).</>}
      footer={
        <Footer
          formId={formId}
          onCancel={close}
          busy={reset.isPending}
          label="Reset Password"
          busyLabel="Resetting..."
        />
      }
    >
      <form id={formId} className="users-form stack" noValidate onSubmit={onSubmit}>
        {field("newPassword", "New Password")}
        {field("confirmPassword", "Confirm Password")}
      </form>
    </Dialog>
  );
}

export function ChangeRoleDialog(
  { user, roles, onClose, onDone }: {
    user: UserRow | null;
    roles: Role[];
    onClose: () => void;
    onDone: () => void;
  },
) {
  const uid = useId();
  const formId = `${uid}-form`;
  const initial = { role: user?.role ?? "AUTHORIZED_USER" };
  const form = useValidatedForm(roleChangeSchema, initial);
  const update = useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) =>
      apiRequest<UserRow>("PUT", `/api/admin/users/${encodeURIComponent(id)}`, { role }),
    onSuccess: (row) => {
      succeeded(`${userLabel(row)} is now ${ROLE_LABELS[row.role]}.`);
      onDone();
    },
    onError: (error) => {
      // The last owner's role: the server says why, on the field.
      const field = serverFields(error)?.role;
      if (field) form.setErrors({ role: field });
      failed(error, field ?? "Failed to update user role.");
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending || !user) return;
    const data = form.validate(event.currentTarget);
    if (data) update.mutate({ id: user.id, role: data.role });
  }
  return (
    <Dialog
      open={!!user}
      onClose={onClose}
      size="sm"
      title="Change Role"
      description={user && <>Choose the role of {userLabel(user)} ({user.username}).</>}
      footer={
        <Footer
          formId={formId}
          onCancel={onClose}
          busy={update.isPending}
          label="Update Role"
          busyLabel="Updating..."
        />
      }
    >
      <form id={formId} className="users-form" noValidate onSubmit={onSubmit}>
        <RoleSelect
          id={`${uid}-role`}
          value={form.values.role}
          // The user's present role stays listed even when it may not be given.
          roles={user && !roles.includes(user.role) ? [...roles, user.role] : roles}
          onChange={(r) => form.setField("role", r as Role)}
          error={form.errors.role}
        />
      </form>
    </Dialog>
  );
}

export function ChangeUsernameDialog(
  { user, onClose, onDone }: { user: UserRow | null; onClose: () => void; onDone: () => void },
) {
  const uid = useId();
  const formId = `${uid}-form`;
  const form = useValidatedForm(usernameChangeSchema, { username: user?.username ?? "" });
  const update = useMutation({
    mutationFn: ({ id, username }: { id: string; username: string }) =>
      apiRequest<UserRow>("PUT", `/api/admin/users/${encodeURIComponent(id)}`, { username }),
    onSuccess: () => {
      succeeded("Username updated successfully.");
      onDone();
    },
    onError: (error) => {
      const fields = serverFields(error);
      if (fields) form.setErrors(fields);
      failed(error, "Failed to update username. It may already be in use.");
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending || !user) return;
    const data = form.validate(event.currentTarget);
    if (data) update.mutate({ id: user.id, username: data.username });
  }
  return (
    <Dialog
      open={!!user}
      onClose={onClose}
      size="sm"
      title="Change Username"
      description={user && <>The username {userLabel(user)} signs in with.</>}
      footer={
        <Footer
          formId={formId}
          onCancel={onClose}
          busy={update.isPending}
          label="Update Username"
          busyLabel="Updating..."
        />
      }
    >
      <form id={formId} className="users-form" noValidate onSubmit={onSubmit}>
        <SettingsField
          id={`${uid}-username`}
          name="username"
          label="Username"
          value={form.values.username}
          onChange={(value) => form.setField("username", value)}
          error={form.errors.username}
          input={{ autoComplete: "off", autoCapitalize: "none", spellCheck: false }}
          hint="At least 3 characters."
        />
      </form>
    </Dialog>
  );
}

export function DeleteUserDialog(
  { user, onClose, onDone }: { user: UserRow | null; onClose: () => void; onDone: () => void },
) {
  const remove = useMutation({
    mutationFn: (id: string) => apiRequest("DELETE", `/api/admin/users/${encodeURIComponent(id)}`),
    onSuccess: () => {
      succeeded("User deleted successfully!");
      onDone();
    },
    onError: (error) => failed(error, "Failed to delete user. Please try again."),
  });
  return (
    <ConfirmUserDialog
      user={user}
      onClose={onClose}
      title="Delete User"
      description={(u) => (
        <>
          Delete <strong>{userLabel(u)}</strong>{" "}
          ({u.username})? They will no longer be able to sign in. This cannot be undone.
        </>
      )}
      label="Delete User"
      busyLabel="Deleting..."
      busy={remove.isPending}
      onConfirm={(id) => remove.mutate(id)}
    />
  );
}

/** A question about one user, answered by a destructive button or Cancel. */
function ConfirmUserDialog(
  { user, onClose, title, description, label, busyLabel, busy, onConfirm }: {
    user: UserRow | null;
    onClose: () => void;
    title: string;
    description: (user: UserRow) => ReactNode;
    label: string;
    busyLabel: string;
    busy: boolean;
    onConfirm: (id: string) => void;
  },
) {
  return (
    <Dialog
      open={!!user}
      onClose={onClose}
      size="sm"
      title={title}
      description={user && description(user)}
      footer={
        <>
          <button type="button" className="btn btn-outline" onClick={onClose}>Cancel</button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={busy}
            onClick={() => user && onConfirm(user.id)}
          >
            {busy ? busyLabel : label}
          </button>
        </>
      }
    />
  );
}

/** An owner turns another user's second factor off (a lost phone, a locked second factor). */
export function ResetTwoFactorDialog(
  { user, onClose, onDone }: { user: UserRow | null; onClose: () => void; onDone: () => void },
) {
  const reset = useMutation({
    mutationFn: (id: string) =>
      apiRequest<{ message: string }>(
        "DELETE",
        `/api/admin/users/${encodeURIComponent(id)}/two-factor`,
      ),
    onSuccess: (result) => {
      succeeded(result.message);
      onDone();
    },
    onError: (error) =>
      failed(
        error,
        error instanceof ApiError && [403, 404, 409].includes(error.status)
          ? error.detail
          : "Failed to reset two-factor sign-in.",
      ),
  });
  return (
    <ConfirmUserDialog
      user={user}
      onClose={onClose}
      title="Reset Two-Factor Sign-In"
      description={(u) => (
        <>
          Turn off two-factor sign-in for <strong>{userLabel(u)}</strong>{" "}
          ({u.username})? Their authenticator and recovery codes stop working, they are signed out
          everywhere, and they are told by e-mail. They sign in with their password next (and set up
          a new authenticator if the store requires it).
        </>
      )}
      label="Reset Two-Factor"
      busyLabel="Resetting..."
      busy={reset.isPending}
      onConfirm={(id) => reset.mutate(id)}
    />
  );
}
