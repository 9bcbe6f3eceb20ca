import { describe, it } from "node:test";
import { expect } from "expect";
import { fillTemplate } from "./templates.ts";

describe("fillTemplate", () => {
  it("fills the known names and leaves the others as typed, object-prototype names included", () => {
    const vars = { store: "Clear View", client: "Ana Ruiz" };
    expect(fillTemplate("Quote from {store} for {client}", vars)).toBe(
      "Quote from Clear View for Ana Ruiz",
    );
    expect(fillTemplate("{constructor} {__proto__} {toString} {nope}", vars)).toBe(
      "{constructor} {__proto__} {toString} {nope}",
    );
  });
});
