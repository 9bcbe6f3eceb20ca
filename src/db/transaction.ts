import type { DB } from "./database.ts";

/**
 * Runs `work` in a transaction, or in the caller's when `db` already is one:
 * a write that is all-or-nothing on its own (an intake, the tablet's
 * selection) joins the transaction an Idempotency-Key wraps it in, so its
 * stored answer commits with it (Kysely cannot nest transactions).
 */
export function inTransaction<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
