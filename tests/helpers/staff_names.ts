// The forget-this-device tests (API and browser) sign in one staff member with
// names that stand out, and then look for them on the pages a device keeps:
// none may show there.
import type { Role } from "../../db/schema.ts";
import type { DB } from "../../src/db/database.ts";
import { STAFF_ONLY } from "./quote_fixture.ts";
import { createTestUser, type TestUser } from "./test_app.ts";

/** Words that name the signed-in staff member or the quote's optician: on no kept page. */
export const STAFF_NAMES = {
  username: "ottoline_qf",
  firstName: "Ottoline",
  lastName: "Quillfeather",
  email: "ottoline.quillfeather@store.example",
  optician: STAFF_ONLY.opticianName,
};

/** The staff member STAFF_NAMES names, last name included. */
export async function createNamedStaff(db: DB, role?: Role): Promise<TestUser> {
  const staff = await createTestUser(db, {
    username: STAFF_NAMES.username,
    firstName: STAFF_NAMES.firstName,
    email: STAFF_NAMES.email,
    ...(role ? { role } : {}),
  });
  await db.updateTable("users").set({ lastName: STAFF_NAMES.lastName })
    .where("id", "=", staff.id).execute();
  return staff;
}

/** The STAFF_NAMES words `text` holds, in any case. */
export const staffNamesIn = (text: string) =>
  Object.values(STAFF_NAMES).filter((name) => text.toLowerCase().includes(name.toLowerCase()));
