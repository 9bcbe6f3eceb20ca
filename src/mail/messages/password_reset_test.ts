import { describe, it } from "node:test";
import { expect } from "expect";
import { composePasswordResetEmail } from "./password_reset.tsx";

describe("composePasswordResetEmail", () => {
  const store = {
    storeName: "Clear <View>",
    storeAddress: "1 Main St",
    storePhone: "(555) 010-0100",
    storeEmail: "hello@clear.test",
    storeWebsite: "",
  };
  const base = {
    name: "Ana",
    username: "ana",
    link: "https://store.test/reset-password?token=abc&x=1",
    minutes: 30,
  };

  it("carries the link in both parts and escapes the HTML one", () => {
    const mail = composePasswordResetEmail(store, base);
    expect(mail.text).toContain(base.link);
    expect(mail.text).toContain("30 minutes");
    expect(mail.html).toContain('href="https://store.test/reset-password?token=abc&amp;x=1"');
    expect(mail.html).toContain("Clear &lt;View&gt;");
    expect(mail.html).not.toContain("<View>");
    expect(mail.subject).toBe("Reset your Clear <View> password");
  });

  it("names the admin who sent it", () => {
    const mail = composePasswordResetEmail(store, { ...base, requestedBy: "Olga Owner" });
    expect(mail.text).toContain("Olga Owner asked for a password reset");
  });
});
