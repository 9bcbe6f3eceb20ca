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
