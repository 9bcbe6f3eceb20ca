import { describe, it } from "node:test";
import { expect } from "expect";
import { type Clock, succeedOrWaitOut } from "./even_answer.ts";

/** A clock that moves only when told: timers fire as `advance` passes them. */
function fakeClock() {
  let now = 0;
  const timers: Array<{ at: number; fire: () => void; live: boolean }> = [];
  const clock: Clock = {
    now: () => now,
    sleep(ms) {
      let fire!: () => void;
      const done = new Promise<void>((resolve) => fire = resolve);
      const timer = { at: now + ms, fire, live: true };
      timers.push(timer);
      return { done, cancel: () => timer.live = false };
    },
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    clock,
    get now() {
      return now;
    },
    live: () => timers.filter((t) => t.live && t.at > now).length,
    async advance(ms: number) {
      const until = now + ms;
      for (const t of timers.filter((t) => t.live && t.at <= until).sort((a, b) => a.at - b.at)) {
        now = t.at;
        t.live = false;
        t.fire();
        await settle();
      }
      now = until;
      await settle();
    },
  };
}

describe("succeedOrWaitOut", () => {
  it("answers a fast failure (a closed port) and a slow one (a silent port) at the same moment", async () => {
    for (const failsAfter of [20, 9_990, 30_000]) {
      const t = fakeClock();
      let answeredAt: number | undefined;
      const attempt = new Promise<string>((_, reject) => {
        t.clock.sleep(failsAfter).done.then(() => reject(new Error("ECONNREFUSED")));
      });
      const outcome = succeedOrWaitOut(attempt, 12_000, t.clock).then((o) => {
        answeredAt = t.now;
        return o;
      });
      await t.advance(failsAfter < 12_000 ? failsAfter : 11_999);
      expect(answeredAt).toBeUndefined();
      await t.advance(40_000);
      expect((await outcome).ok).toBe(false);
      expect(answeredAt).toBe(12_000);
    }
  });

  it("answers a success at once and leaves no timer behind", async () => {
    const t = fakeClock();
    const outcome = await succeedOrWaitOut(Promise.resolve("250 OK"), 12_000, t.clock);
    expect(outcome).toEqual({ ok: true, value: "250 OK" });
    expect(t.now).toBe(0);
    expect(t.live()).toBe(0);
  });
});
