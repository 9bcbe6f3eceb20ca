import { describe, it } from "node:test";
import { expect } from "expect";
import { changesPasswordDestination } from "./admin_settings.ts";

describe("changesPasswordDestination", () => {
  const current = {
    smtpHost: "smtp.store.test",
    smtpPort: 587,
    smtpUser: "quotes@store.test",
    smtpAllowInsecure: false,
  };

  it("is true for a new host, port or user, or for allowing a relay without TLS", () => {
    for (
      const change of [
        { smtpHost: "smtp.evil.test" },
        { smtpHost: null },
        { smtpPort: 25 },
        { smtpUser: "other@store.test" },
        { smtpUser: null },
        { smtpAllowInsecure: true },
      ]
    ) {
      expect([change, changesPasswordDestination(current, change)]).toEqual([change, true]);
    }
  });

  it("is false for the same values sent again, other fields, or turning TLS back on", () => {
    for (
      const change of [
        {},
        { smtpHost: "SMTP.Store.test " },
        { smtpPort: 587 },
        { smtpUser: " quotes@store.test" },
        { smtpAllowInsecure: false },
      ]
    ) {
      expect([change, changesPasswordDestination(current, change)]).toEqual([change, false]);
    }
    expect(
      changesPasswordDestination({ ...current, smtpAllowInsecure: true }, {
        smtpAllowInsecure: true,
      }),
    ).toBe(false);
  });
});
