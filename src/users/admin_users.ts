import type { DB } from "../db/database.ts";
import type { Role } from "../../db/schema.ts";
import type { NewUserInput } from "../schemas/users.ts";
import { hashPassword } from "../auth/password.ts";
import { invalidateUserSessions } from "../auth/session.ts";
import { deleteAccountFailures } from "../auth/password_failures.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import { findUserByUsername } from "./users.ts";
import { assignableRoles, type Person, userPermissions } from "./permissions.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { isUuid } from "../db/ids.ts";
import { inTransaction } from "../db/transaction.ts";
import type { Outcome } from "../http/outcome.ts";
import {
  addUserStores,
  findActiveStores,
  findStoreIdsByUser,
  findUserStores,
  replaceUserStores,
} from "../stores/stores.ts";
import { diffFields, recordChanges } from "../audit/describe.ts";

/** The fields of an account the history records, old → new (never the password). */
const USER_HISTORY_FIELDS = ["username", "firstName", "lastName", "email", "role"] as const;

export interface UserRow {
  id: string;
  firstName: string;
  lastName: string;
  username: string;
  email: string | null;
  role: Role;
  isExternal: boolean;
  /** Signs in with a second factor (an owner may reset it). */
  twoFactorEnabled: boolean;
  createdAt: string;
  /** The stores they were given, by code (an owner works in every store whatever these say). */
  storeIds: string[];
}

export async function listUsers(db: DB): Promise<UserRow[]> {
  const rows = await db.selectFrom("users")
    .select([
      "id",
      "firstName",
      "lastName",
      "username",
      "email",
      "role",
      "isExternal",
      "createdAt",
      "totpEnabledAt",
    ])
    .orderBy("createdAt").orderBy("username").execute();
  const stores = await findStoreIdsByUser(db);
  return rows.map(({ totpEnabledAt, ...r }) => ({
    ...r,
    twoFactorEnabled: totpEnabledAt !== null,
    createdAt: r.createdAt.toISOString(),
    storeIds: stores.get(r.id) ?? [],
  }));
}

export type UserResult<T> = Outcome<T>;

const forbidden = (message: string) => ({ ok: false, status: 403, message }) as const;
const TAKEN = "That username is already taken";
/**
 * An account that signs in through the owner provider has no password here,
 * and must not get one: a local password would let it in without the
 * provider, past OWNER_EMAILS (an owner removed from that list, say).
 */
export const EXTERNAL_PASSWORD_MESSAGE =
  "This account signs in through the owner sign-in provider, so it has no password here to set or change.";

const taken = () => ({ ok: false, status: 409, message: TAKEN, field: "username" }) as const;

async function target(db: DB, id: string) {
  if (!isUuid(id)) return undefined;
  return await db.selectFrom("users").select(["id", "role", "username", "isExternal"])
    .where("id", "=", id).executeTakeFirst();
}

/**
 * A new staff account working in `storeIds` (the store of the admin who
 * adds them), all or nothing.
 */
export async function createUser(
  db: DB,
  actor: Person & AuditActor,
  input: NewUserInput,
  storeIds: string[],
): Promise<UserResult<UserRow>> {
  if (!assignableRoles(actor.role).includes(input.role)) {
    return forbidden("Only an owner can create another owner");
  }
  if (await findUserByUsername(db, input.username)) return taken();
  const passwordHash = await hashPassword(input.password);
  return await inTransaction(db, async (trx) => {
    const user = await trx.insertInto("users").values({
      username: input.username,
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      role: input.role,
      passwordHash,
    }).onConflict((oc) => oc.doNothing()).returning(["id"]).executeTakeFirst();
    // Another request took the name between the check and the insert.
    if (!user) return taken();
    await addUserStores(trx, user.id, storeIds);
    await recordAudit(trx, actor, "user.create", "user", user.id, {
      username: input.username,
      role: input.role,
      storeIds,
      changes: recordChanges({}, input, USER_HISTORY_FIELDS),
    });
    const row = (await listUsers(trx)).find((u) => u.id === user.id)!;
    return { ok: true, value: row } as const;
  });
}

export async function deleteUser(db: DB, actor: Person & AuditActor, id: string) {
  const user = await target(db, id);
  if (!user) return { ok: false, status: 404, message: "User not found" } as const;
  if (!userPermissions(actor, user).canDelete) {
    return forbidden(
      actor.id === id ? "You cannot delete yourself" : "Your role may not delete this user",
    );
  }
  const deleted = await db.transaction().execute(async (trx) => {
    if (user.role === "OWNER" && !await keepsAnOwner(trx, id)) return false;
    const before = await trx.selectFrom("users").select(USER_HISTORY_FIELDS).where("id", "=", id)
      .forUpdate().executeTakeFirstOrThrow();
    await trx.deleteFrom("users").where("id", "=", id).execute();
    await recordAudit(trx, actor, "user.delete", "user", id, {
      username: user.username,
      changes: recordChanges(before, {}, USER_HISTORY_FIELDS),
    });
    return true;
  });
  if (!deleted) return { ok: false, status: 409, message: LAST_OWNER_MESSAGE } as const;
  return { ok: true, value: null } as const;
}

export async function resetUserPassword(
  db: DB,
  actor: Person & AuditActor,
  id: string,
  newPassword: string,
  /** The actor's own session, kept when an owner resets their own password. */
  actorSessionId?: string,
) {
  const user = await target(db, id);
  if (!user) return { ok: false, status: 404, message: "User not found" } as const;
  if (!userPermissions(actor, user).canResetPassword) {
    // The role may act on this user, but the account has no password here.
    if (
      user.isExternal && userPermissions(actor, { ...user, isExternal: false }).canResetPassword
    ) {
      return { ok: false, status: 409, message: EXTERNAL_PASSWORD_MESSAGE } as const;
    }
    return forbidden("Your role may not reset this user's password");
  }
  await db.updateTable("users").set({
    passwordHash: await hashPassword(newPassword),
    updatedAt: new Date(),
  }).where("id", "=", id).execute();
  // A reset password must not leave old sign-ins open, nor the back-off that
  // guesses at the old one built up. An owner resetting their own keeps the
  // session they are doing it from, as a change of one's own password does.
  if (id === actor.id && actorSessionId) {
    await db.deleteFrom("sessions").where("userId", "=", id).where("id", "!=", actorSessionId)
      .execute();
  } else {
    await invalidateUserSessions(db, id);
  }
  await deleteAccountFailures(db, id, "password");
  await recordAudit(db, actor, "user.reset_password", "user", id, {
    username: user.username,
    changes: [{ field: "password", secret: true }],
  });
  return { ok: true, value: null } as const;
}

export const LAST_OWNER_MESSAGE =
  "The store's last owner cannot stop being an owner. Make another user an owner first.";

/**
 * Whether the store keeps an owner once `leaving` is no longer one. Run in the
 * transaction of the change: the owners' rows are locked, so two owners
 * demoting (or deleting) each other at once cannot both pass the count.
 */
async function keepsAnOwner(trx: DB, leaving: string): Promise<boolean> {
  const owners = await trx.selectFrom("users").select("id").where("role", "=", "OWNER")
    .forUpdate().execute();
  return owners.some((o) => o.id !== leaving);
}

export async function updateUser(
  db: DB,
  actor: Person & AuditActor,
  id: string,
  change: { role: Role } | { username: string },
): Promise<UserResult<UserRow>> {
  const user = await target(db, id);
  if (!user) return { ok: false, status: 404, message: "User not found" };
  const can = userPermissions(actor, user);
  if ("role" in change) {
    if (!can.canChangeRole || !assignableRoles(actor.role).includes(change.role)) {
      return forbidden("Your role may not give this user that role");
    }
    const changed = await db.transaction().execute(async (trx) => {
      if (change.role !== "OWNER" && !await keepsAnOwner(trx, id)) return false;
      const before = await trx.selectFrom("users").select("role").where("id", "=", id)
        .forUpdate().executeTakeFirst();
      if (!before) return false;
      await trx.updateTable("users").set({ role: change.role, updatedAt: new Date() })
        .where("id", "=", id).execute();
      // Whose role, and from what to what: the entry names the user.
      await recordAudit(trx, actor, "user.change_role", "user", id, {
        username: user.username,
        from: before.role,
        to: change.role,
        changes: diffFields(before, change, ["role"]),
      });
      return true;
    });
    if (!changed) {
      const gone = !await target(db, id);
      return gone
        ? { ok: false, status: 404, message: "User not found" }
        : { ok: false, status: 409, message: LAST_OWNER_MESSAGE, field: "role" };
    }
  } else {
    if (!can.canChangeUsername) return forbidden("Your role may not rename this user");
    const existing = await findUserByUsername(db, change.username);
    if (existing && existing.id !== id) return taken();
    try {
      await db.updateTable("users").set({ username: change.username, updatedAt: new Date() })
        .where("id", "=", id).execute();
    } catch (err) {
      if (isUniqueViolation(err)) return taken();
      throw err;
    }
    await recordAudit(db, actor, "user.change_username", "user", id, {
      from: user.username,
      to: change.username,
      changes: diffFields(user, change, ["username"]),
    });
  }
  return { ok: true, value: (await listUsers(db)).find((u) => u.id === id)! };
}

/**
 * Own password, once the caller has checked the current one (through
 * checkPassword, which throttles it like a sign-in); other sessions of the
 * user end.
 */
export async function changeOwnPassword(
  db: DB,
  userId: string,
  keepSessionId: string,
  newPassword: string,
): Promise<UserResult<null>> {
  const user = await db.selectFrom("users").select(["username", "isExternal"])
    .where("id", "=", userId).executeTakeFirstOrThrow();
  if (user.isExternal) return { ok: false, status: 409, message: EXTERNAL_PASSWORD_MESSAGE };
  await db.updateTable("users").set({
    passwordHash: await hashPassword(newPassword),
    updatedAt: new Date(),
  }).where("id", "=", userId).execute();
  await db.deleteFrom("sessions").where("userId", "=", userId).where("id", "!=", keepSessionId)
    .execute();
  await recordAudit(
    db,
    { id: userId, label: user.username },
    "user.change_own_password",
    "user",
    userId,
    {},
  );
  return { ok: true, value: null };
}

export const OWNER_STORES_MESSAGE = "An owner works in every store of the chain.";
export const NO_STORES_MESSAGE = "Choose at least one store";

/**
 * The stores a user works in. An owner gives any active store; an admin
 * gives and takes only stores they work in themselves (the user keeps the
 * others), and only to the accounts they manage.
 */
export async function setUserStores(
  db: DB,
  actor: Person & AuditActor,
  id: string,
  storeIds: string[],
): Promise<UserResult<UserRow>> {
  const user = await target(db, id);
  if (!user) return { ok: false, status: 404, message: "User not found" };
  if (!userPermissions(actor, user).canChangeRole) {
    return forbidden("Your role may not change this user's stores");
  }
  if (user.role === "OWNER") return { ok: false, status: 409, message: OWNER_STORES_MESSAGE };
  const wanted = [...new Set(storeIds)];
  const active = new Set((await findActiveStores(db)).map((s) => s.id));
  if (wanted.some((s) => !active.has(s))) {
    return {
      ok: false,
      status: 400,
      message: "Choose active stores of the chain",
      field: "storeIds",
    };
  }
  const result = await inTransaction(db, async (trx) => {
    const current = (await findStoreIdsByUser(trx, id)).get(id) ?? [];
    let next = wanted;
    if (actor.role !== "OWNER") {
      const mine = new Set(
        (await findUserStores(trx, { id: actor.id ?? "", role: actor.role })).map((s) => s.id),
      );
      if (wanted.some((s) => !mine.has(s) && !current.includes(s))) {
        return forbidden("You can only give the stores you work in");
      }
      // What the admin cannot see stays as it was.
      next = [...new Set([...wanted, ...current.filter((s) => !mine.has(s))])];
    }
    if (next.length === 0) {
      return { ok: false, status: 400, message: NO_STORES_MESSAGE, field: "storeIds" } as const;
    }
    const { from, to } = await replaceUserStores(trx, id, next);
    await recordAudit(trx, actor, "user.change_stores", "user", id, {
      username: user.username,
      changes: diffFields({ stores: from.join(", ") }, { stores: to.join(", ") }, ["stores"]),
    });
    return { ok: true } as const;
  });
  if (!result.ok) return result;
  return { ok: true, value: (await listUsers(db)).find((u) => u.id === id)! };
}
