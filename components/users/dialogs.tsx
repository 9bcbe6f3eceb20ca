import { type ComponentProps, type FormEvent, type ReactNode, useId, useState } from "react";
import type * as z from "zod";
import { useMutation } from "@tanstack/react-query";
import { ApiError, apiRequest, isUnauthorized } from "../api_client.ts";
import { toast } from "../toast.tsx";
import { Dialog } from "../Dialog.tsx";
import { useValidatedForm } from "../use_validated_form.ts";
import { SettingsField } from "../settings/fields.tsx";
import { Checkbox } from "../Checkbox.tsx";
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

/**
 * A dialog's form and the call it sends: checked by the shared schema on
 * submit, one call at a time, the success toast, the server's field messages
 * on their fields (`explainWith`: that field's message is also the toast's),
 * and the form emptied after a success and when the dialog closes.
 */
function useDialogForm<V extends Record<string, string | boolean>, S extends z.ZodType, R>(
  schema: S,
  empty: V,
  o: {
    send: (data: z.infer<S>) => Promise<R>;
    success: string | ((answer: R) => string);
    failure: string;
    explainWith?: string;
    done: () => void;
    cancel: () => void;
    /** Whether there is something to send for (the user the dialog acts on). */
    ready?: boolean;
  },
) {
  const form = useValidatedForm(schema, empty);
  const mutation = useMutation({
    mutationFn: o.send,
    onSuccess: (answer) => {
      succeeded(typeof o.success === "string" ? o.success : o.success(answer));
      form.reset(empty);
      o.done();
    },
    onError: (error) => {
      const fields = serverFields(error);
      if (fields) form.setErrors(fields);
      failed(error, (o.explainWith && fields?.[o.explainWith]) || o.failure);
    },
  });
  function close() {
    form.reset(empty);
    o.cancel();
  }
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending || o.ready === false) return;
    const data = form.validate(event.currentTarget);
    if (data) mutation.mutate(data);
  }
  return { form, mutation, close, onSubmit };
}

/** A dialog holding one form, with Cancel and the form's submit button below it. */
function FormDialog(
  { className, onSubmit, children, label, busyLabel, busy, danger, ...dialog }:
    & Omit<ComponentProps<typeof Dialog>, "footer">
    & {
      className: string;
      onSubmit: (event: FormEvent<HTMLFormElement>) => void;
      label: string;
      busyLabel: string;
      busy: boolean;
      danger?: boolean;
    },
) {
  const formId = useId();
  return (
    <Dialog
      {...dialog}
      footer={
        <Footer
          formId={formId}
          onCancel={dialog.onClose}
          busy={busy}
          label={label}
          busyLabel={busyLabel}
          danger={danger}
        />
      }
    >
      <form id={formId} className={className} noValidate onSubmit={onSubmit}>
        {children}
      </form>
    </Dialog>
  );
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

/** A store a user may be given: its id and code (and name, when it has its own). */
export interface StoreOption {
  id: string;
  code: string;
  name: string | null;
}

/**
 * The stores side of the user dialogs, in a chain of more than one store:
 * which the signed-in admin may give (a store admin: their own), and whether
 * they make chain admins (the owner and chain admins).
 */
export interface StoreChoice {
  stores: StoreOption[];
  canSetChainAdmin: boolean;
}

const storeLabel = (s: StoreOption) => s.name ? `${s.code} (${s.name})` : s.code;

/** The Stores checkboxes of the Add User and Change Stores dialogs. */
function StoreCheckboxes(
  { id, stores, chosen, onChange, error }: {
    id: string;
    stores: StoreOption[];
    chosen: string[];
    onChange: (ids: string[]) => void;
    error?: string;
  },
) {
  return (
    <fieldset
      className="field field-wide users-stores"
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend>Stores</legend>
      {stores.map((s) => (
        <Checkbox
          key={s.id}
          label={storeLabel(s)}
          name="storeIds"
          value={s.id}
          checked={chosen.includes(s.id)}
          onChange={(e) =>
            onChange(e.target.checked ? [...chosen, s.id] : chosen.filter((c) => c !== s.id))}
        />
      ))}
      {error && <p id={`${id}-error`} className="field-error">{error}</p>}
    </fieldset>
  );
}

/** "Chain admin": an ADMIN of every store, not only of the stores they work in. */
function ChainAdminCheckbox(
  { checked, onChange }: { checked: boolean; onChange: (v: boolean) => void },
) {
  return (
    <Checkbox
      className="field-wide"
      label="Chain admin: administers every store (else only the stores they work in)"
      name="chainAdmin"
      checked={checked}
      onChange={(e) => onChange(e.target.checked)}
    />
  );
}

const EMPTY_USER = {
  email: "",
  firstName: "",
  lastName: "",
  username: "",
  password: "",
  role: "AUTHORIZED_USER",
  // As every admin was before store admins: the owner's and chain admins' new admins are chain admins.
  chainAdmin: true,
};

export function AddUserDialog(
  { open, onClose, roles, onDone, choice }: {
    open: boolean;
    onClose: () => void;
    roles: Role[];
    onDone: () => void;
    /** A chain of several stores: the stores to choose from. */
    choice?: StoreChoice;
  },
) {
  const uid = useId();
  const only = choice?.stores.length === 1 ? [choice.stores[0].id] : [];
  const [storeIds, setStoreIds] = useState<string[]>(only);
  const { form, mutation: create, close, onSubmit } = useDialogForm(newUserSchema, EMPTY_USER, {
    send: ({ chainAdmin, ...input }) =>
      apiRequest<UserRow>("POST", "/api/admin/users/invite", {
        ...input,
        ...(choice ? { storeIds } : {}),
        ...(choice?.canSetChainAdmin && input.role === "ADMIN" ? { chainAdmin } : {}),
      }),
    success: "User created successfully! They can now log in with their username and password.",
    failure: "Failed to create user. Please try again.",
    done: () => {
      setStoreIds(only);
      onDone();
    },
    cancel: () => {
      setStoreIds(only);
      onClose();
    },
  });
  const text = (name: Exclude<keyof typeof EMPTY_USER, "chainAdmin">, label: string) => ({
    id: `${uid}-${name}`,
    name,
    label,
    value: form.values[name],
    onChange: (value: string) => form.setField(name, value),
    error: form.errors[name],
  });
  return (
    <FormDialog
      open={open}
      onClose={close}
      title="Add User"
      description="The new user signs in with this username and password."
      busy={create.isPending}
      label="Create User"
      busyLabel="Creating..."
      className="form-grid users-form"
      onSubmit={onSubmit}
    >
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
      {choice && (
        <StoreCheckboxes
          id={`${uid}-stores`}
          stores={choice.stores}
          chosen={storeIds}
          onChange={setStoreIds}
          error={form.errors.storeIds}
        />
      )}
      {choice?.canSetChainAdmin && form.values.role === "ADMIN" && (
        <ChainAdminCheckbox
          checked={form.values.chainAdmin}
          onChange={(v) => form.setField("chainAdmin", v)}
        />
      )}
    </FormDialog>
  );
}

const EMPTY_OWN = { currentPassword: "", newPassword: "", confirmPassword: "" };

export function ChangeMyPasswordDialog(
  { open, onClose }: { open: boolean; onClose: () => void },
) {
  const uid = useId();
  const { form, mutation: change, close, onSubmit } = useDialogForm(
    changeOwnPasswordFormSchema,
    EMPTY_OWN,
    {
      send: (input) => apiRequest("PUT", "/api/auth/change-password", input),
      success: "Your password has been changed.",
      failure: "Failed to change password. Please check your current password.",
      done: onClose,
      cancel: onClose,
    },
  );
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
    <FormDialog
      open={open}
      onClose={close}
      size="sm"
      title="Change My Password"
      busy={change.isPending}
      label="Change Password"
      busyLabel="Changing..."
      className="users-form stack"
      onSubmit={onSubmit}
    >
      {field("currentPassword", "Current Password", "current-password")}
      {field("newPassword", "New Password", "new-password")}
      {field("confirmPassword", "Confirm New Password", "new-password")}
    </FormDialog>
  );
}

const EMPTY_RESET = { newPassword: "", confirmPassword: "" };

export function ResetPasswordDialog(
  { user, onClose, onDone }: { user: UserRow | null; onClose: () => void; onDone: () => void },
) {
  const uid = useId();
  const { form, mutation: reset, close, onSubmit } = useDialogForm(
    resetPasswordFormSchema,
    EMPTY_RESET,
    {
      send: ({ newPassword }) =>
        apiRequest("PUT", `/api/admin/users/${encodeURIComponent(user!.id)}/password`, {
          newPassword,
        }),
      success: "Password reset successfully.",
      failure: "Failed to reset password.",
      done: onDone,
      cancel: onClose,
      ready: !!user,
    },
  );
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
    <FormDialog
      open={!!user}
      onClose={close}
      size="sm"
      title="Reset Password"
      description={user && <>Set a new password for {userLabel(user)} ({user.username}).</>}
      busy={reset.isPending}
      label="Reset Password"
      busyLabel="Resetting..."
      className="users-form stack"
      onSubmit={onSubmit}
    >
      {field("newPassword", "New Password")}
      {field("confirmPassword", "Confirm Password")}
    </FormDialog>
  );
}

export function ChangeRoleDialog(
  { user, roles, onClose, onDone, canSetChainAdmin }: {
    user: UserRow | null;
    roles: Role[];
    onClose: () => void;
    onDone: () => void;
    /** A chain of several stores, and the owner or a chain admin: says whether an admin is a chain admin. */
    canSetChainAdmin?: boolean;
  },
) {
  const uid = useId();
  const initial = {
    role: user?.role ?? "AUTHORIZED_USER",
    // A new admin is a chain admin unless told otherwise, as the server makes them.
    chainAdmin: user?.role === "ADMIN" ? user.chainAdmin : true,
  };
  const { form, mutation: update, onSubmit } = useDialogForm(roleChangeSchema, initial, {
    send: ({ role, chainAdmin }) =>
      apiRequest<UserRow>("PUT", `/api/admin/users/${encodeURIComponent(user!.id)}`, {
        role,
        ...(canSetChainAdmin && role === "ADMIN" ? { chainAdmin } : {}),
      }),
    success: (row) =>
      `${userLabel(row)} is now ${
        row.role === "ADMIN" && canSetChainAdmin
          ? row.chainAdmin ? "a chain admin" : "a store admin"
          : ROLE_LABELS[row.role]
      }.`,
    failure: "Failed to update user role.",
    // The last owner's role: the server says why, on the field and in the toast.
    explainWith: "role",
    done: onDone,
    cancel: onClose,
    ready: !!user,
  });
  return (
    <FormDialog
      open={!!user}
      onClose={onClose}
      size="sm"
      title="Change Role"
      description={user && <>Choose the role of {userLabel(user)} ({user.username}).</>}
      busy={update.isPending}
      label="Update Role"
      busyLabel="Updating..."
      className="users-form"
      onSubmit={onSubmit}
    >
      <RoleSelect
        id={`${uid}-role`}
        value={form.values.role}
        // The user's present role stays listed even when it may not be given.
        roles={user && !roles.includes(user.role) ? [...roles, user.role] : roles}
        onChange={(r) => form.setField("role", r as Role)}
        error={form.errors.role}
      />
      {canSetChainAdmin && form.values.role === "ADMIN" && (
        <ChainAdminCheckbox
          checked={form.values.chainAdmin}
          onChange={(v) => form.setField("chainAdmin", v)}
        />
      )}
    </FormDialog>
  );
}

/**
 * The stores a user works in. A store admin gives and takes only their own
 * stores; the user keeps the others (the server keeps them too).
 */
export function ChangeStoresDialog(
  { user, stores, onClose, onDone }: {
    user: UserRow | null;
    /** The stores the signed-in admin may give. */
    stores: StoreOption[];
    onClose: () => void;
    onDone: () => void;
  },
) {
  const uid = useId();
  const [chosen, setChosen] = useState<string[]>(
    (user?.storeIds ?? []).filter((id) => stores.some((s) => s.id === id)),
  );
  const [error, setError] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: (storeIds: string[]) =>
      apiRequest<UserRow>("PUT", `/api/admin/users/${encodeURIComponent(user!.id)}/stores`, {
        storeIds,
      }),
    onSuccess: (row) => {
      succeeded(`The stores of ${userLabel(row)} were saved.`);
      onDone();
    },
    onError: (e) => {
      const fields = serverFields(e);
      setError(
        fields?.storeIds ?? (e instanceof ApiError && e.status < 500 ? e.detail : undefined),
      );
      failed(e, fields?.storeIds ?? "Failed to change the user's stores.");
    },
  });
  return (
    <FormDialog
      open={!!user}
      onClose={onClose}
      size="sm"
      title="Change Stores"
      description={user && <>The stores {userLabel(user)} ({user.username}) works in.</>}
      busy={save.isPending}
      label="Save Stores"
      busyLabel="Saving..."
      className="users-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!save.isPending && user) save.mutate(chosen);
      }}
    >
      <StoreCheckboxes
        id={`${uid}-stores`}
        stores={stores}
        chosen={chosen}
        onChange={(ids) => {
          setChosen(ids);
          setError(undefined);
        }}
        error={error}
      />
    </FormDialog>
  );
}

export function ChangeUsernameDialog(
  { user, onClose, onDone }: { user: UserRow | null; onClose: () => void; onDone: () => void },
) {
  const uid = useId();
  const initial = { username: user?.username ?? "" };
  const { form, mutation: update, onSubmit } = useDialogForm(usernameChangeSchema, initial, {
    send: ({ username }) =>
      apiRequest<UserRow>("PUT", `/api/admin/users/${encodeURIComponent(user!.id)}`, {
        username,
      }),
    success: "Username updated successfully.",
    failure: "Failed to update username. It may already be in use.",
    done: onDone,
    cancel: onClose,
    ready: !!user,
  });
  return (
    <FormDialog
      open={!!user}
      onClose={onClose}
      size="sm"
      title="Change Username"
      description={user && <>The username {userLabel(user)} signs in with.</>}
      busy={update.isPending}
      label="Update Username"
      busyLabel="Updating..."
      className="users-form"
      onSubmit={onSubmit}
    >
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
    </FormDialog>
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
