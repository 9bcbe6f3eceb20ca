import { describe, it } from "node:test";
import { expect } from "expect";
import { measurementsSchema, PD_REQUIRED_FOR_COMPLETE } from "./client.ts";

describe("measurementsSchema", () => {
  it("refuses complete measurements without a distance PD, naming the field", () => {
    for (const pdBinocular of ["", "0", "0.0"]) {
      const parsed = measurementsSchema.safeParse({
        pdBinocular,
        pdNear: "60",
        measurementsComplete: true,
      });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
        ["pdBinocular", PD_REQUIRED_FOR_COMPLETE],
      ]);
    }
    expect(PD_REQUIRED_FOR_COMPLETE).toMatch(/^PD Distance/);
  });

  it("accepts complete with a distance PD, and incomplete without one", () => {
    expect(
      measurementsSchema.parse({ pdBinocular: "62.5", pdNear: "", measurementsComplete: true }),
    )
      .toEqual({ pdBinocular: "62.5", pdNear: "0", measurementsComplete: true });
    expect(measurementsSchema.parse({ pdBinocular: "", pdNear: "", measurementsComplete: false }))
      .toEqual({ pdBinocular: "0", pdNear: "0", measurementsComplete: false });
  });
});
