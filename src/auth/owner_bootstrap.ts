import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import type { DB } from "../db/database.ts";
import { countUsers, insertUser } from "../users/users.ts";
import { hashPassword, MIN_PASSWORD_LENGTH } from "./password.ts";
import { recordAudit } from "../audit/audit_log.ts";

export interface OwnerSettings {
  username?: string;
  password?: string;
  email?: string;
}

export type BootstrapResult =
  | { created: false }
  | { created: true; username: string; generatedPassword?: string };

/**
 * A fresh install has no user, so nobody could sign in to create one. The
 * first OWNER comes from OWNER_* variables, or gets a random password that is
 * shown once in the start-up log.
 */
export async function ensureFirstOwner(db: DB, owner: OwnerSettings): Promise<BootstrapResult> {
  if (await countUsers(db) > 0) return { created: false };
  const username = owner.username?.trim() || "owner";
  if (username.length < 3) throw new Error("OWNER_USERNAME must be at least 3 characters");
  if (owner.password !== undefined && owner.password.length < MIN_PASSWORD_LENGTH) {
    throw new Error(`OWNER_PASSWORD must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  const generatedPassword = owner.password === undefined
    ? encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(10)))
    : undefined;
  const user = await insertUser(db, {
    username,
    firstName: "",
    lastName: "",
    email: owner.email?.trim() || null,
    role: "OWNER",
    passwordHash: await hashPassword(owner.password ?? generatedPassword!),
  });
  await recordAudit(db, { id: null, label: "system" }, "user.bootstrap_owner", "user", user.id, {
    username,
  });
  return { created: true, username, generatedPassword };
}
