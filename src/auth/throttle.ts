export interface ThrottleRule {
  /** Events allowed inside the window before further ones are refused. */
  maxEvents: number;
  windowMs: number;
}

/**
 * Milliseconds until one more event is allowed (0: now), from the times of
 * the key's latest events, newest first (at most maxEvents of them are
 * needed): refused while maxEvents lie within windowMs before `at`, until the
 * oldest of those leaves the window. The times come from the database
 * (rate_counts.ts), so every process counts the same events.
 */
export function retryAfter(rule: ThrottleRule, at: number, newestFirst: number[]): number {
  const recent = newestFirst.filter((t) => t > at - rule.windowMs);
  if (recent.length < rule.maxEvents) return 0;
  return recent[rule.maxEvents - 1] + rule.windowMs - at;
}

/** Signed-out intake submissions (client creation) per address. */
export const INTAKE_RULE: ThrottleRule = { maxEvents: 20, windowMs: 10 * 60 * 1000 };
/** Signed-out consent records per address (up to two per intake). */
export const CONSENT_RULE: ThrottleRule = { maxEvents: 40, windowMs: 10 * 60 * 1000 };

/** Online accept/decline tries per link: a real client needs a few (a typo, a retry). */
export const ONLINE_LINK_RULE: ThrottleRule = { maxEvents: 10, windowMs: 10 * 60 * 1000 };
/** Online accept/decline tries per address, over every real link. */
export const ONLINE_ADDRESS_RULE: ThrottleRule = { maxEvents: 30, windowMs: 10 * 60 * 1000 };
/**
 * Tries per address with a link that does not exist (made up, mistyped or
 * spent): counted apart, they refuse only more such tries, never a client's
 * real link from the same address (everyone behind one proxy or shop Wi-Fi).
 */
export const ONLINE_GUESS_RULE: ThrottleRule = { maxEvents: 30, windowMs: 10 * 60 * 1000 };

export { throttleMessage } from "./password_throttle.ts";
