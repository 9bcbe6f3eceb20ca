import { describe, it } from "node:test";
import { expect } from "expect";
import { safeReturnTo } from "./return_to.ts";

const APP = "https://store.example";

describe("safeReturnTo", () => {
  it("keeps paths on this site with their query and fragment", () => {
    const cases: Array<[string, string]> = [
      ["/clients?filter=missing", "/clients?filter=missing"],
      ["/quote/6f1c#option-2", "/quote/6f1c#option-2"],
      ["/", "/"],
      ["/quotes?q=caf%C3%A9", "/quotes?q=caf%C3%A9"],
      // An em dash: UTF-8 bytes E2 80 94, the 0x80 is not a control character.
      ["/quotes?q=%E2%80%94", "/quotes?q=%E2%80%94"],
      ["/quotes?q=a b", "/quotes?q=a%20b"],
      ["/clients/../admin", "/admin"],
    ];
    for (const [input, expected] of cases) expect(safeReturnTo(input, APP)).toBe(expected);
  });

  it("falls back for every way off the site", () => {
    const hostile: unknown[] = [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "\t//evil.example",
      "/%09/evil.example",
      "/%0a/evil.example",
      "/%0D%0A/evil.example",
      "/%2509/evil.example", // double-encoded tab
      "/%252509/evil.example", // triple-encoded tab
      "/%2F/evil.example", // decodes to //evil.example
      "/\\evil.example",
      "/\\/evil.example",
      "/%5Cevil.example",
      "/%255Cevil.example",
      "//evil.example",
      "///evil.example",
      "//evil.example/%2e%2e",
      "/..//evil.example",
      "/.//evil.example",
      "/./%2e/..//evil.example",
      "https://evil.example",
      "https://store.example.evil.example/x",
      "http://store.example/dashboard", // other scheme, other origin
      "https:evil.example",
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "/javascript:alert(1)\u0000",
      "data:text/html,<script>alert(1)</script>",
      "/clients\u0000",
      "/clients%00",
      "/clients\u007f",
      "/clients\u0085",
      " /dashboard",
      "evil.example",
      "clients",
      "",
      "/api/logout",
      "/api/staff/logout",
      "/api",
      "/API/../api/login",
      "/" + "a".repeat(2000),
      `/${"%25".repeat(5)}09`,
      5,
      null,
      undefined,
      ["/clients"],
      { toString: () => "/clients" },
    ];
    for (const input of hostile) {
      expect([input, safeReturnTo(input, APP)]).toEqual([input, "/dashboard"]);
    }
  });

  it("uses the caller's fallback, and resolves against APP_URL's origin only", () => {
    expect(safeReturnTo("//evil.example", APP, "")).toBe("");
    expect(safeReturnTo("/clients", "http://127.0.0.1:8123")).toBe("/clients");
    expect(safeReturnTo("/clients", "not a url")).toBe("/dashboard");
  });
});
