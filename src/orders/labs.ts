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
export function listLabs(db: DB, activeOnly = false): Promise<LabView[]> {
  let q = db.selectFrom("labs").select(COLUMNS);
  if (activeOnly) q = q.where("active", "=", true);
  return q.orderBy("name").orderBy("id").execute();
}

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
