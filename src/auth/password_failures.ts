import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import {
  ACCOUNT_RULE,
  ADDRESS_RULE,
  type FailureHistory,
  LONGEST_WINDOW_MS,
  PAIR_RULE,
} from "./password_throttle.ts";
import {
  SECOND_FACTOR_ACCOUNT_RULE,
  SECOND_FACTOR_PAIR_RULE,
  type SecondFactorHistory,
} from "./second_factor_throttle.ts";

/**
 * The purpose of second-factor failures. They share the table (and so every
 * process's counts) with password failures but never count toward the
 * password rules, nor those toward theirs.
 */
export const SECOND_FACTOR_PURPOSE = "two_factor";

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
      -- Failures on unknown names ("name:…") are counted apart from those on
      -- real accounts ("user:…"): names that sign nobody in cannot lock a
      -- store's staff out of their address.
      (array_agg(${epochMs} ORDER BY at DESC)
        FILTER (WHERE address = ${key.address} AND at > ${addressSince}
          AND starts_with(account, ${accountKind(key.account)}))
      )[1:${ADDRESS_RULE.maxFailures}::int] AS address,
      (count(*) FILTER (WHERE account = ${key.account} AND NOT known_device
        AND at > ${accountSince}))::int AS account_count,
      max(${epochMs}) FILTER (WHERE account = ${key.account} AND NOT known_device
        AND at > ${accountSince}) AS account_newest
    FROM password_check_failures
    WHERE (account = ${key.account} OR address = ${key.address})
      AND at > ${new Date(now - LONGEST_WINDOW_MS)} AND purpose <> ${SECOND_FACTOR_PURPOSE}
  `;
  return await recordAndRead(db, key, query, refuse, (r) => ({
    pair: (r.pair ?? []).map(Number),
    address: (r.address ?? []).map(Number),
    account: {
      count: Number(r.accountCount ?? 0),
      newest: r.accountNewest == null ? null : Number(r.accountNewest),
    },
  }));
}

/** "user:" or "name:", the kind of account a key names (see migration 0003). */
const accountKind = (account: string) => account.slice(0, account.indexOf(":") + 1);

/**
 * The same for a second-factor code (second_factor_throttle.ts): records the
 * attempt as a failure, reads this source's and the account's wrong codes,
 * and rolls the attempt back when `refuse` refuses. A right code deletes this
 * source's rows afterwards (deletePairFailures with SECOND_FACTOR_PURPOSE).
 */
export async function beginSecondFactorAttempt<R>(
  db: DB,
  key: FailureKey,
  now: number,
  refuse: (history: SecondFactorHistory) => R | null,
): Promise<{ history: SecondFactorHistory; refused: R | null }> {
  const rule = SECOND_FACTOR_ACCOUNT_RULE;
  const query = sql<{ pair: number[] | null; account: number[] | null; accountCount: number }>`
    WITH attempt AS (
      INSERT INTO password_check_failures (at, account, source, address, known_device, purpose)
      VALUES (${new Date(now)}, ${key.account}, ${key.source}, ${key.address},
        ${key.knownDevice}, ${SECOND_FACTOR_PURPOSE})
    )
    SELECT
      (array_agg(${epochMs} ORDER BY at DESC)
        FILTER (WHERE source = ${key.source}
          AND at > ${new Date(now - SECOND_FACTOR_PAIR_RULE.windowMs)})
      )[1:${SECOND_FACTOR_PAIR_RULE.maxFailures}::int] AS pair,
      (array_agg(${epochMs} ORDER BY at DESC) FILTER (WHERE NOT known_device))[1:${rule.lockAt}::int]
        AS account,
      (count(*) FILTER (WHERE NOT known_device))::int AS account_count
    FROM password_check_failures
    WHERE account = ${key.account} AND purpose = ${SECOND_FACTOR_PURPOSE}
      AND at > ${new Date(now - rule.windowMs)}
  `;
  return await recordAndRead(db, key, query, refuse, (r) => ({
    pair: (r.pair ?? []).map(Number),
    account: (r.account ?? []).map(Number),
    accountCount: Number(r.accountCount ?? 0),
  }));
}

/**
 * Runs `query` (an insert of the attempt and a read of the history) in a
 * short transaction holding advisory locks on the account and the address,
 * and rolls it back when `refuse` refuses.
 */
async function recordAndRead<Row, H, R>(
  db: DB,
  key: FailureKey,
  query: { execute(trx: DB): Promise<{ rows: Row[] }> },
  refuse: (history: H) => R | null,
  toHistory: (row: Row) => H,
): Promise<{ history: H; refused: R | null }> {
  let refused: R | null = null;
  let history: H | undefined;
  try {
    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${LOCK_SPACE}, hashtext(${key.account})),
        pg_advisory_xact_lock(${LOCK_SPACE + 1}, hashtext(${key.address}))`.execute(trx);
      history = toHistory((await query.execute(trx)).rows[0]);
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
 * A right password (or, with SECOND_FACTOR_PURPOSE, a right code) forgives
 * this source's own failures on the account (most likely the person's
 * typos). Failures from other sources keep counting, so an attack from
 * elsewhere is not reset by the owner signing in.
 */
export async function deletePairFailures(
  db: DB,
  key: FailureKey,
  kind: "password" | typeof SECOND_FACTOR_PURPOSE = "password",
): Promise<void> {
  await db.deleteFrom("passwordCheckFailures")
    .where("account", "=", key.account).where("source", "=", key.source)
    .where("purpose", kind === "password" ? "<>" : "=", SECOND_FACTOR_PURPOSE).execute();
}

/**
 * A completed password reset (by e-mail, or by an admin) lifts the account's
 * password back-off and locks: whoever was guessing, the password they were
 * guessing is gone. With `secondFactor`, the same for wrong codes (an owner's
 * reset of the account's second factor).
 */
export async function deleteAccountFailures(
  db: DB,
  userId: string,
  kind: "password" | typeof SECOND_FACTOR_PURPOSE,
): Promise<void> {
  await db.deleteFrom("passwordCheckFailures").where("account", "=", `user:${userId}`)
    .where("purpose", kind === "password" ? "<>" : "=", SECOND_FACTOR_PURPOSE).execute();
}

/** Failures older than every rule's window count for nothing (wrong codes: 30 days). */
export async function deleteOldPasswordFailures(db: DB, now = Date.now()): Promise<number> {
  const result = await db.deleteFrom("passwordCheckFailures").where((eb) =>
    eb.or([
      eb.and([
        eb("purpose", "<>", SECOND_FACTOR_PURPOSE),
        eb("at", "<=", new Date(now - LONGEST_WINDOW_MS)),
      ]),
      eb("at", "<=", new Date(now - SECOND_FACTOR_ACCOUNT_RULE.windowMs)),
    ])
  ).executeTakeFirst();
  return Number(result.numDeletedRows);
}
