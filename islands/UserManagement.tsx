import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, apiRequest, isUnauthorized } from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { Badge, type BadgeVariant } from "../components/Badge.tsx";
import { DateText } from "../components/client_manager/format.tsx";
import {
  AddUserDialog,
  ChangeMyPasswordDialog,
  ChangeRoleDialog,
  ChangeStoresDialog,
  ChangeUsernameDialog,
  DeleteUserDialog,
  ResetPasswordDialog,
  ResetTwoFactorDialog,
  type StoreOption,
} from "../components/users/dialogs.tsx";
import { UserIdCell } from "../components/users/UserIdCell.tsx";
import type { Role } from "../db/schema.ts";
import type { UserRow } from "../src/users/admin_users.ts";
import {
  assignableRoles,
  canSetChainAdmin,
  type Person,
  ROLE_LABELS,
  userPermissions,
} from "../src/users/permissions.ts";

export interface UserManagementProps {
  initialUsers: UserRow[];
  /** With chainAdmin and, for a store admin, the stores they administer (storeIds). */
  currentUser: Person & { role: Role };
  /**
   * A chain of more than one active store: its stores (the Stores column),
   * and those the signed-in admin may give. Absent in a chain of one store,
   * which looks as it always did.
   */
  chain?: { stores: StoreOption[]; giveable: StoreOption[] };
}

const USERS_KEY = ["admin", "users"];

const ROLE_VARIANTS: Record<Role, BadgeVariant> = {
  OWNER: "default",
  ADMIN: "info",
  AUTHORIZED_USER: "secondary",
};

type RowAction = "reset" | "role" | "username" | "stores" | "delete" | "twoFactor";

export default function UserManagement(
  { initialUsers, currentUser, chain }: UserManagementProps,
) {
  const queryClient = useQueryClient();
  const users = useQuery({
    queryKey: USERS_KEY,
    queryFn: () => apiRequest<UserRow[]>("GET", "/api/admin/users"),
    initialData: initialUsers,
  });
  const [adding, setAdding] = useState(false);
  const [changingOwn, setChangingOwn] = useState(false);
  const [action, setAction] = useState<{ kind: RowAction; user: UserRow } | null>(null);
  const roles = assignableRoles(currentUser.role);
  const resetEmail = useMutation({
    mutationFn: (user: UserRow) =>
      apiRequest<{ message: string }>(
        "POST",
        `/api/admin/users/${encodeURIComponent(user.id)}/reset-email`,
      ),
    onSuccess: (result) =>
      toast({ title: "Success", description: result.message, variant: "success" }),
    onError: (error) => {
      if (isUnauthorized(error)) return;
      // Not configured, no address, too many: the server says which; anything else is the spec's words.
      const known = error instanceof ApiError && [404, 409, 429].includes(error.status);
      toast({
        title: "Error",
        description: known ? error.detail : "Failed to send password reset email.",
        variant: "destructive",
      });
    },
  });

  const closeAction = () => setAction(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: USERS_KEY });
  const done = () => {
    // An owner who changed their own role sees the screen their new role gets.
    if (action?.kind === "role" && action.user.id === currentUser.id) {
      globalThis.location.reload();
      return;
    }
    setAction(null);
    refresh();
  };
  const target = (kind: RowAction) => action?.kind === kind ? action.user : null;
  const rows = users.data;
  const chainAdmins = !!chain && canSetChainAdmin(currentUser);
  const codeOf = new Map(chain?.stores.map((s) => [s.id, s.code]));
  const storesText = (user: UserRow) =>
    user.role === "OWNER"
      ? "All stores"
      : user.storeIds.map((id) => codeOf.get(id)).filter(Boolean).join(", ");
  const columns = chain ? 9 : 8;

  return (
    <div className="users">
      <div className="page-head">
        <div>
          <h1>User Management</h1>
          <p className="muted">Staff accounts, their roles and passwords.</p>
        </div>
        <div className="actions">
          <a className="btn btn-outline" href="/admin/stores">Stores</a>
          <button type="button" className="btn btn-outline" onClick={() => setChangingOwn(true)}>
            Change My Password
          </button>
          <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
            Add User
          </button>
        </div>
      </div>

      <div
        className="data-table-wrap"
        tabIndex={0}
        role="region"
        aria-label="Users table"
      >
        <table
          className="data-table data-table-actions data-table-roomy users-table"
          aria-busy={users.isFetching ? true : undefined}
        >
          <thead>
            <tr>
              <th scope="col">ID</th>
              <th scope="col">First Name</th>
              <th scope="col">Last Name</th>
              <th scope="col">Username</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              {chain && <th scope="col">Stores</th>}
              <th scope="col">Created</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={columns} className="empty">No users yet.</td>
              </tr>
            )}
            {rows.map((user) => {
              const can = userPermissions(currentUser, user);
              const self = user.id === currentUser.id;
              /** A button that opens one of the row's dialogs, when the rules allow it. */
              const opener = (kind: RowAction, label: string, allowed: boolean, extra = "") =>
                allowed && (
                  <button
                    type="button"
                    className={`btn btn-outline btn-sm ${extra}`.trim()}
                    onClick={() => setAction({ kind, user })}
                  >
                    {label}
                  </button>
                );
              return (
                <tr key={user.id} data-user-id={user.id}>
                  <td className="users-id" data-label="ID">
                    <UserIdCell id={user.id} username={user.username} />
                  </td>
                  <td data-label="First Name">
                    {user.firstName || <span className="muted">—</span>}
                  </td>
                  <td data-label="Last Name">
                    {user.lastName || <span className="muted">—</span>}
                  </td>
                  <td className="users-username" data-label="Username">
                    {user.username}
                    {self && <span className="users-you">(you)</span>}
                  </td>
                  <td className="users-email" data-label="Email">
                    {user.email || <span className="muted">—</span>}
                  </td>
                  <td data-label="Role">
                    <Badge variant={ROLE_VARIANTS[user.role]}>{ROLE_LABELS[user.role]}</Badge>
                    {chain && user.role === "ADMIN" && (
                      <span className="users-you">{user.chainAdmin ? "(chain)" : "(stores)"}</span>
                    )}
                  </td>
                  {chain && (
                    <td data-label="Stores">
                      {storesText(user) || <span className="muted">None</span>}
                    </td>
                  )}
                  <td className="users-date" data-label="Created">
                    <DateText iso={user.createdAt} />
                  </td>
                  <td className="users-actions-cell">
                    <div className="users-actions">
                      {opener("reset", "Reset Password", can.canResetPassword)}
                      {opener("role", "Change Role", can.canChangeRole)}
                      {opener("username", "Change Username", can.canChangeUsername)}
                      {opener("stores", "Change Stores", !!chain && can.canChangeStores)}
                      {opener("twoFactor", "Reset Two-Factor", can.canResetTwoFactor)}
                      <button
                        type="button"
                        className="btn btn-outline btn-sm"
                        disabled={resetEmail.isPending && resetEmail.variables?.id === user.id}
                        onClick={() => resetEmail.mutate(user)}
                      >
                        Send Reset Email
                      </button>
                      {opener("delete", "Delete", can.canDelete, "users-delete")}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      <aside className="notice notice-info users-notes" aria-labelledby="users-notes-title">
        <h2 id="users-notes-title">About roles</h2>
        <ul>
          <li>
            <strong>Authorized User</strong>: staff who manage clients and create quotes.
          </li>
          <li>
            <strong>Admin</strong>: also manages settings and users; can reset passwords, change
            roles and delete Authorized User accounts only.
          </li>
          {chain && (
            <li>
              <strong>Chain admin</strong>: an admin of every store.{" "}
              <strong>Store admin</strong>: an admin of the stores they work in only (their users
              and their stores' own settings); only the owner or a chain admin makes chain admins.
            </li>
          )}
          <li>
            <strong>Owner</strong>: full control over every account, and the only role that can
            create or appoint other owners.
          </li>
          <li>
            No one can delete their own account; use Change My Password for your own. An owner may
            also reset their own password and change their own role, but the store always keeps at
            least one owner.
          </li>
          <li>
            An owner can reset someone's two-factor sign-in (a lost phone): they are signed out and
            told by e-mail.
          </li>
        </ul>
      </aside>

      <AddUserDialog
        open={adding}
        onClose={() => setAdding(false)}
        roles={roles}
        onDone={() => {
          setAdding(false);
          refresh();
        }}
        choice={chain && {
          stores: chain.giveable,
          canSetChainAdmin: canSetChainAdmin(currentUser),
        }}
      />
      <ChangeMyPasswordDialog open={changingOwn} onClose={() => setChangingOwn(false)} />
      <ResetPasswordDialog user={target("reset")} onClose={closeAction} onDone={done} />
      <ChangeRoleDialog
        key={`role-${target("role")?.id}`}
        user={target("role")}
        roles={roles}
        onClose={closeAction}
        onDone={done}
        canSetChainAdmin={chainAdmins}
      />
      {chain && (
        <ChangeStoresDialog
          key={`stores-${target("stores")?.id}`}
          user={target("stores")}
          stores={chain.giveable}
          onClose={closeAction}
          onDone={done}
        />
      )}
      <ChangeUsernameDialog
        key={`username-${target("username")?.id}`}
        user={target("username")}
        onClose={closeAction}
        onDone={done}
      />
      <DeleteUserDialog user={target("delete")} onClose={closeAction} onDone={done} />
      <ResetTwoFactorDialog user={target("twoFactor")} onClose={closeAction} onDone={done} />
    </div>
  );
}
