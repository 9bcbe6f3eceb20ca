import type { DB } from "../db/database.ts";
import type { Role } from "../../db/schema.ts";
import type { NewUserInput } from "../schemas/users.ts";
import { hashPassword } from "../auth/password.ts";
import { invalidateUserSessions } from "../auth/session.ts";
import { deleteAccountFailures } from "../auth/password_failures.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import { findUserByUsername } from "./users.ts";
import {
  assignableRoles,
  canSetChainAdmin,
  type Person,
  sharesStore,
  userPermissions,
} from "./permissions.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { isUuid } from "../db/ids.ts";
import { inTransaction } from "../db/transaction.ts";
import type { Outcome } from "../http/outcome.ts";
import {
  addUserStores,
  findActiveStores,
  findStoreIdsByUser,
  replaceUserStores,
} from "../stores/stores.ts";
import { diffFields, recordChanges } from "../audit/describe.ts";
import { administeredStoreIds } from "../stores/scope.ts";

/** The fields of an account the history records, old → new (never the password). */
const USER_HISTORY_FIELDS = [
  "username",
  "firstName",
  "lastName",
  "email",
  "role",
  "chainAdmin",
] as const;

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
  /** An ADMIN of the whole chain (false for every other role: see src/stores/scope.ts). */
  chainAdmin: boolean;
}

/** Whose rights a user-management call is checked with: the signed-in user. */
export type UserAdmin = Person & AuditActor & { chainAdmin?: boolean };

/**
 * The actor with the stores they administer (Person.storeIds), which a store
 * admin's every rule needs; nothing to read for the owner and chain admins.
 */
async function withStores(db: DB, actor: UserAdmin): Promise<UserAdmin> {
  const mine = await administeredStoreIds(db, actor);
  return mine ? { ...actor, storeIds: [...mine] } : actor;
}

/**
 * The users `viewer` administers or works beside: everyone for the owner and
 * chain admins (and without a viewer), else the owners and the users who work
 * in one of the store admin's stores.
 */
export async function listUsers(db: DB, viewer?: UserAdmin): Promise<UserRow[]> {
  const all = await listAllUsers(db);
  if (!viewer) return all;
  const actor = await withStores(db, viewer);
  return all.filter((u) => u.id === actor.id || sharesStore(actor, u));
}

async function listAllUsers(db: DB): Promise<UserRow[]> {
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
      "chainAdmin",
    ])
    .orderBy("createdAt").orderBy("username").execute();
  const stores = await findStoreIdsByUser(db);
  return rows.map(({ totpEnabledAt, ...r }) => ({
    ...r,
    twoFactorEnabled: totpEnabledAt !== null,
    createdAt: r.createdAt.toISOString(),
    storeIds: stores.get(r.id) ?? [],
    chainAdmin: r.role === "ADMIN" && r.chainAdmin,
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

/** The user a call acts on, with what the rules look at (their stores, chain admin). */
async function target(db: DB, id: string) {
  if (!isUuid(id)) return undefined;
  const user = await db.selectFrom("users")
    .select(["id", "role", "username", "isExternal", "chainAdmin"])
    .where("id", "=", id).executeTakeFirst();
  if (!user) return undefined;
  const storeIds = (await findStoreIdsByUser(db, id)).get(id) ?? [];
  return { ...user, chainAdmin: user.role === "ADMIN" && user.chainAdmin, storeIds };
}

export const OUTSIDE_YOUR_STORES = "You can only manage the users of the stores you work in.";
export const CHAIN_ADMIN_MESSAGE = "Only the owner or a chain admin can make a chain admin.";
export const NOT_YOUR_STORES_TO_GIVE = "You can only give the stores you work in";
const INACTIVE_STORES = "Choose active stores of the chain";

/**
 * Why `actor` may not see `target` at all (a store admin, a user of none of
 * their stores), else undefined: the reset e-mail and every refusal below
 * say "not yours" before "not your role".
 */
export async function outsideStores(db: DB, actor: UserAdmin, id: string) {
  const user = await target(db, id);
  if (!user) return undefined;
  return sharesStore(await withStores(db, actor), user)
    ? undefined
    : forbidden(OUTSIDE_YOUR_STORES);
}

/**
 * Whether `actor` may give these stores: active stores of the chain, and for
 * a store admin their own. An ADMIN's chain_admin as `actor` may set it.
 */
async function checkStores(db: DB, actor: UserAdmin, storeIds: string[], keep: string[] = []) {
  const active = new Set((await findActiveStores(db)).map((s) => s.id));
  if (storeIds.some((s) => !active.has(s) && !keep.includes(s))) {
    return { ok: false, status: 400, message: INACTIVE_STORES, field: "storeIds" } as const;
  }
  const mine = actor.storeIds && new Set(actor.storeIds);
  if (mine && storeIds.some((s) => !mine.has(s) && !keep.includes(s))) {
    return { ...forbidden(NOT_YOUR_STORES_TO_GIVE), field: "storeIds" } as const;
  }
  return undefined;
}

/**
 * A new staff account working in `input.storeIds`, else `defaultStoreIds`
 * (the store of the admin who adds them), all or nothing. A store admin adds
 * users to their own stores only, and their new admins are store admins.
 */
export async function createUser(
  db: DB,
  caller: UserAdmin,
  input: NewUserInput,
  defaultStoreIds: string[],
): Promise<UserResult<UserRow>> {
  const actor = await withStores(db, caller);
  if (!assignableRoles(actor.role).includes(input.role)) {
    return forbidden("Only an owner can create another owner");
  }
  if (input.chainAdmin && input.role === "ADMIN" && !canSetChainAdmin(actor)) {
    return { ...forbidden(CHAIN_ADMIN_MESSAGE), field: "chainAdmin" };
  }
  const storeIds = [...new Set(input.storeIds ?? defaultStoreIds)];
  if (storeIds.length === 0 && input.role !== "OWNER") {
    return { ok: false, status: 400, message: NO_STORES_MESSAGE, field: "storeIds" };
  }
  const refused = await checkStores(db, actor, storeIds);
  if (refused) return refused;
  // Today's admins were chain admins: absent, an owner's or chain admin's new admin is one too.
  const chainAdmin = input.role === "ADMIN" && canSetChainAdmin(actor) &&
    (input.chainAdmin ?? true);
  if (await findUserByUsername(db, input.username)) return taken();
  const passwordHash = await hashPassword(input.password);
  return await inTransaction(db, async (trx) => {
    const user = await trx.insertInto("users").values({
      username: input.username,
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      role: input.role,
      chainAdmin,
      passwordHash,
    }).onConflict((oc) => oc.doNothing()).returning(["id"]).executeTakeFirst();
    // Another request took the name between the check and the insert.
    if (!user) return taken();
    await addUserStores(trx, user.id, storeIds);
    await recordAudit(trx, actor, "user.create", "user", user.id, {
      username: input.username,
      role: input.role,
      storeIds,
      changes: [
        ...recordChanges({}, { ...input, chainAdmin }, USER_HISTORY_FIELDS),
        ...diffFields({ stores: "" }, { stores: await storeCodes(trx, storeIds) }, ["stores"]),
      ],
    });
    const row = (await listAllUsers(trx)).find((u) => u.id === user.id)!;
    return { ok: true, value: row } as const;
  });
}

export async function deleteUser(db: DB, caller: UserAdmin, id: string) {
  const user = await target(db, id);
  if (!user) return { ok: false, status: 404, message: "User not found" } as const;
  const actor = await withStores(db, caller);
  if (!sharesStore(actor, user)) return forbidden(OUTSIDE_YOUR_STORES);
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
  caller: UserAdmin,
  id: string,
  newPassword: string,
  /** The actor's own session, kept when an owner resets their own password. */
  actorSessionId?: string,
) {
  const user = await target(db, id);
  if (!user) return { ok: false, status: 404, message: "User not found" } as const;
  const actor = await withStores(db, caller);
  if (!sharesStore(actor, user)) return forbidden(OUTSIDE_YOUR_STORES);
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
  caller: UserAdmin,
  id: string,
  change: { role: Role; chainAdmin?: boolean } | { username: string },
): Promise<UserResult<UserRow>> {
  const user = await target(db, id);
  if (!user) return { ok: false, status: 404, message: "User not found" };
  const actor = await withStores(db, caller);
  if (!sharesStore(actor, user) && actor.id !== id) return forbidden(OUTSIDE_YOUR_STORES);
  const can = userPermissions(actor, user);
  if ("role" in change) {
    if (!can.canChangeRole || !assignableRoles(actor.role).includes(change.role)) {
      return forbidden("Your role may not give this user that role");
    }
    if (change.chainAdmin && change.role === "ADMIN" && !canSetChainAdmin(actor)) {
      return { ...forbidden(CHAIN_ADMIN_MESSAGE), field: "chainAdmin" };
    }
    // An admin stays what they were unless told; a new admin is a chain admin
    // when the owner or a chain admin makes them (as every admin was), a store
    // admin when a store admin does.
    const chainAdmin = change.role === "ADMIN" && canSetChainAdmin(actor) &&
      (change.chainAdmin ?? (user.role === "ADMIN" ? user.chainAdmin : true));
    const changed = await db.transaction().execute(async (trx) => {
      if (change.role !== "OWNER" && !await keepsAnOwner(trx, id)) return false;
      const row = await trx.selectFrom("users").select(["role", "chainAdmin"])
        .where("id", "=", id).forUpdate().executeTakeFirst();
      if (!row) return false;
      const before = { role: row.role, chainAdmin: row.role === "ADMIN" && row.chainAdmin };
      await trx.updateTable("users")
        .set({ role: change.role, chainAdmin, updatedAt: new Date() })
        .where("id", "=", id).execute();
      // Whose role, and from what to what: the entry names the user.
      await recordAudit(trx, actor, "user.change_role", "user", id, {
        username: user.username,
        from: before.role,
        to: change.role,
        changes: diffFields(before, { role: change.role, chainAdmin }, ["role", "chainAdmin"]),
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
  return { ok: true, value: (await listAllUsers(db)).find((u) => u.id === id)! };
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
 * The stores a user works in. The owner and chain admins give any active
 * store; a store admin gives and takes only stores they work in themselves
 * (the user keeps the others), and only to the accounts they manage.
 */
export async function setUserStores(
  db: DB,
  caller: UserAdmin,
  id: string,
  storeIds: string[],
): Promise<UserResult<UserRow>> {
  const user = await target(db, id);
  if (!user) return { ok: false, status: 404, message: "User not found" };
  const actor = await withStores(db, caller);
  if (!sharesStore(actor, user)) return forbidden(OUTSIDE_YOUR_STORES);
  if (!userPermissions(actor, user).canChangeRole) {
    return forbidden("Your role may not change this user's stores");
  }
  if (user.role === "OWNER") return { ok: false, status: 409, message: OWNER_STORES_MESSAGE };
  const wanted = [...new Set(storeIds)];
  const result = await inTransaction(db, async (trx) => {
    const current = (await findStoreIdsByUser(trx, id)).get(id) ?? [];
    // A store the user keeps (an inactive one, another admin's) is no new gift.
    const refused = await checkStores(trx, actor, wanted, current);
    if (refused) return refused;
    let next = wanted;
    if (actor.storeIds) {
      const mine = new Set(actor.storeIds);
      // What the store admin does not administer stays as it was.
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
  return { ok: true, value: (await listAllUsers(db)).find((u) => u.id === id)! };
}

/** The codes of these stores, by code, as the history shows them ("DT, UP"). */
async function storeCodes(db: DB, storeIds: string[]): Promise<string> {
  if (storeIds.length === 0) return "";
  return (await db.selectFrom("stores").select("code").where("id", "in", storeIds)
    .orderBy("code").execute()).map((s) => s.code).join(", ");
}
