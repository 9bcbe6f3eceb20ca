import { sql, type Transaction } from "kysely";
import type { Database } from "../../db/schema.ts";
import type { DB } from "./database.ts";

/**
 * Runs `work` in one transaction holding a PostgreSQL advisory lock, so app
 * processes starting together on one database take turns: the first one
 * creates the first owner and the default catalog, the others then find them
 * and create nothing (without it, two fresh replicas could both see an empty
 * users table). The lock is released with the transaction.
 */
export async function withStartupLock<T>(
  db: DB,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('lensdesk:startup'))`.execute(trx);
    return await work(trx);
  });
}
