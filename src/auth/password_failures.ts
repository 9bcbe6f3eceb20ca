import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import {
  ACCOUNT_RULE,
  ADDRESS_RULE,
  type FailureHistory,
  LONGEST_WINDOW_MS,
  PAIR_RULE,
} from "./password_throttle.ts";

/** Who is being guessed at, and from where; see the migration 0003 for the key formats. */
export interface FailureKey {
  account: string;
  source: string;
  address: string;
  knownDevice: boolean;
}

const epochMs = sql`(extract(epoch from at) * 1000)::float8`;
// The two-integer advisory locks live apart from the one-bigint lock the
// migrator takes; these numbers are only ours.
const LOCK_SPACE = 0x4c44_0001;

/**
 * Records an attempt as a failure before the password is even verified, and
 * reads what the three rules need: the newest failures of this account from
 * this source and of this address (only as many as a rule counts), and the
 * count and newest of this account's failures from anywhere but its known
 * devices. `refuse` judges that history; when it refuses, the attempt is
 * rolled back (a refusal does not extend a lock). A right password deletes
 * the row afterwards (deletePairFailures).
 *
 * Parallel guesses must see each other, or a burst of thirty would all pass
 * one stale count (measured before this: 13 of 30 got through on a server).
 * So the insert and the read run in a short transaction holding advisory
 * locks on the account and the address: the next attempt on either reads only
 * once this one is committed or rolled back. Always account before address,
 * so two attempts never wait on each other in a circle. The argon2
 * verification runs after the transaction, outside the locks.
 */
export async function beginPasswordAttempt<R>(
  db: DB,
  key: FailureKey,
  purpose: string,
  now: number,
  refuse: (history: FailureHistory) => R | null,
): Promise<{ history: FailureHistory; refused: R | null }> {
  const pairSince = new Date(now - PAIR_RULE.windowMs);
  const addressSince = new Date(now - ADDRESS_RULE.windowMs);
  const accountSince = new Date(now - ACCOUNT_RULE.windowMs);
  const query = sql<{
    pair: number[] | null;
    address: number[] | null;
    accountCount: number;
    accountNewest: number | null;
  }>`
    WITH attempt AS (
      INSERT INTO password_check_failures (at, account, source, address, known_device, purpose)
      VALUES (${new Date(now)}, ${key.account}, ${key.source}, ${key.address},
        ${key.knownDevice}, ${purpose})
    )
    -- The insert above always runs; this statement's snapshot does not see it.
    SELECT
      (array_agg(${epochMs} ORDER BY at DESC)
        FILTER (WHERE account = ${key.account} AND source = ${key.source} AND at > ${pairSince})
      )[1:${PAIR_RULE.maxFailures}::int] AS pair,
      (array_agg(${epochMs} ORDER BY at DESC)
        FILTER (WHERE address = ${key.address} AND at > ${addressSince})
      )[1:${ADDRESS_RULE.maxFailures}::int] AS address,
      (count(*) FILTER (WHERE account = ${key.account} AND NOT known_device
        AND at > ${accountSince}))::int AS account_count,
      max(${epochMs}) FILTER (WHERE account = ${key.account} AND NOT known_device
        AND at > ${accountSince}) AS account_newest
    FROM password_check_failures
    WHERE (account = ${key.account} OR address = ${key.address})
      AND at > ${new Date(now - LONGEST_WINDOW_MS)}
  `;
  let refused: R | null = null;
  let history: FailureHistory | undefined;
  try {
    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${LOCK_SPACE}, hashtext(${key.account})),
        pg_advisory_xact_lock(${LOCK_SPACE + 1}, hashtext(${key.address}))`.execute(trx);
      const r = (await query.execute(trx)).rows[0];
      history = {
        pair: (r.pair ?? []).map(Number),
        address: (r.address ?? []).map(Number),
        account: {
          count: Number(r.accountCount ?? 0),
          newest: r.accountNewest == null ? null : Number(r.accountNewest),
        },
      };
      refused = refuse(history);
      if (refused) throw ROLL_BACK;
    });
  } catch (err) {
    if (err !== ROLL_BACK) throw err;
  }
  return { history: history!, refused };
}

const ROLL_BACK = new Error("attempt refused: roll back");

/**
 * A right password forgives this source's own failures on the account (most
 * likely the person's typos). Failures from other sources keep counting, so an
 * attack from elsewhere is not reset by the owner signing in.
 */
export async function deletePairFailures(db: DB, key: FailureKey): Promise<void> {
  await db.deleteFrom("passwordCheckFailures")
    .where("account", "=", key.account).where("source", "=", key.source).execute();
}

/** Failures older than every rule's window count for nothing. */
export async function deleteOldPasswordFailures(db: DB, now = Date.now()): Promise<number> {
  const result = await db.deleteFrom("passwordCheckFailures")
    .where("at", "<=", new Date(now - LONGEST_WINDOW_MS)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
