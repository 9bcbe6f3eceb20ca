// The labs catalog (ADMIN/OWNER): where jobs are made, and how many business
// days each takes. A lab with jobs is deactivated, never deleted.
import type { DB } from "../db/database.ts";
import { isUuid } from "../db/ids.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import { recordChanges } from "../audit/describe.ts";
import type { LabInput } from "../schemas/order.ts";
import type { LabView } from "./views.ts";

const COLUMNS = [
  "id",
  "name",
  "email",
  "phone",
  "accountNumber",
  "turnaroundDays",
  "active",
] as const;
const FIELDS = ["name", "email", "phone", "accountNumber", "turnaroundDays", "active"];

/** Every lab, by name; `activeOnly` for the choice on a new order. */
/**
 * The chain's labs by name; active ones only with `activeOnly`, and of those
 * the ones `storeId` uses when it names any (store_labs, migration 0039).
 */
export function listLabs(db: DB, activeOnly = false, storeId?: string): Promise<LabView[]> {
  let q = db.selectFrom("labs").select(COLUMNS);
  if (activeOnly) q = q.where("active", "=", true);
  if (storeId) {
    q = q.where((eb) =>
      eb.or([
        eb.not(eb.exists(
          eb.selectFrom("storeLabs").select("labId").where("storeLabs.storeId", "=", storeId),
        )),
        eb.exists(
          eb.selectFrom("storeLabs").select("labId").where("storeLabs.storeId", "=", storeId)
            .whereRef("storeLabs.labId", "=", "labs.id"),
        ),
      ])
    );
  }
  return q.orderBy("name").orderBy("id").execute();
}

/** Whether `storeId` uses `labId`: it names it, or it names no lab at all. */
export async function storeUsesLab(db: DB, storeId: string, labId: string): Promise<boolean> {
  const named = await db.selectFrom("storeLabs").select("labId").where("storeId", "=", storeId)
    .execute();
  return named.length === 0 || named.some((r) => r.labId === labId);
}

export const NOT_A_LAB_OF_THE_STORE =
  "This store does not use that lab. Choose one of the store's labs.";

export function findLab(db: DB, id: string): Promise<LabView | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db.selectFrom("labs").select(COLUMNS).where("id", "=", id).executeTakeFirst();
}

export const LAB_NAME_TAKEN = "A lab with this name already exists";

export async function insertLab(db: DB, input: LabInput, actor: AuditActor): Promise<LabView> {
  return await db.transaction().execute(async (trx) => {
    const lab = await trx.insertInto("labs").values(input).returning(COLUMNS)
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, "catalog.create", "labs", lab.id, {
      name: lab.name,
      changes: recordChanges({}, lab, FIELDS),
    });
    return lab;
  });
}

/** The whole lab; undefined when there is no such lab. */
export async function updateLab(
  db: DB,
  id: string,
  input: LabInput,
  actor: AuditActor,
): Promise<LabView | undefined> {
  if (!isUuid(id)) return undefined;
  return await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("labs").select(COLUMNS).where("id", "=", id).forUpdate()
      .executeTakeFirst();
    if (!before) return undefined;
    const lab = await trx.updateTable("labs").set({ ...input, updatedAt: new Date() })
      .where("id", "=", id).returning(COLUMNS).executeTakeFirstOrThrow();
    await recordAudit(trx, actor, "catalog.update", "labs", id, {
      name: lab.name,
      changes: recordChanges(before, lab, FIELDS),
    });
    return lab;
  });
}
