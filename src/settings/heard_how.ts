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
