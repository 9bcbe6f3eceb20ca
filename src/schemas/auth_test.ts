import { describe, it } from "node:test";
import { expect } from "expect";
import { staffLoginSchema } from "./auth.ts";

describe("staffLoginSchema", () => {
  it("trims the username and requires both fields", () => {
    expect(staffLoginSchema.parse({ username: " anna ", password: "pw" }).username).toBe("anna");
    expect(staffLoginSchema.safeParse({ username: "  ", password: "pw" }).success).toBe(false);
    expect(staffLoginSchema.safeParse({ username: "anna" }).success).toBe(false);
    expect(staffLoginSchema.safeParse({ username: 1, password: 2 }).success).toBe(false);
  });
});
