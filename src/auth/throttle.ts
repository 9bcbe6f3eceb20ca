export interface ThrottleRule {
  /** Failures allowed inside the window before further attempts are refused. */
  maxFailures: number;
  windowMs: number;
}

export const ACCOUNT_RULE: ThrottleRule = { maxFailures: 5, windowMs: 15 * 60 * 1000 };
export const ADDRESS_RULE: ThrottleRule = { maxFailures: 20, windowMs: 15 * 60 * 1000 };

/**
 * Counts failed sign-ins per key (an account or an address) in a sliding
 * window. Kept in memory: a store runs one instance, and a restart forgetting
 * a few failures is an acceptable trade for no extra table writes.
 */
export class FailureThrottle {
  #failures = new Map<string, number[]>();
  constructor(readonly rule: ThrottleRule, private readonly now = () => Date.now()) {}

  /** Milliseconds until the key may try again; 0 when it may try now. */
  retryAfterMs(key: string): number {
    const recent = this.#recent(key);
    if (recent.length < this.rule.maxFailures) return 0;
    return recent[recent.length - this.rule.maxFailures] + this.rule.windowMs - this.now();
  }

  recordFailure(key: string): void {
    const recent = this.#recent(key);
    recent.push(this.now());
    this.#failures.set(key, recent);
    if (this.#failures.size > 10_000) this.#prune();
  }

  reset(key: string): void {
    this.#failures.delete(key);
  }

  #recent(key: string): number[] {
    const cutoff = this.now() - this.rule.windowMs;
    return (this.#failures.get(key) ?? []).filter((t) => t > cutoff);
  }

  #prune(): void {
    for (const key of [...this.#failures.keys()]) {
      const recent = this.#recent(key);
      if (recent.length === 0) this.#failures.delete(key);
      else this.#failures.set(key, recent);
    }
  }
}

export function createLoginThrottle(now?: () => number) {
  return {
    account: new FailureThrottle(ACCOUNT_RULE, now),
    address: new FailureThrottle(ADDRESS_RULE, now),
  };
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

export function throttleMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many failed sign-in attempts. Please wait ${minutes} minute${
    minutes === 1 ? "" : "s"
  } and try again.`;
}
