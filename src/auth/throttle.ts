export interface ThrottleRule {
  /** Events allowed inside the window before further ones are refused. */
  maxEvents: number;
  windowMs: number;
}

/**
 * Counts events per key (signed-out intake submissions per address) in a
 * sliding window, in memory. Password checks are not counted here: they are
 * throttled in the database (password_check.ts) so every process shares them.
 */
export class SlidingWindowCounter {
  #events = new Map<string, number[]>();
  constructor(readonly rule: ThrottleRule, private readonly now = () => Date.now()) {}

  /** Milliseconds until the key may try again; 0 when it may try now. */
  retryAfterMs(key: string): number {
    const recent = this.#recent(key);
    if (recent.length < this.rule.maxEvents) return 0;
    return recent[recent.length - this.rule.maxEvents] + this.rule.windowMs - this.now();
  }

  record(key: string): void {
    const recent = this.#recent(key);
    recent.push(this.now());
    this.#events.set(key, recent);
    if (this.#events.size > 10_000) this.#prune();
  }

  reset(key: string): void {
    this.#events.delete(key);
  }

  #recent(key: string): number[] {
    const cutoff = this.now() - this.rule.windowMs;
    return (this.#events.get(key) ?? []).filter((t) => t > cutoff);
  }

  #prune(): void {
    for (const key of [...this.#events.keys()]) {
      const recent = this.#recent(key);
      if (recent.length === 0) this.#events.delete(key);
      else this.#events.set(key, recent);
    }
  }
}

/** Signed-out intake submissions (client creation) per address. */
export const INTAKE_RULE: ThrottleRule = { maxEvents: 20, windowMs: 10 * 60 * 1000 };
/** Signed-out consent records per address (up to two per intake). */
export const CONSENT_RULE: ThrottleRule = { maxEvents: 40, windowMs: 10 * 60 * 1000 };

/** Online accept/decline tries per link: a real client needs a few (a typo, a retry). */
export const ONLINE_LINK_RULE: ThrottleRule = { maxEvents: 10, windowMs: 10 * 60 * 1000 };
/** Online accept/decline tries per address, over every link. */
export const ONLINE_ADDRESS_RULE: ThrottleRule = { maxEvents: 30, windowMs: 10 * 60 * 1000 };

export function createPublicLimits(now?: () => number) {
  return {
    intake: new SlidingWindowCounter(INTAKE_RULE, now),
    consent: new SlidingWindowCounter(CONSENT_RULE, now),
    onlineLink: new SlidingWindowCounter(ONLINE_LINK_RULE, now),
    onlineAddress: new SlidingWindowCounter(ONLINE_ADDRESS_RULE, now),
  };
}
export type PublicLimits = ReturnType<typeof createPublicLimits>;

export { throttleMessage } from "./password_throttle.ts";
