import { describe, it } from "node:test";
import { expect } from "expect";
import { SlidingWindowCounter } from "./throttle.ts";

describe("SlidingWindowCounter", () => {
  it("allows attempts until the limit, then refuses until the window slides", () => {
    let now = 1_000_000;
    const t = new SlidingWindowCounter({ maxEvents: 3, windowMs: 60_000 }, () => now);
    for (let i = 0; i < 3; i++) {
      expect(t.retryAfterMs("anna")).toBe(0);
      t.record("anna");
      now += 1000;
    }
    // The oldest failure was at 1_000_000; it leaves the window at 1_060_000.
    expect(t.retryAfterMs("anna")).toBe(57_000);
    expect(t.retryAfterMs("bob")).toBe(0);
    now = 1_060_001;
    expect(t.retryAfterMs("anna")).toBe(0);
  });

  it("forgets a key on reset", () => {
    const t = new SlidingWindowCounter({ maxEvents: 1, windowMs: 60_000 });
    t.record("x");
    expect(t.retryAfterMs("x")).toBeGreaterThan(0);
    t.reset("x");
    expect(t.retryAfterMs("x")).toBe(0);
  });
});
