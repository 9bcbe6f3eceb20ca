/**
 * The limits on guessing second-factor codes, as pure functions of the
 * recorded failures (rows of password_check_failures with the purpose
 * "two_factor", so every process counts them together). A code is 6 digits:
 * with its ±1 step, a guess is right once in about 333,000, so the count has
 * to hold across challenges, not only within one (5 tries, then the password
 * again). NIST SP 800-63B §5.2.2: at most 100 consecutive failures per
 * account, with waits before that.
 *
 * - pair: one account from one source (a known device, else an address):
 *   10 wrong codes in 15 minutes, then wait until the oldest leaves.
 * - account: wrong codes on the account from anywhere but its known devices,
 *   over 30 days (a right code from a source forgives only that source's own):
 *   the first 5 are free (one challenge), then a wait of 1 minute doubling
 *   per further failure up to 1 hour; at 100 the second factor is locked for
 *   everyone but its known devices until the oldest of them is 30 days old or
 *   an owner resets it. At most about 30 guesses a day, 100 a month.
 *
 * A known device is a browser where the account completed a sign-in before
 * (the device cookie is given only once the second factor passed), so
 * guesses from elsewhere never lock the account's own computer out.
 */
import { backoffDelay, type BackoffRule, type WindowRule } from "./password_throttle.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export const SECOND_FACTOR_PAIR_RULE: WindowRule = { maxFailures: 10, windowMs: 15 * MINUTE };
export const SECOND_FACTOR_ACCOUNT_RULE: BackoffRule & { lockAt: number } = {
  freeFailures: 5,
  windowMs: 30 * DAY,
  firstDelayMs: MINUTE,
  maxDelayMs: 60 * MINUTE,
  lockAt: 100,
};

export interface SecondFactorHistory {
  /** This account from this source, newest first (at least the newest maxFailures). */
  pair: number[];
  /** Failures from sources other than the account's known devices, newest first (at least lockAt). */
  account: number[];
  /** How many of those there are in the window (the list may be cut at lockAt). */
  accountCount: number;
}

export type SecondFactorScope = "pair" | "account" | "locked";

export interface SecondFactorThrottled {
  scope: SecondFactorScope;
  retryAfterMs: number;
}

function pairWait(history: SecondFactorHistory, now: number): number {
  const rule = SECOND_FACTOR_PAIR_RULE;
  const recent = history.pair.filter((t) => t > now - rule.windowMs);
  if (recent.length < rule.maxFailures) return 0;
  return Math.max(0, recent[rule.maxFailures - 1] + rule.windowMs - now);
}

function accountWait(history: SecondFactorHistory, now: number): SecondFactorThrottled | null {
  const rule = SECOND_FACTOR_ACCOUNT_RULE;
  const recent = history.account.filter((t) => t > now - rule.windowMs);
  const count = Math.max(history.accountCount, recent.length);
  if (count >= rule.lockAt && recent.length >= rule.lockAt) {
    // Locked until the lockAt-th newest failure leaves the window.
    const until = recent[rule.lockAt - 1] + rule.windowMs;
    return { scope: "locked", retryAfterMs: Math.max(1, until - now) };
  }
  const delay = backoffDelay(rule, count);
  if (delay === 0 || recent.length === 0) return null;
  const wait = recent[0] + delay - now;
  return wait > 0 ? { scope: "account", retryAfterMs: wait } : null;
}

/** Whether a code may be checked now: a known device answers to the pair rule only. */
export function secondFactorThrottle(
  history: SecondFactorHistory,
  knownDevice: boolean,
  now: number,
): SecondFactorThrottled | null {
  const waits: SecondFactorThrottled[] = [];
  const pair = pairWait(history, now);
  if (pair > 0) waits.push({ scope: "pair", retryAfterMs: pair });
  if (!knownDevice) {
    const account = accountWait(history, now);
    if (account) waits.push(account);
  }
  if (waits.length === 0) return null;
  return waits.reduce((a, b) => (b.retryAfterMs > a.retryAfterMs ? b : a));
}

/** The history as it is once a failure at `now` has been recorded. */
export function withSecondFactorFailure(
  history: SecondFactorHistory,
  knownDevice: boolean,
  now: number,
): SecondFactorHistory {
  return {
    pair: [now, ...history.pair],
    account: knownDevice ? history.account : [now, ...history.account],
    accountCount: knownDevice ? history.accountCount : history.accountCount + 1,
  };
}

export function secondFactorThrottleMessage(throttled: SecondFactorThrottled): string {
  if (throttled.scope === "locked") {
    return "Two-factor sign-in for this account is locked after too many wrong codes. " +
      "Sign in on a computer you have signed in on before, or ask an owner to reset it.";
  }
  const minutes = Math.max(1, Math.ceil(throttled.retryAfterMs / MINUTE));
  return `Too many wrong codes. Please wait ${minutes} minute${
    minutes === 1 ? "" : "s"
  } and try again.`;
}
