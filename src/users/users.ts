import type { Insertable } from "kysely";
import type { DB } from "../db/database.ts";
import type { UsersTable } from "../../db/schema.ts";

export function findUserByUsername(db: DB, username: string) {
  return db.selectFrom("users").selectAll()
    .where((eb) => eb(eb.fn("lower", ["username"]), "=", username.trim().toLowerCase()))
    .executeTakeFirst();
}

export function findUserById(db: DB, id: string) {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function countUsers(db: DB): Promise<number> {
  const row = await db.selectFrom("users").select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function insertUser(db: DB, user: Insertable<UsersTable>) {
  return db.insertInto("users").values(user).returningAll().executeTakeFirstOrThrow();
}

/** The display name of the staff bar: first name, else e-mail, else "Staff". */
export function displayName(user: { firstName: string; email: string | null }): string {
  return user.firstName.trim() || user.email?.trim() || "Staff";
}

export function findUserByExternalSubject(db: DB, subject: string) {
  return db.selectFrom("users").selectAll().where("externalSubject", "=", subject)
    .executeTakeFirst();
}

/** A free username derived from an e-mail: "olivia" then "olivia2", "olivia3"... */
/** The owner account the provider signs in with this e-mail, whatever its subject. */
export function findExternalUserByEmail(db: DB, email: string) {
  return db.selectFrom("users").select(["id", "externalSubject"])
    .where("isExternal", "=", true)
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.trim().toLowerCase()))
    .executeTakeFirst();
}

export async function availableUsername(db: DB, email: string): Promise<string> {
  let base = email.split("@")[0].toLowerCase().replace(/[^a-z0-9._-]/g, "").slice(0, 40);
  if (base.length < 3) base = `${base}owner`;
  for (let n = 1;; n++) {
    const candidate = n === 1 ? base : `${base}${n}`;
    if (!await findUserByUsername(db, candidate)) return candidate;
  }
}
