import { describe, it } from "node:test";
import { expect } from "expect";
import { safeReturnTo, staffLoginSchema } from "./auth.ts";

describe("safeReturnTo", () => {
  it("keeps local paths with their query", () => {
    expect(safeReturnTo("/clients?filter=missing")).toBe("/clients?filter=missing");
  });
  it("refuses anything that could leave the site", () => {
    for (
      const bad of ["//evil.example", "/\\evil.example", "https://evil.example", "evil", "", 5]
    ) {
      expect(safeReturnTo(bad)).toBe("/dashboard");
    }
  });
});

describe("staffLoginSchema", () => {
  it("trims the username and requires both fields", () => {
    expect(staffLoginSchema.parse({ username: " anna ", password: "pw" }).username).toBe("anna");
    expect(staffLoginSchema.safeParse({ username: "  ", password: "pw" }).success).toBe(false);
    expect(staffLoginSchema.safeParse({ username: "anna" }).success).toBe(false);
    expect(staffLoginSchema.safeParse({ username: 1, password: 2 }).success).toBe(false);
  });
});
