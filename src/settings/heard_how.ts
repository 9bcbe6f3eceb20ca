import type { DB } from "../db/database.ts";
import type { HeardHowOption } from "../clients/views.ts";

/** Active "How did you hear about us" choices, in the store's order. */
export function listHeardHowOptions(db: DB): Promise<HeardHowOption[]> {
  return db.selectFrom("heardHowOptions").select(["id", "label"])
    .where("active", "=", true)
    .orderBy("sortOrder").orderBy("label").execute();
}

export function findHeardHowOption(db: DB, id: string) {
  return db.selectFrom("heardHowOptions").select(["id", "label", "active"])
    .where("id", "=", id).executeTakeFirst();
}

export const DEFAULT_HEARD_HOW = [
  "Google search",
  "Friend or family",
  "Instagram",
  "Walk-in",
  "Doctor referral",
  "Insurance provider",
];

/** A new store starts with common answers; admins can change them. */
export async function ensureDefaultHeardHow(db: DB): Promise<boolean> {
  const any = await db.selectFrom("heardHowOptions").select("id").limit(1).executeTakeFirst();
  if (any) return false;
  await db.insertInto("heardHowOptions")
    .values(DEFAULT_HEARD_HOW.map((label, i) => ({ label, sortOrder: i + 1 }))).execute();
  return true;
}
