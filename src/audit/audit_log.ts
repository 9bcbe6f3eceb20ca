import { sql } from "kysely";
import type { DB } from "../db/database.ts";

export interface AuditActor {
  id: string | null;
  /** Kept as text so the record still says who it was after the user is deleted. */
  label: string;
}

export async function recordAudit(
  db: DB,
  actor: AuditActor,
  action: string,
  entityType: string,
  entityId: string | null,
  details: Record<string, unknown> = {},
): Promise<void> {
  await db.insertInto("auditLog").values({
    userId: actor.id,
    actor: actor.label,
    action,
    entityType,
    entityId,
    // Bound as text and cast: postgres.js would otherwise store a JSON *string*
    // scalar in the jsonb column, while PGlite stores the object.
    details: sql`${JSON.stringify(details)}::text::jsonb`,
  }).execute();
}

export function listAuditEntries(db: DB, entityType: string, entityId: string) {
  return db.selectFrom("auditLog").selectAll()
    .where("entityType", "=", entityType).where("entityId", "=", entityId)
    .orderBy("at", "desc").orderBy("id", "desc").execute();
}
