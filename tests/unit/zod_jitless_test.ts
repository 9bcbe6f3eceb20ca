import { describe, it } from "node:test";
import { expect } from "expect";

describe("zod in the browser bundle", () => {
  it("is jitless when components/zod_jitless.ts runs before zod loads, and still validates", async () => {
    // The order of the browser entry: the setting first, zod later (island chunks).
    await import("../../components/zod_jitless.ts");
    const z = await import("zod");
    expect(z.config().jitless).toBe(true);
    // With jitless, zod never probes `new Function` (the CSP violation): a
    // Function that refuses stands in for the page's CSP.
    const original = globalThis.Function;
    let probed = 0;
    globalThis.Function = new Proxy(original, {
      construct() {
        probed++;
        throw new EvalError("Refused by CSP");
      },
    });
    try {
      const schema = z.object({ name: z.string().min(1), qty: z.number().int() });
      expect(schema.safeParse({ name: "Ray-Ban", qty: 2 }).success).toBe(true);
      expect(schema.safeParse({ name: "", qty: 2 }).success).toBe(false);
    } finally {
      globalThis.Function = original;
    }
    expect(probed).toBe(0);
  });
});
