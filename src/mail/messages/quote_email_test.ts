import { describe, it } from "node:test";
import { expect } from "expect";
import { composeQuoteEmail } from "./quote_email.tsx";
import { fillTemplate } from "./parts.tsx";
import type { QuoteBundle } from "../../quotes/views.ts";
import type { MailSettings } from "../mail_settings.ts";

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

describe("composeQuoteEmail", () => {
  it("signs with the store's whole contact line", () => {
    const bundle = {
      quote: { quoteNumber: "Q-000007", opticianName: "Maria" },
      client: { firstName: "Ana", lastName: "Ruiz" },
    } as unknown as QuoteBundle;
    const settings = {
      subjectTemplate: "Your quote {quoteNumber}",
      bodyTemplate: "Here is your quote from {store}.",
    } as MailSettings;
    const store = {
      storeName: "Clear View",
      storePhone: "(555) 010-0100",
      storeEmail: "hello@clear.test",
      storeAddress: "1 Main St",
      storeWebsite: "clear.test",
    };
    const mail = composeQuoteEmail(bundle, settings, store, "");
    for (const part of Object.values(store)) {
      expect(mail.text).toContain(part);
      expect(mail.html).toContain(part);
    }
    expect(mail.subject).toBe("Your quote Q-000007");
  });
});
