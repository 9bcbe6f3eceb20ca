// The signed-out limits' events (the intake, consent, online acceptance), in
// the database so every app process shares them (migration 0030); the rule
// that reads them is retryAfter in throttle.ts. Password checks have their
// own table (password_failures.ts).
import type { DB } from "../db/database.ts";
import {
  CONSENT_RULE,
  INTAKE_RULE,
  ONLINE_ADDRESS_RULE,
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

  /** Milliseconds until the key may try again; 0 when it may try now. */
  async retryAfterMs(db: DB, key: string): Promise<number> {
    const at = this.now();
    const rows = await db.selectFrom("rateLimitEvents").select("at")
      .where("rule", "=", this.name).where("key", "=", keyOf(key))
      .where("at", ">", new Date(at - this.rule.windowMs))
      .orderBy("at", "desc").limit(this.rule.maxEvents).execute();
    return retryAfter(this.rule, at, rows.map((r) => r.at.getTime()));
  }

  /** One event of the key, now. */
  async record(db: DB, key: string): Promise<void> {
    await db.insertInto("rateLimitEvents")
      .values({ rule: this.name, key: keyOf(key), at: new Date(this.now()) }).execute();
  }
}

/** The hourly sweep: events no rule reads any more (the longest window is 10 minutes). */
export async function deleteOldRateEvents(db: DB, now = Date.now()): Promise<number> {
  const result = await db.deleteFrom("rateLimitEvents")
    .where("at", "<", new Date(now - 60 * 60_000)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The signed-out limits of one app (every process makes its own; the events are shared). */
export function createPublicLimits(now: () => number = Date.now) {
  return {
    intake: new SharedWindowCounter("intake", INTAKE_RULE, now),
    consent: new SharedWindowCounter("consent", CONSENT_RULE, now),
    onlineLink: new SharedWindowCounter("online_link", ONLINE_LINK_RULE, now),
    onlineAddress: new SharedWindowCounter("online_address", ONLINE_ADDRESS_RULE, now),
  };
}
export type PublicLimits = ReturnType<typeof createPublicLimits>;
