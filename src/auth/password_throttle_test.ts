import { describe, it } from "node:test";
import { expect } from "expect";
import {
  ACCOUNT_RULE,
  backoffDelay,
  type FailureHistory,
  throttleFor,
  throttleMessage,
  withFailure,
} from "./password_throttle.ts";

const MIN = 60_000;
const empty = (): FailureHistory => ({
  pair: [],
  address: [],
  account: { count: 0, newest: null },
});

/** A fake clock and a record of failures, the way the database would keep them. */
function simulate() {
  let now = 1_700_000_000_000;
  let history = empty();
  return {
    get now() {
      return now;
    },
    advance(ms: number) {
      now += ms;
    },
    fail(knownDevice = false) {
      history = withFailure(history, knownDevice, now);
    },
    check(knownDevice = false) {
      return throttleFor(history, knownDevice, now);
    },
    set(h: FailureHistory) {
      history = h;
    },
  };
}

describe("password throttle rules", () => {
  it("locks one account from one source after 5 failures in 15 minutes, until the oldest leaves", () => {
    const t = simulate();
    for (let i = 0; i < 4; i++) {
      t.fail();
      t.advance(MIN);
      expect(t.check()).toBeNull();
    }
    t.fail(); // the fifth, 4 minutes after the first
    expect(t.check()).toEqual({ scope: "pair", retryAfterMs: 11 * MIN });
    t.advance(11 * MIN - 1);
    expect(t.check()?.retryAfterMs).toBe(1);
    t.advance(1);
    expect(t.check()).toBeNull();
  });

  it("locks an address after 20 failures across accounts", () => {
    const t = simulate();
    // 19 failures on other accounts from this address, 1 on this account.
    t.set({
      pair: [t.now],
      address: Array.from({ length: 20 }, (_, i) => t.now - i * 1000),
      account: { count: 1, newest: t.now },
    });
    expect(t.check()).toEqual({ scope: "address", retryAfterMs: 15 * MIN - 19_000 });
    // A known device of the account is not held by its address.
    expect(t.check(true)).toBeNull();
  });

  it("backs off one account guessed at from many addresses: 10 free, then 1, 2, 4 … 60 minutes", () => {
    expect([9, 10, 11, 12, 15, 16, 17, 40, 10_000].map((n) => backoffDelay(ACCOUNT_RULE, n)))
      .toEqual([0, MIN, 2 * MIN, 4 * MIN, 32 * MIN, 60 * MIN, 60 * MIN, 60 * MIN, 60 * MIN]);
    const t = simulate();
    // Each failure from a different address: the pair and address lists stay short.
    for (let i = 0; i < 9; i++) {
      t.set({ pair: [], address: [], account: { count: i + 1, newest: t.now } });
      expect(t.check()).toBeNull();
      t.advance(1000);
    }
    t.set({ pair: [], address: [], account: { count: 10, newest: t.now } });
    expect(t.check()).toEqual({ scope: "account", retryAfterMs: MIN });
    t.advance(MIN);
    expect(t.check()).toBeNull();
    t.set({ pair: [], address: [], account: { count: 11, newest: t.now } });
    expect(t.check()).toEqual({ scope: "account", retryAfterMs: 2 * MIN });
    // The owner on a computer they signed in from before is not held at all.
    expect(t.check(true)).toBeNull();
  });

  it("forgets the account's back-off once its newest failure is a day old", () => {
    const t = simulate();
    t.set({ pair: [], address: [], account: { count: 50, newest: t.now } });
    expect(t.check()?.retryAfterMs).toBe(60 * MIN);
    t.advance(60 * MIN);
    expect(t.check()).toBeNull();
    t.set({ pair: [], address: [], account: { count: 50, newest: t.now - 24 * 60 * MIN } });
    expect(t.check()).toBeNull();
  });

  it("a known device still meets its own pair limit, and its failures do not feed the back-off", () => {
    const t = simulate();
    for (let i = 0; i < 5; i++) t.fail(true);
    expect(t.check(true)).toEqual({ scope: "pair", retryAfterMs: 15 * MIN });
    const h = withFailure(empty(), true, t.now);
    expect(h.account).toEqual({ count: 0, newest: null });
  });

  it("no back-off within the allowance, even when a parallel failure is stamped just after now", () => {
    const t = simulate();
    t.set({ pair: [t.now + 10], address: [t.now + 10], account: { count: 1, newest: t.now + 10 } });
    expect(t.check()).toBeNull();
  });

  it("the longest wait wins", () => {
    const t = simulate();
    t.set({
      pair: Array.from({ length: 5 }, () => t.now),
      address: [],
      account: { count: 20, newest: t.now },
    });
    expect(t.check()).toEqual({ scope: "account", retryAfterMs: 60 * MIN });
  });

  it("words the wait in whole minutes", () => {
    expect(throttleMessage(1)).toBe(
      "Too many failed sign-in attempts. Please wait 1 minute and try again.",
    );
    expect(throttleMessage(14 * MIN + 1, "password")).toBe(
      "Too many failed password attempts. Please wait 15 minutes and try again.",
    );
  });
});
