/**
 * The limits on password guessing, as pure functions of the recorded failures
 * (the counts live in PostgreSQL, see password_failures.ts). Three rules:
 *
 * - pair: one account from one source (a known device, else an address):
 *   5 failures in 15 minutes, then wait until the oldest leaves the window.
 *   This is what a person mistyping meets.
 * - address: any accounts from one address: 20 failures in 15 minutes. Stops
 *   one machine trying many accounts. Failures on names that are no account
 *   are counted apart (password_failures.ts): they hold only further unknown
 *   names, so a flood of made-up names (a client on the store's tablet, say)
 *   cannot lock the staff of a store behind one address out.
 * - account: failures on one account from anywhere but its known devices,
 *   counted over 24 hours: the first 10 are free, then a back-off of 1 minute
 *   doubling per further failure up to 1 hour. Stops many addresses guessing
 *   one account (about 30 guesses a day) without locking the account shut.
 *
 * A "known device" is a browser that signed in to the account before (OWASP's
 * device cookie): it is held only by the pair rule, so an attack from
 * elsewhere can slow strangers down but never locks the owner out of their
 * own computer.
 */

export interface WindowRule {
  maxFailures: number;
  windowMs: number;
}

export interface BackoffRule {
  /** Failures allowed in the window before any wait. */
  freeFailures: number;
  windowMs: number;
  firstDelayMs: number;
  maxDelayMs: number;
}

const MINUTE = 60_000;
export const PAIR_RULE: WindowRule = { maxFailures: 5, windowMs: 15 * MINUTE };
export const ADDRESS_RULE: WindowRule = { maxFailures: 20, windowMs: 15 * MINUTE };
export const ACCOUNT_RULE: BackoffRule = {
  freeFailures: 10,
  windowMs: 24 * 60 * MINUTE,
  firstDelayMs: MINUTE,
  maxDelayMs: 60 * MINUTE,
};
/** How far back any rule looks: older failures can be deleted. */
export const LONGEST_WINDOW_MS = Math.max(
  PAIR_RULE.windowMs,
  ADDRESS_RULE.windowMs,
  ACCOUNT_RULE.windowMs,
);

/** The failures that matter to one check, times in epoch milliseconds. */
export interface FailureHistory {
  /** This account from this source, newest first (at least the newest maxFailures). */
  pair: number[];
  /**
   * From this address, newest first (at least the newest maxFailures): on real
   * accounts for a real account, on unknown names for an unknown name.
   */
  address: number[];
  /** Failures on this account from sources other than its known devices. */
  account: { count: number; newest: number | null };
}

export type ThrottleScope = "pair" | "address" | "account";

export interface Throttled {
  scope: ThrottleScope;
  retryAfterMs: number;
}

function windowWait(rule: WindowRule, newestFirst: number[], now: number): number {
  const recent = newestFirst.filter((t) => t > now - rule.windowMs);
  if (recent.length < rule.maxFailures) return 0;
  // Free again when the maxFailures-th newest failure leaves the window.
  return Math.max(0, recent[rule.maxFailures - 1] + rule.windowMs - now);
}

/** The back-off after `count` failures, 0 while they are within the free allowance. */
export function backoffDelay(rule: BackoffRule, count: number): number {
  if (count < rule.freeFailures) return 0;
  const doublings = count - rule.freeFailures;
  // Capped before exponentiation so a long attack cannot overflow.
  return Math.min(rule.maxDelayMs, rule.firstDelayMs * 2 ** Math.min(doublings, 30));
}

function accountWait(history: FailureHistory, now: number): number {
  const { count, newest } = history.account;
  const delay = backoffDelay(ACCOUNT_RULE, count);
  // Within the allowance there is no wait, even when a parallel attempt's
  // failure is stamped a few milliseconds after this attempt's `now`.
  if (delay === 0 || newest === null || newest <= now - ACCOUNT_RULE.windowMs) return 0;
  return Math.max(0, newest + delay - now);
}

/**
 * Whether a check may run now. A known device answers to the pair rule only;
 * anything else to all three. The longest wait wins.
 */
export function throttleFor(
  history: FailureHistory,
  knownDevice: boolean,
  now: number,
): Throttled | null {
  const waits: Throttled[] = [
    { scope: "pair", retryAfterMs: windowWait(PAIR_RULE, history.pair, now) },
  ];
  if (!knownDevice) {
    waits.push({ scope: "address", retryAfterMs: windowWait(ADDRESS_RULE, history.address, now) });
    waits.push({ scope: "account", retryAfterMs: accountWait(history, now) });
  }
  const longest = waits.reduce((a, b) => (b.retryAfterMs > a.retryAfterMs ? b : a));
  return longest.retryAfterMs > 0 ? longest : null;
}

/** The history as it is once a failure at `now` has been recorded. */
export function withFailure(
  history: FailureHistory,
  knownDevice: boolean,
  now: number,
): FailureHistory {
  return {
    pair: [now, ...history.pair],
    address: [now, ...history.address],
    account: knownDevice ? history.account : { count: history.account.count + 1, newest: now },
  };
}

export function throttleMessage(
  retryAfterMs: number,
  what: "sign-in" | "password" = "sign-in",
): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / MINUTE));
  return `Too many failed ${what} attempts. Please wait ${minutes} minute${
    minutes === 1 ? "" : "s"
  } and try again.`;
}
