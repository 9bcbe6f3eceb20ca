import { describe, it } from "node:test";
import { expect } from "expect";
import {
  applyPackageChoice,
  breakdownCents,
  closeBlocker,
  currentPackageChoice,
  type DraftItem,
  editBlocker,
  emptyItem,
  emptyOption,
  EXPIRED_ACTIONS_HINT,
  expiredBlocker,
  heldBackByExpiry,
  isExpired,
  MAX_AMOUNT_CENTS,
  MAX_QTY,
  mayReopen,
  normalizeAdjustment,
  optionTabLabel,
  optionTitle,
  parseQty,
  qtyProblem,
  qtyValue,
  reactivateBlocker,
  saveProblems,
  setCatalogItem,
  statusAfterSave,
  statusText,
  subtotalCents,
  summaryAmounts,
  toggleAddOn,
  totalCents,
  totalProblems,
} from "./rules.ts";

const frame = (sku = "RB5154", price = "189.00") =>
  emptyItem("FRAME", { name: "Ray-Ban", sku, unitPrice: price });
const pkg = { id: "p1", name: "Premium Progressive", price: "389.00", description: "All-in" };
const lens = { id: "l1", name: "Progressive", price: "150.00" };
const material = { id: "m1", name: "Polycarbonate", price: "40.00" };
const ar = { id: "a1", name: "Premium AR", price: "85.00" };
const addOn = { id: "x1", name: "Transitions", price: "120.00" };
const kinds = (items: DraftItem[]) => items.map((i) => i.kind).sort();

describe("totals", () => {
  it("subtotal is the sum of unit price × quantity over all items", () => {
    const items = [
      frame(),
      emptyItem("OTHER", { name: "Case", unitPrice: "12.50", qty: 2 }),
      emptyItem("ADDON", { name: "UV", unitPrice: "0.10", qty: 3 }),
    ];
    expect(subtotalCents(items)).toBe(18900 + 2500 + 30);
    expect(breakdownCents(items)).toEqual({ frame: 18900, lenses: 30, other: 2500 });
  });

  it("total adds shipping and the (negative) adjustment", () => {
    const option = {
      items: [frame("A", "100.00")],
      shipping: "15.00",
      adjustmentAmount: "-25.00",
    };
    expect(totalCents(option)).toBe(9000);
    expect(totalCents({ ...option, shipping: "", adjustmentAmount: "junk" })).toBe(10000);
  });
});

describe("entry rules", () => {
  it("turns a positive adjustment into a discount", () => {
    expect(normalizeAdjustment("25")).toBe("-25.00");
    expect(normalizeAdjustment("-10.5")).toBe("-10.50");
    expect(normalizeAdjustment("abc")).toBe("0");
    expect(normalizeAdjustment("0")).toBe("0.00");
  });

  it("reads quantities as whole numbers of at least 1, anything else as 1", () => {
    expect(parseQty("3")).toBe(3);
    expect(parseQty("2.7")).toBe(2);
    for (const bad of ["", "0", "-4", "two", "NaN"]) expect(parseQty(bad)).toBe(1);
  });
});

describe("package choice", () => {
  const base = [frame(), emptyItem("ADDON", { name: "UV", unitPrice: "10", catalogId: "u" })];

  it("a catalog package replaces package, lens, material and AR with one priced item", () => {
    const custom = setCatalogItem(applyPackageChoice(base, { type: "custom" }), "LENS", lens);
    const items = applyPackageChoice(custom, { type: "catalog", pkg });
    expect(kinds(items)).toEqual(["ADDON", "FRAME", "PACKAGE"]);
    const p = items.find((i) => i.kind === "PACKAGE")!;
    expect(p).toMatchObject({
      name: pkg.name,
      unitPrice: "389.00",
      notes: "All-in",
      catalogId: "p1",
    });
    expect(currentPackageChoice(items)).toBe("p1");
  });

  it("Custom Package replaces only the package item, zero-priced, and keeps lens choices", () => {
    let items = applyPackageChoice(base, { type: "custom" });
    items = setCatalogItem(items, "LENS", lens);
    items = setCatalogItem(items, "MATERIAL", material);
    items = setCatalogItem(items, "AR", ar);
    items = applyPackageChoice(items, { type: "custom" });
    expect(kinds(items)).toEqual(["ADDON", "AR", "FRAME", "LENS", "MATERIAL", "PACKAGE"]);
    expect(items.find((i) => i.kind === "PACKAGE")).toMatchObject({
      name: "Custom Package",
      unitPrice: "0",
      catalogId: null,
    });
    expect(currentPackageChoice(items)).toBe("custom");
    expect(subtotalCents(items)).toBe(18900 + 1000 + 15000 + 4000 + 8500);
    // Choosing another lens replaces the first.
    items = setCatalogItem(items, "LENS", { id: "l2", name: "Single Vision", price: "60.00" });
    expect(items.filter((i) => i.kind === "LENS").map((i) => i.name)).toEqual(["Single Vision"]);
  });

  it("None removes package, lens, material and AR but not frame or add-ons", () => {
    const custom = setCatalogItem(applyPackageChoice(base, { type: "custom" }), "AR", ar);
    const items = applyPackageChoice(custom, { type: "none" });
    expect(kinds(items)).toEqual(["ADDON", "FRAME"]);
    expect(currentPackageChoice(items)).toBe("none");
  });

  it("add-on checkboxes add and remove ADDON items", () => {
    const on = toggleAddOn([frame()], addOn, true);
    expect(on.filter((i) => i.kind === "ADDON").map((i) => i.unitPrice)).toEqual(["120.00"]);
    expect(toggleAddOn(toggleAddOn(on, addOn, true), addOn, true).length).toBe(2);
    expect(kinds(toggleAddOn(on, addOn, false))).toEqual(["FRAME"]);
  });
});

describe("labels", () => {
  it("builder tabs prefer the label; tablet and print prefer the frame SKU", () => {
    const named = { label: "Sport", items: [frame("OK-1")] };
    expect(optionTabLabel(named, 0)).toBe("Sport");
    expect(optionTitle(named, 0)).toBe("OK-1");
    const bare = { label: " ", items: [frame("")] };
    expect(optionTabLabel(bare, 2)).toBe("Option 3");
    expect(optionTitle(bare, 2)).toBe("Option 3");
    expect(optionTabLabel({ label: "", items: [frame("SKU9")] }, 0)).toBe("SKU9");
  });
});

describe("save check", () => {
  it("needs the optician's name, a frame SKU per option, and lens and material for custom", () => {
    const custom = {
      ...emptyOption(),
      label: "Reading",
      items: applyPackageChoice([frame("")], { type: "custom" }),
    };
    const good = { ...emptyOption(), items: [frame("RB-1")] };
    expect(saveProblems({ opticianName: " ", options: [good, custom] }).map((p) => p.message))
      .toEqual([
        "Optician's Name is required",
        "Reading must have a frame with SKU",
        "Reading requires a lens type to be selected",
        "Reading requires a material to be selected",
      ]);
    const fixed = {
      ...custom,
      items: setCatalogItem(
        setCatalogItem(applyPackageChoice([frame("X")], { type: "custom" }), "LENS", lens),
        "MATERIAL",
        material,
      ),
    };
    expect(saveProblems({ opticianName: "Maria", options: [good, fixed] })).toEqual([]);
    expect(saveProblems({ opticianName: "Maria", options: [{ label: "", items: [] }] })[0].message)
      .toBe("Option 1 must have a frame with SKU");
  });
});

describe("status", () => {
  it("expired is a past expiry on a quote that is not closed", () => {
    const now = new Date("2026-06-01T12:00:00Z");
    expect(isExpired({ status: "ACTIVE", expiresAt: "2026-05-31T00:00:00Z" }, now)).toBe(true);
    expect(isExpired({ status: "CLOSED", expiresAt: "2026-05-31T00:00:00Z" }, now)).toBe(false);
    expect(isExpired({ status: "ACTIVE", expiresAt: "2026-06-02T00:00:00Z" }, now)).toBe(false);
    expect(isExpired({ status: "ACTIVE", expiresAt: null }, now)).toBe(false);
  });

  it("saving activates, or waits on measurements; closed and finalized are read-only", () => {
    expect(statusAfterSave(true)).toBe("ACTIVE");
    expect(statusAfterSave(false)).toBe("PENDING_MEASUREMENTS");
    expect(editBlocker("CLOSED")).toMatch(/closed/);
    expect(editBlocker("FINALIZED")).toMatch(/finalized/);
    expect(editBlocker("ACCEPTED")).toBeNull();
  });

  it("dashboard status text replaces the first underscore and lowercases", () => {
    expect(statusText("PENDING_MEASUREMENTS")).toBe("pending measurements");
    expect(statusText("ACTIVE")).toBe("active");
  });
});

describe("bounds on computed totals", () => {
  // The largest price an item may have, at the largest quantity.
  const lot = () => emptyItem("OTHER", { name: "Lot", unitPrice: "999999.99", qty: 999 });
  const option = (
    items: ReturnType<typeof emptyItem>[],
    shipping = "0",
    adjustmentAmount = "0",
  ) => ({
    label: "",
    items: [frame("F", "0"), ...items],
    shipping,
    adjustmentAmount,
  });
  // 10 lots + 10 units: 9,999,999,900.00, just under the largest amount.
  const nearly = () => [
    ...Array.from({ length: 10 }, lot),
    emptyItem("OTHER", {
      unitPrice: "999999.99",
      qty: 10,
    }),
  ];

  it("allows exactly the largest amount NUMERIC(12,2) holds", () => {
    expect(MAX_AMOUNT_CENTS).toBe(999_999_999_999);
    expect(totalProblems([option(nearly(), "99.99")])).toEqual([]);
  });

  it("names the option's subtotal when its items add up to more", () => {
    expect(totalProblems([option(Array.from({ length: 49 }, lot))])).toEqual([{
      field: "options.0.subtotal",
      message:
        "F: the subtotal is more than the largest amount a quote can hold ($9,999,999,999.99)",
    }]);
  });

  it("names the option's total when shipping takes it over", () => {
    expect(totalProblems([option(nearly(), "100.00")]).map((p) => p.field)).toEqual([
      "options.0.total",
    ]);
  });

  it("names the whole quote when options that each fit do not fit together", () => {
    const big = () => option(Array.from({ length: 10 }, lot));
    expect(totalProblems([big()])).toEqual([]);
    expect(totalProblems([big(), big()]).map((p) => p.field)).toEqual(["total"]);
    // The save check the builder runs includes them.
    expect(saveProblems({ opticianName: "Maria", options: [big(), big()] }).map((p) => p.field))
      .toEqual(["total"]);
  });
});

describe("finalized is final", () => {
  it("may not be closed or reactivated, even when expired", () => {
    const past = "2000-01-01T00:00:00Z";
    expect(closeBlocker("FINALIZED")).toMatch(/Only an owner can reopen it/);
    expect(reactivateBlocker({ status: "FINALIZED", expiresAt: past })).toMatch(/finalized/);
    expect(closeBlocker("ACTIVE")).toBeNull();
    expect(closeBlocker("CLOSED")).toBe("This quote is already closed.");
    expect(reactivateBlocker({ status: "ACTIVE", expiresAt: past })).toBeNull();
    expect(reactivateBlocker({ status: "CLOSED", expiresAt: null })).toBeNull();
    expect(reactivateBlocker({ status: "ACTIVE", expiresAt: null })).toMatch(/expired or closed/);
  });

  it("only an owner may reopen it", () => {
    expect(mayReopen("OWNER", "FINALIZED")).toBe(true);
    expect(mayReopen("ADMIN", "FINALIZED")).toBe(false);
    expect(mayReopen("AUTHORIZED_USER", "FINALIZED")).toBe(false);
    expect(mayReopen("OWNER", "ACTIVE")).toBe(false);
  });
});

describe("discounts stop at zero", () => {
  const opt = (adjustmentAmount: string, shipping = "0") => ({
    label: "Everyday",
    items: [frame("RB1", "100.00")],
    shipping,
    adjustmentAmount,
  });

  it("allows a discount up to the subtotal and shipping, refuses one beyond", () => {
    expect(totalProblems([opt("-110.00", "10.00")])).toEqual([]);
    expect(totalProblems([opt("-110.01", "10.00")])).toEqual([{
      field: "options.0.adjustmentAmount",
      message: "Everyday: the discount is more than the subtotal and shipping ($110.00); " +
        "the total cannot go below $0.00",
    }]);
    // The builder's save check says so too (and the API answers it as a 400).
    expect(saveProblems({ opticianName: "Maria", options: [opt("-99841.00")] })[0].field)
      .toBe("options.0.adjustmentAmount");
  });
});

describe("quantities are taken at their word", () => {
  it("says what is wrong with a fraction, zero, a negative or too many", () => {
    expect(qtyProblem("2.5")).toBe("Quantity must be a whole number");
    expect(qtyProblem(2.5)).toBe("Quantity must be a whole number");
    expect(qtyProblem("0")).toBe("Quantity must be at least 1");
    expect(qtyProblem("-3")).toBe("Quantity must be at least 1");
    expect(qtyProblem("1000")).toBe(`Quantity can be at most ${MAX_QTY}`);
    expect(qtyProblem(1500)).toBe("Quantity can be at most 999");
    for (const ok of ["1", " 7 ", "999", 3, "2.0"]) expect(qtyProblem(ok)).toBeNull();
  });

  it("counts text that is no number as 1 (the spec), and holds numbers as typed", () => {
    for (const text of ["", "two", "abc"]) {
      expect(qtyProblem(text)).toBeNull();
      expect(qtyValue(text)).toBe(1);
    }
    expect(qtyValue("2.5")).toBe(2.5);
    expect(qtyValue("1500")).toBe(1500);
    expect(qtyValue(" 4 ")).toBe(4);
  });
});

describe("live summary", () => {
  const base = () => ({
    items: [
      frame("RB1", "100.00"),
      emptyItem("ADDON", { name: "Blue light", unitPrice: "20", qty: 1 }),
      emptyItem("OTHER", { name: "Case", unitPrice: "5.50", qty: 2 }),
    ],
    shipping: "10",
    adjustmentAmount: "-15",
  });

  it("adds up readable amounts exactly, blank as zero", () => {
    const a = summaryAmounts({ ...base(), shipping: "" });
    expect(a).toEqual({
      frame: 10000,
      lenses: 2000,
      other: 1100,
      subtotal: 13100,
      shipping: 0,
      adjustment: -1500,
      total: 11600,
      unreadable: [],
    });
  });

  it("marks an amount it cannot read, and every sum it is in, instead of counting $0.00", () => {
    const o = base();
    o.items[2] = { ...o.items[2], unitPrice: "5,5.0x" };
    const a = summaryAmounts(o);
    expect(a.other).toBeNull();
    expect(a.subtotal).toBeNull();
    expect(a.total).toBeNull();
    expect(a.frame).toBe(10000);
    expect(a.unreadable).toEqual(["Other item 1 price"]);
    expect(summaryAmounts({ ...base(), shipping: "ten" }).unreadable).toEqual(["Shipping"]);
    expect(summaryAmounts({ ...base(), adjustmentAmount: "x" })).toMatchObject({
      adjustment: null,
      total: null,
      subtotal: 13100,
      unreadable: ["Price adjustment"],
    });
    // A price the save refuses (negative, or over $999,999.99) is not a readable amount either.
    expect(summaryAmounts({ ...base(), items: [frame("RB1", "-5")] }).frame).toBeNull();
    expect(summaryAmounts({ ...base(), items: [frame("RB1", "1000000")] }).frame).toBeNull();
  });

  it("marks a quantity the save would refuse", () => {
    const o = base();
    o.items[0] = { ...o.items[0], qty: 2.5 };
    expect(summaryAmounts(o)).toMatchObject({ frame: null, unreadable: ["Frame quantity"] });
  });
});

describe("expired quotes go out again only after Reactivate Quote", () => {
  const past = "2000-01-01T00:00:00Z";
  const now = new Date("2026-11-23T12:00:00Z");
  it("refuses e-mail and tablet confirmation of an expired quote, pointing to Reactivate Quote", () => {
    expect(expiredBlocker({ status: "EMAILED", expiresAt: past }, "email", now)).toMatch(
      /expired.*Reactivate Quote/,
    );
    expect(expiredBlocker({ status: "ACTIVE", expiresAt: past }, "confirm", now)).toMatch(
      /can no longer be confirmed.*Reactivate Quote/,
    );
    expect(EXPIRED_ACTIONS_HINT).toMatch(/Reactivate Quote/);
  });

  it("lets a quote within its dates, or without an expiry, go out", () => {
    const later = "2026-12-01T00:00:00Z";
    expect(expiredBlocker({ status: "ACTIVE", expiresAt: later }, "email", now)).toBeNull();
    expect(expiredBlocker({ status: "ACTIVE", expiresAt: null }, "confirm", now)).toBeNull();
  });
});

describe("a finalized quote keeps its dates", () => {
  it("may still be e-mailed after its expiry (it cannot be reactivated)", () => {
    const past = "2000-01-01T00:00:00Z";
    expect(expiredBlocker({ status: "FINALIZED", expiresAt: past }, "email")).toBeNull();
    expect(heldBackByExpiry("FINALIZED", true)).toBe(false);
    expect(heldBackByExpiry("ACCEPTED", true)).toBe(true);
    expect(heldBackByExpiry("ACTIVE", false)).toBe(false);
  });
});
