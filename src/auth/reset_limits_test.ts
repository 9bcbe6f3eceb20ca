import { describe, it } from "node:test";
import { expect } from "expect";
import { RESET_LIMITS, resetLimitKey, resetRetryAfterMs } from "./reset_limits.ts";

describe("resetRetryAfterMs", () => {
  const now = 10_000_000;
  it("allows requests under the limit", () => {
    expect(resetRetryAfterMs("email", [], now)).toBe(0);
    expect(resetRetryAfterMs("email", [now - 1000, now - 2000], now)).toBe(0);
  });

  it("refuses the request over the limit until the oldest counted one leaves the window", () => {
    const { windowMs } = RESET_LIMITS.email;
    const times = [now - 5 * 60_000, now - 2000, now - 1000];
    expect(resetRetryAfterMs("email", times, now)).toBe(windowMs - 5 * 60_000);
  });

  it("forgets requests older than the window", () => {
    const old = now - RESET_LIMITS.email.windowMs - 1;
    expect(resetRetryAfterMs("email", [old, old, old, now - 1], now)).toBe(0);
  });

  it("counts per account with its own, longer window", () => {
    const times = Array.from({ length: RESET_LIMITS.user.max }, (_, i) => now - 40 * 60_000 + i);
    expect(resetRetryAfterMs("user", times, now)).toBe(20 * 60_000);
    expect(resetRetryAfterMs("email", times, now)).toBe(0);
  });

  it("keys ignore case and surrounding spaces of the address", () => {
    expect(resetLimitKey("email", " Ana@Store.TEST ")).toBe("email:ana@store.test");
  });
});
