import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import type { Insertable } from "kysely";
import type { PrescriptionsTable } from "../../db/schema.ts";
import type { EyeInput, PrescriptionInput } from "../schemas/prescription.ts";
import type { EyeView, PrescriptionView } from "./views.ts";
import { type AuditActor, recordAudit } from "../audit/audit_log.ts";
import { isUuid } from "../db/ids.ts";

type Eye = "od" | "os";

/** NUMERIC columns as text, so "-2.25" never passes through a float. */
const num = (col: string) => sql<string | null>`${sql.ref(col)}::text`.as(col);
const dateText = (col: "dateWritten") =>
  sql<string>`to_char(${sql.ref(col)}, 'YYYY-MM-DD')`.as(col);

function selectPrescriptions(db: DB) {
  return db.selectFrom("prescriptions").select([
    "id",
    "clientId",
    dateText("dateWritten"),
    "prescriber",
    sql<string | null>`to_char(expires_on, 'YYYY-MM-DD')`.as("expiresOn"),
    "notes",
    num("odSphere"),
    num("odCylinder"),
    "odAxis",
    num("odAdd"),
    num("odPrismAmount"),
    "odPrismBase",
    num("osSphere"),
    num("osCylinder"),
    "osAxis",
    num("osAdd"),
    num("osPrismAmount"),
    "osPrismBase",
    "createdAt",
    "updatedAt",
  ]);
}
type Row = Awaited<ReturnType<ReturnType<typeof selectPrescriptions>["executeTakeFirstOrThrow"]>>;

function eyeView(r: Row, eye: Eye): EyeView {
  const amount = r[`${eye}PrismAmount`];
  const base = r[`${eye}PrismBase`];
  return {
    sphere: r[`${eye}Sphere`]!,
    cylinder: r[`${eye}Cylinder`],
    axis: r[`${eye}Axis`],
    add: r[`${eye}Add`],
    prism: amount !== null && base !== null ? { amount, base } : null,
  };
}

function toView(r: Row): PrescriptionView {
  return {
    id: r.id,
    clientId: r.clientId,
    dateWritten: r.dateWritten as string,
    prescriber: r.prescriber,
    expiresOn: r.expiresOn,
    notes: r.notes,
    rightEye: eyeView(r, "od"),
    leftEye: eyeView(r, "os"),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

function eyeColumns(eye: Eye, e: EyeInput) {
  return {
    [`${eye}Sphere`]: e.sphere,
    [`${eye}Cylinder`]: e.cylinder,
    [`${eye}Axis`]: e.axis,
    [`${eye}Add`]: e.add,
    [`${eye}PrismAmount`]: e.prism?.amount ?? null,
    [`${eye}PrismBase`]: e.prism?.base ?? null,
  };
}

type Columns = Omit<Insertable<PrescriptionsTable>, "clientId" | "id" | "createdAt">;

function columns(input: PrescriptionInput): Columns {
  return {
    dateWritten: input.dateWritten,
    prescriber: input.prescriber,
    expiresOn: input.expiresOn,
    notes: input.notes,
    ...eyeColumns("od", input.rightEye),
    ...eyeColumns("os", input.leftEye),
  } as Columns;
}

/** A client's prescriptions, newest written first (then newest entered). */
export async function listPrescriptions(db: DB, clientId: string): Promise<PrescriptionView[]> {
  if (!isUuid(clientId)) return [];
  const rows = await selectPrescriptions(db).where("clientId", "=", clientId)
    .orderBy("dateWritten", "desc").orderBy("createdAt", "desc").orderBy("id", "desc").execute();
  return rows.map(toView);
}

/** The one the work order shows: the newest written. */
export async function findLatestPrescription(
  db: DB,
  clientId: string,
): Promise<PrescriptionView | undefined> {
  if (!isUuid(clientId)) return undefined;
  const row = await selectPrescriptions(db).where("clientId", "=", clientId)
    .orderBy("dateWritten", "desc").orderBy("createdAt", "desc").orderBy("id", "desc")
    .limit(1).executeTakeFirst();
  return row ? toView(row) : undefined;
}

/** One of a client's prescriptions (an order's pick), or undefined. */
export async function findPrescription(
  db: DB,
  clientId: string,
  id: string,
): Promise<PrescriptionView | undefined> {
  if (!isUuid(clientId) || !isUuid(id)) return undefined;
  const row = await selectPrescriptions(db).where("clientId", "=", clientId).where("id", "=", id)
    .executeTakeFirst();
  return row ? toView(row) : undefined;
}

async function clientExists(db: DB, clientId: string) {
  return !!await db.selectFrom("clients").select("id").where("id", "=", clientId).forUpdate()
    .executeTakeFirst();
}

/** What the history records of a prescription: enough to tell which one. */
const auditDetails = (p: PrescriptionView) => ({
  prescriptionId: p.id,
  dateWritten: p.dateWritten,
  prescriber: p.prescriber,
});

/** A prescription's values as the history compares them ("rightEye.sphere": "-2.25"). */
function historyValues(p: PrescriptionView | undefined): Record<string, string | null> {
  const eye = (name: "rightEye" | "leftEye", e: PrescriptionView["rightEye"] | undefined) => ({
    [`${name}.sphere`]: e?.sphere ?? null,
    [`${name}.cylinder`]: e?.cylinder ?? null,
    [`${name}.axis`]: e?.axis === null || e?.axis === undefined ? null : String(e.axis),
    [`${name}.add`]: e?.add ?? null,
    [`${name}.prism`]: e?.prism ? `${e.prism.amount} ${e.prism.base}` : null,
  });
  return {
    dateWritten: p?.dateWritten ?? null,
    prescriber: p?.prescriber ?? null,
    expiresOn: p?.expiresOn ?? null,
    ...eye("rightEye", p?.rightEye),
    ...eye("leftEye", p?.leftEye),
  };
}

/**
 * Each value that differs between two versions of a prescription, old → new
 * (an added one from blank, a deleted one to blank). Its notes are free text:
 * the history says they were edited, not what they say.
 */
function prescriptionChanges(
  before: PrescriptionView | undefined,
  after: PrescriptionView | undefined,
) {
  const a = historyValues(before);
  const b = historyValues(after);
  const changes: Record<string, unknown>[] = Object.keys(b)
    .filter((k) => (a[k] ?? "") !== (b[k] ?? ""))
    .map((field) => ({ field, from: a[field], to: b[field] }));
  if ((before?.notes ?? "") !== (after?.notes ?? "")) {
    changes.push({ field: "notes", edited: true });
  }
  return changes;
}

/** undefined when the client does not exist. */
export async function insertPrescription(
  db: DB,
  clientId: string,
  input: PrescriptionInput,
  actor: AuditActor,
): Promise<PrescriptionView | undefined> {
  if (!isUuid(clientId)) return undefined;
  return await db.transaction().execute(async (trx) => {
    if (!await clientExists(trx, clientId)) return undefined;
    const { id } = await trx.insertInto("prescriptions")
      .values({ clientId, createdBy: actor.id, ...columns(input) })
      .returning("id").executeTakeFirstOrThrow();
    const view = toView(
      await selectPrescriptions(trx).where("id", "=", id)
        .executeTakeFirstOrThrow(),
    );
    await recordAudit(trx, actor, "client.prescription_add", "client", clientId, {
      ...auditDetails(view),
      changes: prescriptionChanges(undefined, view),
    });
    return view;
  });
}

/** undefined when the client or that prescription of the client does not exist. */
export async function updatePrescription(
  db: DB,
  clientId: string,
  id: string,
  input: PrescriptionInput,
  actor: AuditActor,
): Promise<PrescriptionView | undefined> {
  if (!isUuid(clientId) || !isUuid(id)) return undefined;
  return await db.transaction().execute(async (trx) => {
    const old = await selectPrescriptions(trx).where("id", "=", id)
      .where("clientId", "=", clientId).forUpdate().executeTakeFirst();
    if (!old) return undefined;
    await trx.updateTable("prescriptions")
      .set({ ...columns(input), updatedAt: new Date() })
      .where("id", "=", id).execute();
    const view = toView(
      await selectPrescriptions(trx).where("id", "=", id)
        .executeTakeFirstOrThrow(),
    );
    await recordAudit(trx, actor, "client.prescription_edit", "client", clientId, {
      ...auditDetails(view),
      changes: prescriptionChanges(toView(old), view),
    });
    return view;
  });
}

export async function deletePrescription(
  db: DB,
  clientId: string,
  id: string,
  actor: AuditActor,
): Promise<boolean> {
  if (!isUuid(clientId) || !isUuid(id)) return false;
  return await db.transaction().execute(async (trx) => {
    const row = await selectPrescriptions(trx).where("id", "=", id)
      .where("clientId", "=", clientId).executeTakeFirst();
    if (!row) return false;
    await trx.deleteFrom("prescriptions").where("id", "=", id).execute();
    await recordAudit(trx, actor, "client.prescription_delete", "client", clientId, {
      ...auditDetails(toView(row)),
      changes: prescriptionChanges(toView(row), undefined),
    });
    return true;
  });
}

/** Whether the client exists (a GET of an unknown client's list is a 404, not []). */
export async function findClientForPrescriptions(db: DB, clientId: string): Promise<boolean> {
  if (!isUuid(clientId)) return false;
  return !!await db.selectFrom("clients").select("id").where("id", "=", clientId)
    .executeTakeFirst();
}
