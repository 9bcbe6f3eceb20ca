import { describe, it } from "node:test";
import { expect } from "expect";
import { retryAfter } from "./throttle.ts";

describe("retryAfter (the signed-out limits' sliding window)", () => {
  const rule = { maxEvents: 3, windowMs: 60_000 };
  it("allows events until the limit, then refuses until the oldest leaves the window", () => {
    expect(retryAfter(rule, 1_003_000, [])).toBe(0);
    expect(retryAfter(rule, 1_003_000, [1_001_000, 1_000_000])).toBe(0);
    // Three within the minute: the oldest, at 1_000_000, leaves it at 1_060_000.
    const three = [1_002_000, 1_001_000, 1_000_000];
    expect(retryAfter(rule, 1_003_000, three)).toBe(57_000);
    expect(retryAfter(rule, 1_060_000, three)).toBe(0);
    // Only the newest three count, and only those inside the window.
    expect(retryAfter(rule, 1_003_000, [1_002_500, ...three])).toBe(58_000);
    expect(retryAfter(rule, 1_061_500, [1_002_500, ...three])).toBe(0);
  });
});
