import { describe, it } from "node:test";
import { expect } from "expect";
import {
  SECOND_FACTOR_ACCOUNT_RULE,
  type SecondFactorHistory,
  secondFactorThrottle,
  secondFactorThrottleMessage,
  withSecondFactorFailure,
} from "./second_factor_throttle.ts";

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const now = 1_700_000_000_000;
const empty = (): SecondFactorHistory => ({ pair: [], account: [], accountCount: 0 });

describe("second-factor throttle rules", () => {
  it("5 wrong codes are free, then a wait of 1 minute doubling to 1 hour", () => {
    let h = empty();
    const waits: (number | null)[] = [];
    for (let i = 0; i < 12; i++) {
      h = withSecondFactorFailure(h, false, now);
      // Each from another address: only the account's count applies.
      h = { ...h, pair: [] };
      waits.push(secondFactorThrottle(h, false, now)?.retryAfterMs ?? null);
    }
    expect(waits).toEqual([
      null,
      null,
      null,
      null,
      MIN,
      2 * MIN,
      4 * MIN,
      8 * MIN,
      16 * MIN,
      32 * MIN,
      60 * MIN,
      60 * MIN,
    ]);
    // A known device of the account is not held by the account's count.
    expect(secondFactorThrottle(h, true, now)).toBeNull();
  });

  it("holds one source after 10 wrong codes in 15 minutes, known device or not", () => {
    const pair = Array.from({ length: 10 }, (_, i) => now - i * MIN);
    const h = { pair, account: [], accountCount: 0 };
    expect(secondFactorThrottle(h, true, now)).toEqual({ scope: "pair", retryAfterMs: 6 * MIN });
  });

  it("locks at 100 wrong codes within 30 days, until the oldest of them leaves", () => {
    const account = Array.from({ length: 100 }, (_, i) => now - i * 6 * 60 * MIN);
    const h = { pair: [], account, accountCount: 100 };
    const locked = secondFactorThrottle(h, false, now)!;
    expect(locked.scope).toBe("locked");
    expect(locked.retryAfterMs).toBe(account[99] + SECOND_FACTOR_ACCOUNT_RULE.windowMs - now);
    expect(secondFactorThrottleMessage(locked)).toMatch(/locked after too many wrong codes/);
    expect(secondFactorThrottle(h, true, now)).toBeNull();
    // 99 in the window and one older: a wait, not a lock.
    const older = [...account.slice(0, 99), now - 31 * DAY];
    expect(secondFactorThrottle({ pair: [], account: older, accountCount: 99 }, false, now)?.scope)
      .toBe("account");
  });
});
