import { describe, it } from "node:test";
import { expect } from "expect";
import { displayName } from "./users.ts";

describe("displayName", () => {
  it("prefers the first name, then the e-mail, then Staff", () => {
    expect(displayName({ firstName: "Maria", email: "m@x.test" })).toBe("Maria");
    expect(displayName({ firstName: "  ", email: "m@x.test" })).toBe("m@x.test");
    expect(displayName({ firstName: "", email: null })).toBe("Staff");
  });
});
