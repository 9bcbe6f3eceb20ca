import { describe, it } from "node:test";
import { expect } from "expect";
import { type OptionState, quoteTotalDecimal, summarizeOptionChanges } from "./history.ts";

const option = (id: string, init: Partial<OptionState> = {}): OptionState => ({
  id,
  label: "",
  notes: "",
  isChosen: false,
  shipping: "0",
  adjustmentAmount: "0",
  adjustmentReason: "",
  items: [{
    kind: "FRAME",
    name: "Ray-Ban",
    sku: "RB1",
    unitPrice: "100.00",
    qty: 1,
    notes: "",
    catalogId: null,
  }],
  ...init,
});

describe("quote save history", () => {
  it("counts added, removed and changed options; amounts compare in cents", () => {
    const before = [option("a"), option("b"), option("c")];
    const after = [
      option("a", { shipping: "0.00" }), // same amount written differently: unchanged
      option("b", { items: [{ ...before[1].items[0], unitPrice: "120" }] }),
      option("temp-1"),
    ];
    expect(summarizeOptionChanges(before, after)).toEqual({
      added: 1,
      removed: 1,
      changed: 1,
      before: 3,
      after: 3,
    });
    expect(summarizeOptionChanges(before, before)).toMatchObject({
      added: 0,
      removed: 0,
      changed: 0,
    });
  });

  it("totals the chosen options, else the first one, exactly", () => {
    const a = option("a", { shipping: "0.10", adjustmentAmount: "-0.30" });
    const b = option("b", { items: [{ ...a.items[0], unitPrice: "0.10", qty: 3 }] });
    expect(quoteTotalDecimal([a, b])).toBe("99.80");
    expect(quoteTotalDecimal([a, { ...b, isChosen: true }])).toBe("0.30");
    expect(quoteTotalDecimal([{ ...a, isChosen: true }, { ...b, isChosen: true }])).toBe("100.10");
  });
});
