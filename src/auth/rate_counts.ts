// The signed-out limits' events (the intake, consent, online acceptance), in
// the database so every app process shares them (migration 0030); the rule
// that reads them is retryAfter in throttle.ts. Password checks have their
// own table (password_failures.ts).
import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import { inTransaction } from "../db/transaction.ts";
import {
  CONSENT_RULE,
  INTAKE_RULE,
  ONLINE_ADDRESS_RULE,
  ONLINE_GUESS_RULE,
  ONLINE_LINK_RULE,
  retryAfter,
  type ThrottleRule,
} from "./throttle.ts";

/** Keys are addresses and hashes; anything longer is cut (the column holds 200). */
const keyOf = (key: string) => key.slice(0, 200);

/**
 * Counts events of one rule per key in a sliding window shared by every
 * process. Each call takes the request's database: inside an idempotent
 * write's transaction (the intake's, the consent's) the event is that
 * transaction's, so on the embedded database, one connection, it never waits
 * for the transaction it is in; and a write that is refused and rolled back
 * did not count, as it made nothing.
 */
export class SharedWindowCounter {
  constructor(
    /** The rule's name in the table. */
    readonly name: string,
    readonly rule: ThrottleRule,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * One try of `key`: 0 when it may go ahead (and it is counted), else the
   * milliseconds until it may try again (and nothing is counted). The check
   * and the count are one step: the key's transaction-scoped advisory lock
   * makes parallel tries of one key take turns, so forty at once let exactly
   * the rule's number through, on a server as on PGlite. The key keeps no
   * more events than its rule reads: the oldest beyond them are deleted.
   */
  async take(db: DB, key: string): Promise<number> {
    const k = keyOf(key);
    return await inTransaction(db, async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`rate ${this.name} ${k}`}, 0))`
        .execute(trx);
      const at = this.now();
      const rows = await trx.selectFrom("rateLimitEvents").select("at")
        .where("rule", "=", this.name).where("key", "=", k)
        .where("at", ">", new Date(at - this.rule.windowMs))
        .orderBy("at", "desc").limit(this.rule.maxEvents).execute();
      const wait = retryAfter(this.rule, at, rows.map((r) => r.at.getTime()));
      if (wait > 0) return wait;
      await trx.insertInto("rateLimitEvents").values({ rule: this.name, key: k, at: new Date(at) })
        .execute();
      // What the rule no longer reads: out of the window, or older than the
      // newest maxEvents (this one and the maxEvents - 1 before it).
      const before = this.rule.maxEvents - 1;
      const oldestKept = before === 0
        ? new Date(at)
        : rows.length >= before
        ? rows[before - 1].at
        : new Date(at - this.rule.windowMs);
      await trx.deleteFrom("rateLimitEvents").where("rule", "=", this.name).where("key", "=", k)
        .where("at", "<", oldestKept).execute();
      return 0;
    });
  }
}

/** The longest window of any rule: events older than this are read by none. */
export const LONGEST_WINDOW_MS = Math.max(
  INTAKE_RULE.windowMs,
  CONSENT_RULE.windowMs,
  ONLINE_LINK_RULE.windowMs,
  ONLINE_ADDRESS_RULE.windowMs,
  ONLINE_GUESS_RULE.windowMs,
);

/**
 * The sweep, every minute: events no rule reads any more. With each key
 * capped at its rule's events, the table holds at most the tries of the last
 * window plus a minute, however many addresses they come from.
 */
export async function deleteOldRateEvents(db: DB, now = Date.now()): Promise<number> {
  const result = await db.deleteFrom("rateLimitEvents")
    .where("at", "<", new Date(now - LONGEST_WINDOW_MS)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The signed-out limits of one app (every process makes its own; the events are shared). */
export function createPublicLimits(now: () => number = Date.now) {
  return {
    intake: new SharedWindowCounter("intake", INTAKE_RULE, now),
    consent: new SharedWindowCounter("consent", CONSENT_RULE, now),
    onlineLink: new SharedWindowCounter("online_link", ONLINE_LINK_RULE, now),
    onlineAddress: new SharedWindowCounter("online_address", ONLINE_ADDRESS_RULE, now),
    onlineGuess: new SharedWindowCounter("online_guess", ONLINE_GUESS_RULE, now),
  };
}
export type PublicLimits = ReturnType<typeof createPublicLimits>;
